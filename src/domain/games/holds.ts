import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { payments, plays } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { leaseUntil } from '../payments/states.ts';

/*
 * The $1 holds of game entries after the game decided what becomes of them. The transaction
 * that settles, starts or cancels a game marks each hold 'capturing' or 'voiding' (with a
 * lease); only then is the gateway called by the money engine (payments/holds.ts moveHolds,
 * with its bounded tries), which the reconciler also runs after a crash.
 */

type HoldRow = typeof payments.$inferSelect;

/** Marks a game's authorized holds (of some plays, or all) to be captured or voided. Runs in the caller's transaction. */
export function markGameHolds(tx: Queryable, clock: Clock, gameId: number, to: 'capturing' | 'voiding', playIds?: number[]): void {
  const ofGame = tx
    .select({ id: plays.id })
    .from(plays)
    .where(playIds ? and(eq(plays.gameId, gameId), inArray(plays.id, playIds)) : eq(plays.gameId, gameId));
  tx.update(payments)
    .set({ status: to, attempts: 0, nextAttemptAt: leaseUntil(clock), updatedAt: clock.now() })
    .where(and(eq(payments.kind, 'play_authorization'), eq(payments.status, 'authorized'), inArray(payments.playId, ofGame)))
    .run();
}

/** A game's holds waiting for their gateway call. */
export function holdsToMove(db: Queryable, gameId: number): HoldRow[] {
  const ofGame = db.select({ id: plays.id }).from(plays).where(eq(plays.gameId, gameId));
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.kind, 'play_authorization'), inArray(payments.status, ['capturing', 'voiding']), inArray(payments.playId, ofGame)))
    .all();
}
