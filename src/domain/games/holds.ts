import { and, eq, inArray, lte, or, isNull } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { payments, plays } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { alertAdmins } from '../payments/alerts.ts';
import { asPaymentFailure, type GatewayPayment, type PaymentGateway } from '../payments/gateway.ts';
import { backoffMs, leaseUntil, logPaymentEvent, MAX_HOLD_ATTEMPTS, OUTAGE_AFTER_FAILURES } from '../payments/states.ts';

/*
 * The $1 holds of game entries after the game decided what becomes of them. The transaction
 * that settles, starts or cancels a game marks each hold 'capturing' or 'voiding' (with a
 * lease); only then is the gateway called, and the answer moves the row to 'captured' or
 * 'voided'. A crash in between leaves the in-between state, which the reconciler finishes.
 * A hold the gateway will not move is retried with backoff MAX_HOLD_ATTEMPTS times, then
 * given a terminal state an admin sees: 'expired' (the hold lapsed at the gateway),
 * 'capture_failed' or 'void_failed'.
 */

export interface HoldDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
}

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

/** Every hold whose time has come (after a crash, or a backoff), for the reconciler. */
export function dueHolds(db: Queryable, now: number, limit = 500): HoldRow[] {
  return db
    .select()
    .from(payments)
    .where(and(inArray(payments.status, ['capturing', 'voiding']), or(isNull(payments.nextAttemptAt), lte(payments.nextAttemptAt, now))))
    .limit(limit)
    .all();
}

function finish(deps: HoldDeps, row: HoldRow, from: 'capturing' | 'voiding', set: Partial<HoldRow>): boolean {
  return (
    deps.db
      .update(payments)
      .set({ ...set, updatedAt: deps.clock.now() })
      .where(and(eq(payments.id, row.id), eq(payments.status, from)))
      .returning({ id: payments.id })
      .all().length > 0
  );
}

async function gatewayStatus(gateway: PaymentGateway, id: string): Promise<GatewayPayment | null> {
  try {
    return await gateway.getPayment(id);
  } catch {
    return null;
  }
}

/** What the admin's alert calls a hold: a game entry's $1, or a team buy's half (promotions/teams-holds.ts moves them here too). */
const holdName = (row: HoldRow) => (row.kind === 'team_authorization' ? 'team buy hold' : '$1 hold');

/** One gateway call for one hold; false when the outcome was unknown (the gateway may be down). */
async function moveHold(deps: HoldDeps, row: HoldRow): Promise<boolean> {
  const { gateway } = deps;
  const from = row.status as 'capturing' | 'voiding';
  const capture = from === 'capturing';
  const attempts = row.attempts + 1;
  if (!row.gatewayPaymentId) {
    finish(deps, row, from, { status: capture ? 'capture_failed' : 'void_failed', attempts, errorCode: 'NO_GATEWAY_PAYMENT', nextAttemptAt: null });
    alertAdmins(deps, row, capture ? 'capture_failed' : 'void_failed', `Hold #${row.id} has no gateway payment id.`);
    return true;
  }
  // Claim: renew the lease only if nobody renewed it since we read the row, so two workers
  // (two processes, or a job and the reconciler) never call the gateway for one hold at once.
  const seen = row.nextAttemptAt === null ? isNull(payments.nextAttemptAt) : eq(payments.nextAttemptAt, row.nextAttemptAt);
  const claimed = deps.db
    .update(payments)
    .set({ nextAttemptAt: leaseUntil(deps.clock) })
    .where(and(eq(payments.id, row.id), eq(payments.status, from), seen))
    .returning({ id: payments.id })
    .all();
  if (claimed.length === 0) return true;
  try {
    const moved = capture ? await gateway.capture(row.gatewayPaymentId) : await gateway.void(row.gatewayPaymentId);
    finish(deps, row, from, {
      status: capture ? 'captured' : 'voided',
      attempts,
      errorCode: null,
      errorDetail: null,
      nextAttemptAt: null,
      gatewayPaymentId: moved.id,
    });
    return true;
  } catch (error) {
    const failure = asPaymentFailure(error);
    const now = await gatewayStatus(gateway, row.gatewayPaymentId);
    if (now?.status === (capture ? 'COMPLETED' : 'CANCELED')) {
      finish(deps, row, from, { status: capture ? 'captured' : 'voided', attempts, errorCode: null, errorDetail: null, nextAttemptAt: null });
      return true;
    }
    if (capture && now?.status === 'CANCELED') {
      // The hold lapsed (or was canceled) at the gateway: there is nothing left to capture.
      finish(deps, row, from, { status: 'expired', attempts, errorCode: failure.code, errorDetail: failure.detail.slice(0, 500), nextAttemptAt: null });
      alertAdmins(deps, row, 'expired', `The ${holdName(row)} #${row.id} expired before it could be captured.`);
      return true;
    }
    if (!capture && (now?.status === 'COMPLETED' || now?.status === 'FAILED')) {
      const status = now.status === 'FAILED' ? 'voided' : 'void_failed';
      finish(deps, row, from, { status, attempts, errorCode: failure.code, errorDetail: failure.detail.slice(0, 500), nextAttemptAt: null });
      if (status === 'void_failed')
        alertAdmins(deps, row, 'void_failed', `The ${holdName(row)} #${row.id} was captured although it should have been released.`);
      return true;
    }
    if (attempts >= MAX_HOLD_ATTEMPTS) {
      const status = capture ? 'capture_failed' : 'void_failed';
      finish(deps, row, from, { status, attempts, errorCode: failure.code, errorDetail: failure.detail.slice(0, 500), nextAttemptAt: null });
      alertAdmins(
        deps,
        row,
        status,
        `The ${holdName(row)} #${row.id} could not be ${capture ? 'captured' : 'released'} after ${attempts} tries: ${failure.detail}`,
      );
      return true;
    }
    finish(deps, row, from, {
      attempts,
      errorCode: failure.code,
      errorDetail: failure.detail.slice(0, 500),
      nextAttemptAt: deps.clock.now() + backoffMs(attempts),
    });
    logPaymentEvent('hold_retry', { paymentId: row.id, status: from, attempts, code: failure.code, uncertain: failure.uncertain });
    return !failure.uncertain;
  }
}

/**
 * Captures or voids each hold. After OUTAGE_AFTER_FAILURES unknown outcomes in a row the batch
 * stops (the gateway is down): the rest keep their state and lease for the next run.
 */
export async function moveHolds(deps: HoldDeps, rows: HoldRow[]): Promise<void> {
  let unknownInARow = 0;
  for (const row of rows) {
    if (await moveHold(deps, row)) unknownInARow = 0;
    else if (++unknownInARow >= OUTAGE_AFTER_FAILURES) {
      logPaymentEvent('gateway_outage', { stoppedAfter: row.id, left: rows.length });
      return;
    }
  }
}
