import { describe, expect, test } from 'bun:test';
import { expireStaleGames } from '../../src/domain/games/cancel.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import {
  book,
  DAY,
  enter,
  gameRow,
  gameStore,
  giftBook,
  holdsOf,
  HOUR,
  MINUTE,
  notesOf,
  pick,
  picks,
  player,
  playsOfGame,
  prizeLines,
  START,
  stockOf,
  T0,
  type GameStore,
} from '../helpers/games.ts';

/*
 * A waiting game that has not filled after 6 days is canceled (DESIGN section 4): its holds
 * voided once, its players told; a game that filled in time still starts.
 */

describe('a waiting game that has not filled after 6 days is canceled', () => {
  async function staleGame(ctx: GameStore) {
    // Gift from the Sea ($8) needs 8 players; three enter and one only picks.
    const productId = giftBook(ctx).id;
    const entrants = [await player(ctx, 'ann'), await player(ctx, 'ben'), await player(ctx, 'cat')];
    let gameId = 0;
    for (const [i, p] of entrants.entries()) {
      gameId = (await enter(p, productId, picks(ctx, i))).gameId;
      ctx.clock.advance(HOUR);
    }
    const picker = await player(ctx, 'dan');
    await pick(picker, productId, picks(ctx, 9));
    expect(gameRow(ctx, gameId)).toMatchObject({ requiredParticipants: 8, createdAt: T0 });
    return { productId, entrants, picker, gameId };
  }

  test('not canceled at 5 days 23 hours; canceled at 6 days: holds voided, nobody charged, players told "Game canceled"', async () => {
    const ctx = await gameStore();
    const { productId, entrants, picker, gameId } = await staleGame(ctx);

    ctx.clock.set(T0 + 6 * DAY - HOUR);
    expect((await runGameJobs(ctx.deps)).canceled).toEqual([]);
    ctx.clock.set(T0 + 6 * DAY - 1);
    expect((await runGameJobs(ctx.deps)).canceled).toEqual([]);
    expect(gameRow(ctx, gameId).status).toBe('waiting');
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['authorized', 'authorized', 'authorized']);

    ctx.clock.set(T0 + 6 * DAY);
    expect((await runGameJobs(ctx.deps)).canceled).toEqual([gameId]);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'canceled', canceledAt: T0 + 6 * DAY, winnerPlayId: null });
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['voided', 'voided', 'voided']);
    const atGateway = ctx.gateway.payments();
    expect(atGateway).toHaveLength(3);
    expect(atGateway.every((p) => p.status === 'CANCELED')).toBe(true);
    expect(atGateway.some((p) => p.status === 'COMPLETED')).toBe(false);
    expect(playsOfGame(ctx, gameId).every((p) => p.status === 'void')).toBe(true);
    for (const p of entrants) {
      const ended = notesOf(ctx, p.id, 'game_ended');
      expect(ended).toHaveLength(1);
      expect(ended[0]).toMatchObject({ title: 'Game canceled', gameId, productId });
      expect(ended[0]!.message).toContain('Gift from the Sea');
    }
    expect(notesOf(ctx, picker.id, 'game_ended')).toHaveLength(0);
    expect(stockOf(ctx, productId)).toBe(9);
    expect(prizeLines(ctx)).toHaveLength(0);

    // Idempotent: nothing more happens later.
    ctx.clock.advance(DAY);
    expect(await runGameJobs(ctx.deps)).toEqual({ started: [], settled: [], canceled: [] });
    expect(await expireStaleGames(ctx.deps, ctx.clock.now())).toEqual([]);
    for (const p of entrants) expect(notesOf(ctx, p.id, 'game_ended')).toHaveLength(1);
    expect(ctx.gateway.payments().every((p) => p.status === 'CANCELED')).toBe(true);

    // A new play opens a new waiting game for the product.
    const again = await pick(entrants[0]!, productId, picks(ctx, 0));
    expect(again.gameId).not.toBe(gameId);
    expect(gameRow(ctx, again.gameId).status).toBe('waiting');
  });

  test('two expiries at once void each hold once', async () => {
    const ctx = await gameStore();
    const { gameId } = await staleGame(ctx);
    ctx.clock.set(T0 + 6 * DAY);
    const [a, b] = await Promise.all([runGameJobs(ctx.deps), expireStaleGames(ctx.deps, ctx.clock.now())]);
    expect([...a.canceled, ...b]).toEqual([gameId]);
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['voided', 'voided', 'voided']);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED']);
  });

  // BUG (src/domain/games/lifecycle.ts expireStaleGames): it cancels every game still 'waiting'
  // 6 days after it opened, including one that has filled and is only waiting for the top of
  // the hour. DESIGN section 4 cancels games that have "not filled"; such a game would start
  // within the hour and settle inside the card network's 7-day window.
  test('a game that filled just before 6 days is started at the top of the hour, not canceled', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    ctx.clock.set(T0 + 6 * DAY - 5 * MINUTE); // 18:05 on day 6: full, due to start at 19:00
    await enter(bob, productId, picks(ctx, 5));
    ctx.clock.set(T0 + 6 * DAY); // 18:10 on day 6: a routine tick
    await runGameJobs(ctx.deps);
    expect(gameRow(ctx, gameId).status).toBe('waiting');
    ctx.clock.set(START + 6 * DAY);
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
  });
});
