import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/domain/clock.ts';
import type { GameDeps } from '../../src/domain/games/entry.ts';
import { runGameJobs, settleDueGames, settleGame } from '../../src/domain/games/lifecycle.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { PaymentFailure, type PaymentGateway } from '../../src/domain/payments/gateway.ts';
import { holdsToMove } from '../../src/domain/games/holds.ts';
import { moveHolds } from '../../src/domain/payments/holds.ts';
import { reconcilePayments } from '../../src/domain/payments/reconcile.ts';
import { createTestGateway } from '../../src/domain/payments/test-gateway.ts';
import {
  END,
  endedBookGame,
  expectedScore,
  filledBookGame,
  gameRow,
  gameStore,
  holdsOf,
  HOUR,
  MINUTE,
  notesOf,
  picks,
  playRow,
  prizeLines,
  START,
  stockOf,
  type GameStore,
  type Player,
} from '../helpers/games.ts';

/*
 * Settlement captures every hold of a game exactly once (DESIGN section 4): jobs run twice, at
 * once, before the end, after a restart with nothing in memory, or with a capture that fails.
 */

/** A gateway that fails the first `failures` captures, then behaves. */
function flakyCaptures(inner: PaymentGateway, failures: number): PaymentGateway & { captureCalls: number } {
  let left = failures;
  const wrapped = {
    name: inner.name,
    captureCalls: 0,
    saveCard: (input: Parameters<PaymentGateway['saveCard']>[0]) => inner.saveCard(input),
    authorize: (input: Parameters<PaymentGateway['authorize']>[0]) => inner.authorize(input),
    charge: (input: Parameters<PaymentGateway['charge']>[0]) => inner.charge(input),
    void: (id: string) => inner.void(id),
    refund: (input: Parameters<PaymentGateway['refund']>[0]) => inner.refund(input),
    getPayment: (id: string) => inner.getPayment(id),
    findPayments: (ids: string[], since: number) => inner.findPayments(ids, since),
    async capture(id: string) {
      wrapped.captureCalls++;
      if (left > 0) {
        left--;
        throw new PaymentFailure('SERVICE_UNAVAILABLE', 'Try again later.', false);
      }
      return inner.capture(id);
    },
  };
  return wrapped;
}

/** After settlement: every hold captured exactly once, one prize, each notification once. */
function expectSettledOnce(ctx: GameStore, game: { gameId: number; alice: Player; bob: Player }) {
  expect(gameRow(ctx, game.gameId).status).toBe('completed');
  const gatewayPayments = ctx.gateway.payments();
  expect(gatewayPayments).toHaveLength(2);
  expect(gatewayPayments.every((p) => p.status === 'COMPLETED' && p.amountCents === 100)).toBe(true);
  const holds = holdsOf(ctx);
  expect(holds.map((h) => h.status)).toEqual(['captured', 'captured']);
  expect(holds.map((h) => h.gatewayPaymentId).sort()).toEqual(gatewayPayments.map((p) => p.id).sort());
  expect(prizeLines(ctx)).toHaveLength(1);
  expect(prizeLines(ctx)[0]).toMatchObject({ priceCents: 100, quantity: 1, type: 'play', gameId: game.gameId });
  for (const p of [game.alice, game.bob]) {
    expect(notesOf(ctx, p.id, 'game_ended')).toHaveLength(1);
    expect(notesOf(ctx, p.id, 'game_won').length + notesOf(ctx, p.id, 'game_lost').length).toBe(1);
  }
}

