import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { games, payments, plays, products } from '../../src/db/schema.ts';
import { fivePicks } from '../helpers/games.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * Capped games (issue 10): a game takes exactly requiredParticipants entries; the next entrant
 * lands in the next game. Raced on the fake Square server with real latency: eight players pick
 * the same open game and pay at once, and the $1 holds come back in any order.
 */

const LATENCY = 300;
// Each test has its own store and fake Square and mostly waits on their latency: the tests run at once.
const openStore = squareStoresOfFile();

const book = (s: SquareStore) => s.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
const picks = (s: SquareStore, from: number) => fivePicks(s.db, from);

describe.concurrent('capped games on the fake Square', () => {
  describe('a game takes exactly its players', () => {
    test('eight players pay at once for a 2-player game with slow holds: every game gets exactly 2, nobody is held twice or held without an entry', async () => {
      const s = await openStore();
      const productId = book(s).id;
      setShelf(s.db, productId, 10);
      const players = await Promise.all(Array.from({ length: 8 }, (_, i) => s.shopper(`racer${i}`)));
      // Everyone picks while nobody has paid: all eight plays point at the first game.
      for (const [i, p] of players.entries())
        expect((await p.client.post('/api/plays', { json: { productId, influencerIds: picks(s, i % 11) } })).status).toBe(201);
      expect(
        new Set(
          s.db
            .select()
            .from(plays)
            .all()
            .map((p) => p.gameId),
        ).size,
      ).toBe(1);

      s.fake.setLatency(LATENCY, { method: 'POST', path: '/v2/payments' });
      const answers = await Promise.all(players.map((p) => p.client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } })));
      const bodies = await Promise.all(answers.map((a) => a.json()));
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
      await s.tick();

      const entered = s.db.select().from(plays).where(eq(plays.status, 'entered')).all();
      expect(entered).toHaveLength(8);
      const perGame = Map.groupBy(entered, (p) => p.gameId);
      expect([...perGame.values()].map((list) => list.length)).toEqual([2, 2, 2, 2]);
      for (const game of s.db.select().from(games).where(eq(games.productId, productId)).all()) expect(game.requiredParticipants).toBe(2);
      // The answer names the game each player really entered.
      for (const body of bodies) expect(entered.find((p) => p.id === body.playId)?.gameId).toBe(body.gameId);
      // One hold per entry, each authorized once at Square; nothing held for a play that is not in.
      const holds = s.db.select().from(payments).where(eq(payments.kind, 'play_authorization')).all();
      expect(holds.map((h) => h.status).sort()).toEqual(Array(8).fill('authorized'));
      expect(s.fake.payments().filter((p) => p.status === 'APPROVED')).toHaveLength(8);
    });

    test('the ninth player of a full game opens the next one; the panel says so', async () => {
      const s = await openStore();
      const productId = book(s).id;
      const [a, b, c] = await Promise.all(['ann', 'ben', 'cat'].map((name) => s.shopper(name)));
      for (const [i, p] of [a!, b!].entries()) {
        expect((await p.client.post('/api/plays', { json: { productId, influencerIds: picks(s, i) } })).status).toBe(201);
        expect((await p.client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } })).status).toBe(201);
      }
      const full = await (await c!.client.get(`/api/products/${productId}/competition`)).json();
      expect(full).toMatchObject({ gameStatus: 'waiting', participants: 2, requiredParticipants: 2, nextGame: null });
      const page = await (await c!.client.get(`/product/${productId}?tab=competition`)).text();
      expect(page).toContain('This game is full. Join now and you open the next game.');

      const made = await (await c!.client.post('/api/plays', { json: { productId, influencerIds: picks(s, 4) } })).json();
      expect(made.gameId).not.toBe(full.gameId);
      expect((await c!.client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } })).status).toBe(201);
      const after = await (await c!.client.get(`/api/products/${productId}/competition`)).json();
      expect(after).toMatchObject({ gameId: full.gameId, participants: 2, nextGame: { id: made.gameId, participants: 1, requiredParticipants: 2 } });
    });

    test('no new game opens when every unit is already promised to a full game', async () => {
      const s = await openStore();
      const productId = book(s).id;
      setShelf(s.db, productId, 1);
      const [a, b, c] = await Promise.all(['ann', 'ben', 'cat'].map((name) => s.shopper(name)));
      for (const [i, p] of [a!, b!].entries()) {
        await p.client.post('/api/plays', { json: { productId, influencerIds: picks(s, i) } });
        expect((await p.client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } })).status).toBe(201);
      }
      const refused = await c!.client.post('/api/plays', { json: { productId, influencerIds: picks(s, 4) } });
      expect(refused.status).toBe(409);
      expect((await refused.json()).message).toBe('Every unit of this product is already promised to a game. Try again after the next game.');
      expect(s.db.select().from(games).all()).toHaveLength(1);
    });
  });
});
