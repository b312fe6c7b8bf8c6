import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { games, products } from '../../src/db/schema.ts';
import { EVERY_UNIT_PROMISED, GAMES_NOT_OPEN } from '../../src/domain/games/openness.ts';
import { seededApp } from '../helpers/app.ts';
import { all, attributes, first, textOf } from '../helpers/html.ts';
import { setShelf } from '../helpers/variants.ts';

/* Issue 27, item 1: Play is offered only where there is a game to join. */

const PLAYABLE = 22; // The Old Man and the Sea: playable, $2, 6 in stock.
const NOT_PLAYABLE = 1; // Ray-Ban Aviator: games closed.

async function seeded() {
  const ctx = await seededApp();
  return ctx;
}

const playLinks = (html: string) => attributes(html, 'a[href^="/social-play/"], a[href^="/play/"]', 'href');

describe('Play only with a game to join', () => {
  test('the shop: a card offers Play exactly for the products with a game to join', async () => {
    const ctx = await seeded();
    const playable = ctx.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.playEnabled, true))
      .all()
      .map((row) => `/social-play/${row.id}`);
    expect(playable.length).toBeGreaterThan(0);
    for (const path of ['/products', '/']) {
      const html = await (await ctx.client().get(path)).text();
      const offered = playLinks(html);
      expect(offered.length).toBeGreaterThan(0);
      for (const href of offered) expect(playable).toContain(href);
      expect(offered).not.toContain(`/social-play/${NOT_PLAYABLE}`);
    }
    // Sold out: the card keeps Pay (to the product page) and loses Play.
    setShelf(ctx.db, PLAYABLE, 0);
    expect(playLinks(await (await ctx.client().get('/products')).text())).not.toContain(`/social-play/${PLAYABLE}`);
  });

  test('the product page: Play Now only with a game to join; a product whose units are all promised says so', async () => {
    const ctx = await seeded();
    const page = async (id: number) => (await ctx.client().get(`/product/${id}`)).text();
    expect(playLinks(await page(PLAYABLE))).toEqual([`/social-play/${PLAYABLE}`]);
    expect(playLinks(await page(NOT_PLAYABLE))).toEqual([]);
    // One unit left and it is promised to a waiting game that is full: no game can open for it.
    setShelf(ctx.db, PLAYABLE, 1);
    ctx.db.insert(games).values({ productId: PLAYABLE, status: 'waiting', requiredParticipants: 0, createdAt: ctx.clock.now() }).run();
    const promised = await page(PLAYABLE);
    expect(playLinks(promised)).toEqual([]);
    expect(textOf(first(promised, '[data-no-game]')!)).toBe(EVERY_UNIT_PROMISED);
  });

  test('the competition panel is told whether a play would find a game (its Play Now)', async () => {
    const ctx = await seeded();
    const canJoin = async (id: number) => (await (await ctx.client().get(`/api/products/${id}/competition`)).json()).canJoin;
    expect(await canJoin(PLAYABLE)).toBe(true);
    expect(await canJoin(NOT_PLAYABLE)).toBe(false);
    setShelf(ctx.db, PLAYABLE, 0);
    expect(await canJoin(PLAYABLE)).toBe(false);
  });

  test('/play and /social-play for a product without games say so before any pick and suggest products with open games', async () => {
    const ctx = await seeded();
    for (const path of [`/play/${NOT_PLAYABLE}`, `/social-play/${NOT_PLAYABLE}`]) {
      const response = await ctx.client().get(path);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).not.toContain('data-island="PlayGame"');
      expect(textOf(first(html, '[data-no-game]')!)).toBe(GAMES_NOT_OPEN);
      const suggested = playLinks(html);
      expect(suggested.length).toBeGreaterThan(0);
      expect(suggested.length).toBeLessThanOrEqual(4);
      expect(suggested).not.toContain(`/social-play/${NOT_PLAYABLE}`);
      expect(all(html, 'h2').map(textOf)).toContain('Products with a game to join');
    }
  });

  test('the tutorial and welcome pages no longer promise that every product can be won', async () => {
    const ctx = await seeded();
    for (const path of ['/tutorial', '/welcome']) {
      const html = await (await ctx.client().get(path)).text();
      expect(html).not.toContain('Every product in the store can be yours');
      expect(html).toContain('game open to join');
      expect(html).toContain('delivered in Laguna Beach (92651) only');
    }
  });
});
