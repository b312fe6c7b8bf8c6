import { describe, expect, test } from 'bun:test';
import { cancelGame } from '../../src/domain/games/cancel.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { DAY, filledBookGame, gameRow, gameStore, holdsOf, START, T0 } from '../helpers/games.ts';

/*
 * Issue 34, item 5: the 6-day expiry decides on an entry count it read before its cancel. An
 * entry paid in between that fills the game is checked in the cancel's own update, so a game
 * that filled is never canceled, its holds never voided.
 */

describe('the 6-day expiry and an entry that fills the game meanwhile', () => {
  test('the cancel decided on the count before the filling entry changes nothing; the game starts', async () => {
    const ctx = await gameStore();
    const { gameId } = await filledBookGame(ctx);
    ctx.clock.set(T0 + 6 * DAY);
    const canceled = await cancelGame(ctx.deps, gameId, {
      reason: 'It did not fill within 6 days.',
      message: () => 'canceled',
      only: 'waiting',
      unlessFilled: true,
    });
    expect(canceled).toBe(false);
    expect(gameRow(ctx, gameId).status).toBe('waiting');
    expect(holdsOf(ctx).map((hold) => hold.status)).toEqual(['authorized', 'authorized']);
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
    expect(gameRow(ctx, gameId).startTime).toBe(START);
  });

  test('without that check (a cancel that read no count), a filled waiting game is canceled', async () => {
    const ctx = await gameStore();
    const { gameId } = await filledBookGame(ctx);
    const canceled = await cancelGame(ctx.deps, gameId, { reason: 'Test', message: () => 'canceled', only: 'waiting' });
    expect(canceled).toBe(true);
    expect(gameRow(ctx, gameId).status).toBe('canceled');
  });
});
