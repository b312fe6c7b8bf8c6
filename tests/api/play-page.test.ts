import { describe, expect, test } from 'bun:test';
import { testTokenForCard } from '../../src/shared/test-cards.ts';
import type { PlayGameProps } from '../../src/shared/views/games.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { type TestClient, seededApp } from '../helpers/app.ts';
import { islandProps, links } from '../helpers/html.ts';
import { setShelf } from '../helpers/variants.ts';

/* The Play Now page at /play/{id} and /social-play/{id} (spec section 2), as the server renders it. */

const PLAYABLE = 22; // The Old Man and the Sea: playable, $2, 6 in stock.
const NOT_PLAYABLE = 1; // Ray-Ban Aviator: games closed.

async function seeded() {
  const ctx = await seededApp();
  return ctx;
}

async function shopper(client: TestClient, username: string, withCard: boolean): Promise<void> {
  expect((await client.post('/api/register', { json: { username, password: 'secret-pass' } })).status).toBe(201);
  expect((await client.post('/api/user/play-consent', { json: { adult: true, acceptRules: true } })).status).toBe(200);
  if (!withCard) return;
  const made = testTokenForCard('4111111111111111', 12, 2030, '123');
  if ('error' in made) throw new Error(made.error);
  const saved = await client.request('PATCH', '/api/user/profile', { json: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: made.token } } });
  expect(saved.status).toBe(200);
}

describe('GET /play/{id} and /social-play/{id}', () => {
  test('both paths answer 200 with the PlayGame island; /play/{id} is canonical and the back button leads to the product', async () => {
    const { client } = await seeded();
    for (const path of [`/play/${PLAYABLE}`, `/social-play/${PLAYABLE}`]) {
      const response = await client().get(path);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('data-island="PlayGame"');
      expect(html).toContain('data-mode="load"');
      expect(html).toContain(`<link rel="canonical" href="http://localhost/play/${PLAYABLE}"/>`);
      expect(html).toMatch(/<title>Play Now: The Old Man and the Sea [^<]*\| /);
      expect(html).toContain(`href="/product/${PLAYABLE}"`);
      expect(html).toContain('Join Game - $1');
      expect(html).toContain('0 of 2 players joined');
      expect(html).toContain('How are influencers scored?');
      expect(html).toMatch(/<script type="module" src="\/assets\/runtime-[a-z0-9]+\.js">/);
    }
  });

  test('the island gets the product, the game, every influencer and the visitor state', async () => {
    const { client } = await seeded();
    const props = islandProps<PlayGameProps>(await (await client().get(`/play/${PLAYABLE}`)).text(), 'PlayGame');
    expect(props.product).toEqual({
      id: PLAYABLE,
      brand: 'The Old Man and the Sea',
      subtitle: 'by Ernest Hemingway',
      price: 2,
      imageUrl: '/static/images/products/book-old-man-and-the-sea.svg?fallback=book',
      fallbackImageUrl: null,
      playEnabled: true,
      quantity: 6,
    });
    expect(props.game).toEqual({ entries: 0, requiredParticipants: 2, live: false, afterFull: false });
    expect(props.signedIn).toBe(false);
    expect(props.hasCard).toBe(false);
    expect(props.influencers.length).toBeGreaterThan(3);
    const [first] = props.influencers;
    expect(Object.keys(first!).sort()).toEqual(
      ['avatar', 'category', 'engagementRate', 'handle', 'id', 'metrics', 'name', 'platforms', 'score', 'totalFollowers'].sort(),
    );
    expect(Object.keys(first!.metrics[Object.keys(first!.platforms)[0]!]!).sort()).toEqual(['engagement', 'followers', 'growth', 'posts']);
  });

  test('signed in: hasCard follows the card on file, and entries count once the $1 is held', async () => {
    const ctx = await seeded();
    const noCard = ctx.client();
    await shopper(noCard, 'nocard1', false);
    expect(islandProps<PlayGameProps>(await (await noCard.get(`/play/${PLAYABLE}`)).text(), 'PlayGame')).toMatchObject({ signedIn: true, hasCard: false });

    const player = ctx.client();
    await shopper(player, 'player1', true);
    const before = islandProps<PlayGameProps>(await (await player.get(`/play/${PLAYABLE}`)).text(), 'PlayGame');
    expect(before).toMatchObject({ signedIn: true, hasCard: true });
    const influencerIds = before.influencers.slice(0, 5).map((p) => String(p.id));
    expect((await player.post('/api/plays', { json: { productId: PLAYABLE, influencerIds } })).status).toBe(201);
    expect((await player.post('/api/payments', { json: { productId: PLAYABLE, amount: 1, type: 'play' } })).status).toBe(201);
    const html = await (await player.get(`/social-play/${PLAYABLE}`)).text();
    expect(islandProps<PlayGameProps>(html, 'PlayGame').game).toEqual({ entries: 1, requiredParticipants: 2, live: false, afterFull: false });
    expect(html).toContain('1 of 2 players joined');
  });

  test('an unknown or invalid id answers 404 Product Not Found with Go Back to /products', async () => {
    const { client } = await seeded();
    for (const path of ['/play/9999', '/social-play/9999', '/play/abc', '/play/0']) {
      const response = await client().get(path);
      expect(response.status).toBe(404);
      const html = await response.text();
      expect(html).toContain('Product Not Found');
      expect(links(html)).toContainEqual({ href: '/products', text: 'Go Back' });
      expect(html).not.toContain('data-island="PlayGame"');
    }
  });

  test('a product without games shows "Games are not open for this product." instead of the join bar', async () => {
    const { client } = await seeded();
    const response = await client().get(`/play/${NOT_PLAYABLE}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Games are not open for this product.');
    expect(html).not.toContain('Join Game - $1');
    expect(html).toContain(`href="/product/${NOT_PLAYABLE}"`);
  });

  test('a sold-out product says it is out of stock instead of the join bar', async () => {
    const { client, db } = await seeded();
    setShelf(db, PLAYABLE, 0);
    const html = await (await client().get(`/play/${PLAYABLE}`)).text();
    expect(html).toContain('This product is out of stock, so no game can be played for it right now.');
    expect(html).not.toContain('Join Game - $1');
  });
});
