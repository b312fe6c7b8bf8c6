import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { games, plays } from '../../db/schema.ts';
import { owners, release } from '../inventory/stock.ts';
import type { Clock } from '../clock.ts';
import { slicer } from '../operations/slices.ts';
import { enteredCount, type GameDeps } from './entry.ts';
import { GAMES_PER_SLICE, gameSizeOf, inSize, productOf, tellPlayers } from './game-rows.ts';
import { holdsToMove, markGameHolds } from './holds.ts';
import { moveHolds } from '../payments/holds.ts';
import type { PaymentDeps } from '../payments/purposes.ts';
import { WAITING_GAME_LIFETIME_MS } from './schedule.ts';
import { giveBackFreeEntries } from './free-entries.ts';
import { revealedSeedOf } from './seeds.ts';

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
      message: (brand, sized) =>
        `The game for ${brand}${sized} did not fill within 6 days, so it was canceled. Your $1 hold was released; nothing was charged.`,
      only: 'waiting',
      unlessFilled: true,
    });
    if (done) canceled.push(game.id);
  }
  return canceled;
}

export interface CancelWhy {
  reason: string;
  /** The players' message: `brand` names the product, `sized` the game's size when it has several (' in size M', else ''). */
  message: (brand: string, sized: string) => string;
  only?: 'waiting' | 'active';
  /** The expiry decided on an entry count read before: an entry paid since that fills the game stops the cancel. */
  unlessFilled?: boolean;
}

/**
 * Cancels a waiting or live game: nobody is charged (every hold is voided), a live game's
 * reserved unit goes back to stock, and the players are told why. Used by the 6-day expiry,
 * the feed's deadline, the admin's Cancel game and a product's removal (flows/end-product.ts).
 */
export async function cancelGame(deps: GameDeps, gameId: number, why: CancelWhy): Promise<boolean> {
  const claimed = deps.db.transaction((tx) => cancelGameIn(tx, deps.clock, gameId, why));
  if (claimed) await voidGameHolds(deps, gameId);
  return claimed;
}

/** cancelGame's decision in the caller's transaction; once it commits, voidGameHolds asks the gateway. */
export function cancelGameIn(tx: Queryable, clock: Clock, gameId: number, why: CancelWhy): boolean {
  const before = tx.select().from(games).where(eq(games.id, gameId)).get();
  const from = why.only ? [why.only] : (['waiting', 'active'] as const);
  const won = tx
    .update(games)
    .set({ status: 'canceled', canceledAt: clock.now(), cancelReason: why.reason, ...(before ? revealedSeedOf(before) : {}) })
    .where(
      and(
        eq(games.id, gameId),
        inArray(games.status, [...from]),
        why.unlessFilled
          ? sql`(select count(*) from ${plays} where ${plays.gameId} = ${games.id} and ${plays.status} = 'entered') < ${games.requiredParticipants}`
          : undefined,
      ),
    )
    .returning({ id: games.id })
    .all();
  if (!before || won.length === 0) return false;
  if (before.status === 'active') release(tx, owners.game(gameId), clock.now());
  const product = productOf(tx, before.productId);
  tellPlayers(tx, clock, gameId, before.productId, 'canceled', {
    type: 'game_ended',
    title: 'Game canceled',
    message: why.message(product.brand, inSize(gameSizeOf(tx, before))),
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
}

/** The gateway's part of a cancel, after its transaction (a gateway call never runs inside one). */
export async function voidGameHolds(deps: PaymentDeps, gameId: number): Promise<void> {
  await moveHolds(deps, holdsToMove(deps.db, gameId));
}

/** A product's games in these states, oldest first: what removing the product has to end or wait for. */
export function gamesOfProduct(db: Queryable, productId: number, statuses: ('waiting' | 'active')[]): { id: number; status: string }[] {
  return db
    .select({ id: games.id, status: games.status })
    .from(games)
    .where(and(eq(games.productId, productId), inArray(games.status, statuses)))
    .orderBy(games.id)
    .all();
}
