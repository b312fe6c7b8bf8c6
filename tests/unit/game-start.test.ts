import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { games, plays } from '../../src/db/schema.ts';
import { payForPlay } from '../../src/domain/games/entry-payment.ts';
import { requiredParticipantsFor } from '../../src/domain/games/entry.ts';
import { runGameJobs, startDueGames } from '../../src/domain/games/lifecycle.ts';
import { topOfHourAtOrAfter } from '../../src/domain/games/schedule.ts';
import { DomainError } from '../../src/domain/errors.ts';
import {
  book,
  DAY,
  END,
  enter,
  enteredOf,
  filledBookGame,
  filledWithCarolPending,
  gameRow,
  gamesOf,
  gameStore,
  holdsOf,
  HOUR,
  MINUTE,
  notesOf,
  pay,
  pick,
  picks,
  player,
  playRow,
  START,
  stockOf,
  T0,
} from '../helpers/games.ts';

/*
 * When an hourly game starts (DESIGN section 4), driven on the manual clock: at the top of the
 * hour after it filled, with one unit of stock reserved, whenever the tick that starts it runs;
 * entries made after that hour began go to the next game.
 */

describe('rules as functions', () => {
  test('requiredParticipantsFor: max(2, ceil(price))', () => {
    expect(requiredParticipantsFor(50)).toBe(2);
    expect(requiredParticipantsFor(100)).toBe(2);
    expect(requiredParticipantsFor(200)).toBe(2);
    expect(requiredParticipantsFor(201)).toBe(3);
    expect(requiredParticipantsFor(800)).toBe(8);
    expect(requiredParticipantsFor(17100)).toBe(171);
  });

  test('topOfHourAtOrAfter: the next minute 0 second 0, or the time itself when it is one', () => {
    expect(topOfHourAtOrAfter(T0)).toBe(START);
    expect(topOfHourAtOrAfter(START - 1)).toBe(START);
    expect(topOfHourAtOrAfter(START)).toBe(START);
    expect(topOfHourAtOrAfter(START + 1)).toBe(START + HOUR);
  });
});