describe('settlement captures each hold exactly once', () => {
  test('runGameJobs twice in a row', async () => {
    const ctx = await gameStore();
    const game = await endedBookGame(ctx);
    expect((await runGameJobs(ctx.deps)).settled).toEqual([game.gameId]);
    expect((await runGameJobs(ctx.deps)).settled).toEqual([]);
    ctx.clock.advance(HOUR);
    expect((await runGameJobs(ctx.deps)).settled).toEqual([]);
    expect(await settleGame(ctx.deps, game.gameId)).toBe(false);
    // Asking again to move the game's holds moves nothing: they are all captured.
    await moveHolds(ctx.deps, holdsToMove(ctx.db, game.gameId));
    await reconcilePayments(ctx.deps);
    expectSettledOnce(ctx, game);
  });

  test('two runGameJobs at once (Promise.all)', async () => {
    const ctx = await gameStore();
    const game = await endedBookGame(ctx);
    const [one, two] = await Promise.all([runGameJobs(ctx.deps), runGameJobs(ctx.deps)]);
    expect([...one.settled, ...two.settled]).toEqual([game.gameId]);
    expectSettledOnce(ctx, game);
  });

  test('two settleGame calls at once (Promise.all), and settleDueGames with them', async () => {
    const ctx = await gameStore();
    const game = await endedBookGame(ctx);
    const results = await Promise.all([settleGame(ctx.deps, game.gameId), settleGame(ctx.deps, game.gameId), settleDueGames(ctx.deps, END)]);
    expect(results.slice(0, 2).filter(Boolean)).toHaveLength(1);
    expect(results[2]).toEqual([]);
    expectSettledOnce(ctx, game);
  });

  test('settleGame before endTime does nothing', async () => {
    const ctx = await gameStore();
    const game = await endedBookGame(ctx);
    ctx.clock.set(END - 1);
    expect(await settleGame(ctx.deps, game.gameId)).toBe(false);
    expect(await settleDueGames(ctx.deps, END - 1)).toEqual([]);
    expect(gameRow(ctx, game.gameId).status).toBe('active');
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['APPROVED', 'APPROVED']);
  });

  test('restart after the end: fresh deps (new gateway, new clock) settle the game and capture the holds', async () => {
    const ctx = await gameStore();
    const game = await filledBookGame(ctx);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    // The process dies during the game and comes back at 20:30 with nothing in memory.
    const gateway = createTestGateway();
    const fresh: GameDeps = { db: ctx.db, clock: new ManualClock(END + 30 * MINUTE), gateway, metrics: simulatedMetrics };
    expect(await runGameJobs(fresh)).toEqual({ started: [], settled: [game.gameId], canceled: [] });
    expect(gameRow(ctx, game.gameId)).toMatchObject({ status: 'completed', settledAt: END + 30 * MINUTE });
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['captured', 'captured']);
    expect(gateway.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(
      gateway
        .payments()
        .map((p) => p.id)
        .sort(),
    ).toEqual(
      holdsOf(ctx)
        .map((h) => h.gatewayPaymentId!)
        .sort(),
    );
    expect(prizeLines(ctx)).toHaveLength(1);
    // The old gateway never captured anything.
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['APPROVED', 'APPROVED']);
    // Scores are the same as a live process would have computed.
    expect(playRow(ctx, game.alicePlay).score).toBeCloseTo(expectedScore(ctx.db, picks(ctx, 0), START, END), 3);
    expect(await runGameJobs(fresh)).toEqual({ started: [], settled: [], canceled: [] });
  });

  test('down through the whole hour: one catch-up tick starts (startTime 19:00) and settles', async () => {
    const ctx = await gameStore();
    const game = await filledBookGame(ctx);
    const fresh: GameDeps = { db: ctx.db, clock: new ManualClock(END + 2 * HOUR), gateway: createTestGateway(), metrics: simulatedMetrics };
    expect(await runGameJobs(fresh)).toEqual({ started: [game.gameId], settled: [game.gameId], canceled: [] });
    expect(gameRow(ctx, game.gameId)).toMatchObject({ status: 'completed', startTime: START, endTime: END });
    expect(stockOf(ctx, game.productId)).toBe(5);
    expect(playRow(ctx, game.bobPlay).score).toBeCloseTo(expectedScore(ctx.db, picks(ctx, 5), START, END), 3);
  });

  test('a capture that fails is put back and done on a later tick, once', async () => {
    const ctx = await gameStore();
    const game = await endedBookGame(ctx);
    const flaky = flakyCaptures(ctx.gateway, 1);
    const deps = { ...ctx.deps, gateway: flaky };
    await runGameJobs(deps);
    expect(gameRow(ctx, game.gameId).status).toBe('completed');
    // One hold failed and stays 'capturing' until its backoff (a minute) has passed; then the reconciler finishes it.
    expect(
      holdsOf(ctx)
        .map((h) => h.status)
        .sort(),
    ).toEqual(['captured', 'capturing']);
    await reconcilePayments(deps);
    expect(flaky.captureCalls).toBe(2);
    ctx.clock.advance(2 * MINUTE);
    await runGameJobs(deps);
    await reconcilePayments(deps);
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['captured', 'captured']);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(flaky.captureCalls).toBe(3);
    expect(prizeLines(ctx)).toHaveLength(1);
  });
});
