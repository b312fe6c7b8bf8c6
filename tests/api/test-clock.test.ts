import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { games } from '../../src/db/schema.ts';
import { book, clockRoute, competition, END, filledBookGame, gameStore, HOUR, MINUTE, START, T0 } from '../helpers/games.ts';

/*
 * POST /api/test/clock (CLOCK=manual only): moves the game clock and runs the jobs that are due
 * before it answers, so a browser test can walk a game through its hour.
 */

describe('POST /api/test/clock', () => {
  test('404 without CLOCK=manual; the clock does not move', async () => {
    const ctx = await gameStore({});
    const before = ctx.clock.now();
    const response = await clockRoute(ctx.client(), { advanceMs: HOUR });
    expect(response.status).toBe(404);
    expect(ctx.clock.now()).toBe(before);
  });

  test('{ advanceMs } and { now } move the clock and answer the new time', async () => {
    const ctx = await gameStore();
    const client = ctx.client();
    const advanced = await clockRoute(client, { advanceMs: 5 * MINUTE });
    expect(advanced.status).toBe(200);
    expect(await advanced.json()).toEqual({ now: T0 + 5 * MINUTE });
    expect(ctx.clock.now()).toBe(T0 + 5 * MINUTE);
    const set = await clockRoute(client, { now: START + 123 });
    expect(await set.json()).toEqual({ now: START + 123 });
    expect(ctx.clock.now()).toBe(START + 123);
    expect(await (await clockRoute(client, { advanceMs: 0 })).json()).toEqual({ now: START + 123 });
  });

  test('due jobs run before the answer: a filled game is active in the same request, and settled in a later one', async () => {
    const ctx = await gameStore();
    const { alice, productId, gameId } = await filledBookGame(ctx);
    await clockRoute(alice.client, { now: START - 1 });
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()!.status).toBe('waiting');
    const response = await clockRoute(alice.client, { advanceMs: 1 });
    expect(response.status).toBe(200);
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()).toMatchObject({ status: 'active', startTime: START, endTime: END });
    expect(book(ctx).quantity).toBe(5);
    expect((await competition(ctx, productId)).gameStatus).toBe('active');
    await clockRoute(alice.client, { advanceMs: HOUR });
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()!.status).toBe('completed');
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
  });

  test.each([
    ['empty object', {}],
    ['negative advanceMs', { advanceMs: -1 }],
    ['advanceMs as text', { advanceMs: '60000' }],
    ['now as text', { now: '2026-11-21T19:00:00Z' }],
    ['now null', { now: null }],
    ['an array', [1000]],
    ['a number', 1000],
  ])('bad body (%s): 400, the clock does not move', async (_label, json) => {
    const ctx = await gameStore();
    const response = await clockRoute(ctx.client(), json);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBeTruthy();
    expect(ctx.clock.now()).toBe(T0);
  });

  test('invalid JSON: 400; not JSON at all: 415', async () => {
    const ctx = await gameStore();
    expect((await ctx.client().post('/api/test/clock', { body: '{', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await ctx.client().post('/api/test/clock', { body: 'advanceMs=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(
      415,
    );
    expect(ctx.clock.now()).toBe(T0);
  });

  test('a cross-site POST is refused by the CSRF check', async () => {
    const ctx = await gameStore();
    const response = await ctx.client().post('/api/test/clock', { json: { advanceMs: HOUR }, headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(ctx.clock.now()).toBe(T0);
  });
});
