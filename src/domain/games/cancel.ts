import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { games, plays, products } from '../../db/schema.ts';
import { slicer } from '../operations/slices.ts';
import { enteredCount, type GameDeps } from './entry.ts';
import { GAMES_PER_SLICE, productOf, tellPlayers } from './game-rows.ts';
import { holdsToMove, markGameHolds, moveHolds } from './holds.ts';
import { WAITING_GAME_LIFETIME_MS } from './schedule.ts';
import { giveBackFreeEntries } from './free-entries.ts';

/* Ending a game with nobody charged: the 6-day expiry of a game that did not fill, the feed's deadline, the admin's Cancel game. */

/** A waiting game that has not filled in 6 days is canceled: every hold is voided. */
export async function expireStaleGames(deps: GameDeps, now: number): Promise<number[]> {
  const { db } = deps;
  const stale = db
    .select()
    .from(games)
    .where(and(eq(games.status, 'waiting'), lte(games.createdAt, now - WAITING_GAME_LIFETIME_MS)))
    .all();
  const canceled: number[] = [];
  const step = slicer(GAMES_PER_SLICE);
  for (const game of stale) {
    await step();
    // A game that filled is only waiting for its hour; it starts, it is not canceled.
    if (enteredCount(db, game.id) >= game.requiredParticipants) continue;
    const done = await cancelGame(deps, game.id, {
      reason: 'It did not fill within 6 days.',
      message: (brand) => `The game for ${brand} did not fill within 6 days, so it was canceled. Your $1 hold was released; nothing was charged.`,
      only: 'waiting',
    });
    if (done) canceled.push(game.id);
  }
  return canceled;
}

/**
 * Cancels a waiting or live game: nobody is charged (every hold is voided), a live game's
 * reserved unit goes back to stock, and the players are told why. Used by the 6-day expiry,
 * the feed's deadline and the admin's Cancel game.
 */
export async function cancelGame(
  deps: GameDeps,
  gameId: number,
  why: { reason: string; message: (brand: string) => string; only?: 'waiting' | 'active' },
): Promise<boolean> {
  const { db, clock } = deps;
  const claimed = db.transaction((tx) => {
    const before = tx.select().from(games).where(eq(games.id, gameId)).get();
    const from = why.only ? [why.only] : (['waiting', 'active'] as const);
    const won = tx
      .update(games)
      .set({ status: 'canceled', canceledAt: clock.now(), cancelReason: why.reason })
      .where(and(eq(games.id, gameId), inArray(games.status, [...from])))
      .returning({ id: games.id })
      .all();
    if (!before || won.length === 0) return false;
    if (before.status === 'active')
      tx.update(products)
        .set({ quantity: sql`${products.quantity} + 1` })
        .where(eq(products.id, before.productId))
        .run();
    const product = productOf(tx, before.productId);
    tellPlayers(tx, clock, gameId, before.productId, 'canceled', {
      type: 'game_ended',
      title: 'Game canceled',
      message: why.message(product.brand),
      actionUrl: `/play/${product.id}`,
      actionText: 'Play Again',
    });
    markGameHolds(tx, clock, gameId, 'voiding');
    giveBackFreeEntries(tx, clock, gameId);
    tx.update(plays)
      .set({ status: 'void' })
      .where(and(eq(plays.gameId, gameId), inArray(plays.status, ['pending', 'authorizing', 'entered'])))
      .run();
    return true;
  });
  if (claimed) await moveHolds(deps, holdsToMove(db, gameId));
  return claimed;
}
