import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { notify } from '../../src/domain/accounts/notifications.ts';
import { enter, player, seededStore, type Store } from '../helpers/admin-tools.ts';
import { fivePicks } from '../helpers/games.ts';
import { readEvents } from '../helpers/sse.ts';
import { closeWhenFileEnds } from '../helpers/file-end.ts';

/*
 * GET /api/events: what changes reaches the page within a second, a reconnect loses nothing, and
 * nobody sees another user's data. Each test has its own store and mostly waits on the stream, so
 * the tests run at once.
 */

const keepOpen = closeWhenFileEnds((stream: ReturnType<typeof readEvents>) => stream.close());

async function subscribe(client: { get: (path: string, options?: { headers?: Record<string, string> }) => Promise<Response> }, query: string, lastId?: string) {
  const response = await client.get(`/api/events${query}`, lastId ? { headers: { 'last-event-id': lastId } } : undefined);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toStartWith('text/event-stream');
  const stream = keepOpen(readEvents(response));
  const ready = await stream.next();
  expect(ready?.event).toBe('ready');
  return { stream, readyId: Number(ready!.id) };
}

const bookOf = (ctx: Store) => ctx.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;

describe.concurrent('GET /api/events', () => {
  describe('a game change reaches the subscribed page', () => {
    test('an entry arrives as the competition state within 2 s, under a growing id', async () => {
      const ctx = await seededStore();
      const book = bookOf(ctx);
      const { stream, readyId } = await subscribe(ctx.client(), `?product=${book.id}`);
      // Without Last-Event-ID the stream starts with the state as it is.
      const initial = await stream.next();
      expect(initial?.event).toBe('competition');
      expect(JSON.parse(initial!.data).productId).toBe(book.id);

      const alice = await player(ctx, 'live_alice');
      const started = Date.now();
      await enter(alice, book.id, fivePicks(ctx.db, 0));
      let entered = null;
      while (!entered && Date.now() - started < 2000) {
        const message = await stream.next(2000 - (Date.now() - started));
        if (message?.event === 'competition' && JSON.parse(message.data).competition.plays.some((p: { userId: number }) => p.userId === alice.id))
          entered = message;
      }
      expect(entered).not.toBeNull();
      expect(Number(entered!.id)).toBeGreaterThan(readyId);
    });

    test('the scoreboard topic carries the games list; a product nobody asked for is not sent', async () => {
      const ctx = await seededStore();
      const book = bookOf(ctx);
      const { stream } = await subscribe(ctx.client(), '?scoreboard=1');
      expect((await stream.next())?.event).toBe('scoreboard');
      await enter(await player(ctx, 'live_bob'), book.id, fivePicks(ctx.db, 0));
      const messages = await stream.drain(800);
      expect(messages.map((m) => m.event)).toContain('scoreboard');
      expect(messages.map((m) => m.event)).not.toContain('competition');
    });
  });

  describe('resuming with Last-Event-ID', () => {
    test('after a dropped connection the changed topics come at once; nothing changed, nothing sent', async () => {
      const ctx = await seededStore();
      const book = bookOf(ctx);
      const visitor = ctx.client();
      const first = await subscribe(visitor, `?product=${book.id}`);
      await first.stream.next();
      await first.stream.close();

      await enter(await player(ctx, 'live_carol'), book.id, fivePicks(ctx.db, 0));
      const resumed = await subscribe(visitor, `?product=${book.id}`, String(first.readyId));
      const missed = await resumed.stream.next(1000);
      expect(missed?.event).toBe('competition');
      expect(JSON.parse(missed!.data).competition.plays).toHaveLength(1);
      await resumed.stream.close();

      const upToDate = await subscribe(visitor, `?product=${book.id}`, String(resumed.readyId));
      expect(await upToDate.stream.drain(600)).toEqual([]);
    });
  });

  describe('only what that visitor may see', () => {
    test("a user's notifications and cart reach only that user's stream; ?user= is ignored", async () => {
      const ctx = await seededStore();
      const book = bookOf(ctx);
      const dana = await player(ctx, 'live_dana');
      const eli = await player(ctx, 'live_eli');
      const danaStream = await subscribe(dana.client, `?product=${book.id}`);
      const eliStream = await subscribe(eli.client, `?product=${book.id}&user=${dana.id}`);
      const visitor = await subscribe(ctx.client(), `?product=${book.id}&user=${dana.id}`);
      await Promise.all([danaStream, eliStream, visitor].map((s) => s.stream.drain(400)));

      notify(ctx.db, ctx.clock, dana.id, { type: 'order_status', title: 'For Dana only', message: 'Private', eventKey: 'live-test-dana' });
      expect((await dana.client.post('/api/cart', { json: { productId: book.id, quantity: 1 } })).status).toBe(201);

      // All three listen over the same 800 ms: what Dana gets, the others would have got by then.
      const [danaGot, ...othersGot] = await Promise.all([danaStream, eliStream, visitor].map((s) => s.stream.drain(800)));
      const mine = danaGot!.filter((m) => m.event === 'user').map((m) => JSON.parse(m.data));
      expect(mine.at(-1).notifications.some((n: { title: string }) => n.title === 'For Dana only')).toBe(true);
      expect(mine.at(-1).cartCount).toBe(1);
      for (const got of othersGot) expect(got.some((m) => m.event === 'user' || m.data.includes('For Dana only'))).toBe(false);
    });
  });

  describe('a quiet stream stays open', () => {
    test('a heartbeat comment comes every LIVE_HEARTBEAT_MS and carries no event', async () => {
      const ctx = await seededStore({ LIVE_HEARTBEAT_MS: '1000' });
      const { stream } = await subscribe(ctx.client(), '?scoreboard=1');
      await stream.next();
      expect(await stream.next(2500)).toBeNull();
      expect(stream.comments).toBeGreaterThanOrEqual(2);
    });
  });

  describe('bad requests', () => {
    test.each([
      ['?product=abc', 400],
      ['?product=0', 400],
      ['?product=1e3', 400],
      [`?${Array.from({ length: 51 }, (_, i) => `product=${i + 1}`).join('&')}`, 400],
      ['', 400],
      ['?scoreboard=yes', 400],
    ])('GET /api/events%s answers %i with a message', async (query, status) => {
      const ctx = await seededStore();
      const response = await ctx.client().get(`/api/events${query}`);
      expect(response.status).toBe(status);
      expect((await response.json()).message.length).toBeGreaterThan(10);
    });
  });
});