describe('a game starts at the top of the hour after it filled', () => {
  test('not enough players: still waiting hours and days later; no stock taken, nobody told it started', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    for (const at of [START, START + 3 * HOUR, T0 + 2 * DAY, T0 + 5 * DAY]) {
      ctx.clock.set(at);
      expect((await runGameJobs(ctx.deps)).started).toEqual([]);
      expect(gameRow(ctx, gameId)).toMatchObject({ status: 'waiting', startTime: null, endTime: null });
    }
    expect(stockOf(ctx, productId)).toBe(6);
    expect(notesOf(ctx, alice.id, 'game_started')).toHaveLength(0);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['APPROVED']);
  });

  test('filled at 18:10: waiting at 18:59:59.999, active 19:00 to 20:00 after the 19:00 tick; one unit of stock reserved', async () => {
    const ctx = await gameStore();
    const { alice, bob, productId, gameId } = await filledBookGame(ctx);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'waiting', requiredParticipants: 2 });
    expect(stockOf(ctx, productId)).toBe(6);

    ctx.clock.set(START - 1);
    expect(await runGameJobs(ctx.deps)).toEqual({ started: [], settled: [], canceled: [] });
    expect(gameRow(ctx, gameId).status).toBe('waiting');

    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'active', startTime: START, endTime: END });
    expect(stockOf(ctx, productId)).toBe(5);

    // More ticks during the hour change nothing and take no more stock.
    for (const at of [START, START + 10 * MINUTE, END - 1]) {
      ctx.clock.set(at);
      expect(await runGameJobs(ctx.deps)).toEqual({ started: [], settled: [], canceled: [] });
    }
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'active', startTime: START, endTime: END });
    expect(stockOf(ctx, productId)).toBe(5);
    for (const p of [alice, bob]) {
      const started = notesOf(ctx, p.id, 'game_started');
      expect(started).toHaveLength(1);
      expect(started[0]).toMatchObject({ gameId, productId, title: 'Game started' });
    }
    // Holds are only authorized while the game runs; nothing is charged yet.
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['APPROVED', 'APPROVED']);
  });

  test('the server was down at 19:00: a tick at 19:30 still starts it with startTime 19:00', async () => {
    const ctx = await gameStore();
    const { gameId, productId } = await filledBookGame(ctx);
    ctx.clock.set(START + 30 * MINUTE);
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'active', startTime: START, endTime: END });
    expect(stockOf(ctx, productId)).toBe(5);
  });

  test('startDueGames on its own honours the `now` it is given', async () => {
    const ctx = await gameStore();
    const { gameId } = await filledBookGame(ctx);
    expect(await startDueGames(ctx.deps, START - 1)).toEqual([]);
    expect(await startDueGames(ctx.deps, START)).toEqual([gameId]);
    expect(await startDueGames(ctx.deps, START)).toEqual([]);
  });

  test('filled exactly on the hour: it starts at that very hour', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    ctx.clock.set(START);
    await enter(bob, productId, picks(ctx, 5));
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
    expect(gameRow(ctx, gameId)).toMatchObject({ startTime: START, endTime: END });
  });

  test('late entry after the start: POST /api/plays opens a NEW waiting game; the started game takes no entry', async () => {
    const ctx = await gameStore();
    const { gameId, productId, alice } = await filledBookGame(ctx);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    const carol = await player(ctx, 'carol');

    ctx.clock.set(START + 5 * MINUTE);
    const late = await enter(carol, productId, picks(ctx, 3));
    expect(late.gameId).not.toBe(gameId);
    expect(gameRow(ctx, late.gameId)).toMatchObject({ status: 'waiting', productId, requiredParticipants: 2 });
    expect(enteredOf(ctx, gameId)).toHaveLength(2);
    expect(enteredOf(ctx, gameId).map((p) => p.userId)).not.toContain(carol.id);

    // A player of the running game may also queue for the next one.
    const again = await enter(alice, productId, picks(ctx, 8));
    expect(again.gameId).toBe(late.gameId);
    expect(gamesOf(ctx, productId).map((g) => g.status)).toEqual(['active', 'waiting']);

    // The new game fills at 19:05, so it starts at 20:00 as the first one settles.
    ctx.clock.set(END);
    const run = await runGameJobs(ctx.deps);
    expect(run.settled).toEqual([gameId]);
    expect(run.started).toEqual([late.gameId]);
    expect(gameRow(ctx, late.gameId)).toMatchObject({ status: 'active', startTime: END, endTime: END + HOUR });
    // One unit per started game: 6 - 1 - 1.
    expect(stockOf(ctx, productId)).toBe(4);
  });

  test('a play picked before the start but paid after it never joins the started game', async () => {
    const ctx = await gameStore();
    const { gameId, productId, carol, pending } = await filledWithCarolPending(ctx);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    expect(playRow(ctx, pending.id).status).toBe('void');

    ctx.clock.set(START + MINUTE);
    const paid = await pay(carol, productId);
    expect(paid.status).toBe(404);
    expect(enteredOf(ctx, gameId)).toHaveLength(2);
    expect(holdsOf(ctx).filter((h) => h.userId === carol.id)).toHaveLength(0);
  });

  test('payForPlay on a game that is no longer waiting: 409, the play is void and nobody is charged', async () => {
    const ctx = await gameStore();
    const { gameId, productId, carol, pending } = await filledWithCarolPending(ctx);
    // Carol picked a minute before the start; the game moved on without the tick that voids
    // pending plays (another process claimed it).
    ctx.db
      .update(plays)
      .set({ createdAt: START - MINUTE })
      .where(eq(plays.id, pending.id))
      .run();
    ctx.db.update(games).set({ status: 'active', startTime: START, endTime: END }).where(eq(games.id, gameId)).run();
    ctx.clock.set(START + MINUTE);
    const error = await payForPlay(ctx.deps, carol.id, { productId, amount: 1, type: 'play' }, '192.0.2.1').catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ status: 409 });
    expect(playRow(ctx, pending.id).status).toBe('void');
    expect(ctx.gateway.payments()).toHaveLength(2);
  });

  // A full game takes no more entries: a player who comes at 19:10 after downtime, before the
  // tick, joins the next game, never the one whose scoring began at 19:00.
  test('an entry made after the top of the hour, before the tick, goes to the next game', async () => {
    const ctx = await gameStore();
    const { gameId, productId } = await filledBookGame(ctx);
    const carol = await player(ctx, 'carol');
    ctx.clock.set(START + 10 * MINUTE); // no tick has run since 19:00
    const next = await pick(carol, productId, picks(ctx, 4));
    expect(next.gameId).not.toBe(gameId);
    expect((await pay(carol, productId)).status).toBe(201);
    await runGameJobs(ctx.deps);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'active', startTime: START });
    expect(enteredOf(ctx, gameId).map((p) => p.userId)).not.toContain(carol.id);
    expect(enteredOf(ctx, next.gameId).map((p) => p.userId)).toEqual([carol.id]);
  });
});
