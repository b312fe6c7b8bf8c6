import { and, eq, inArray, isNull, lte, or } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { alertAdmins } from './alerts.ts';
import { asPaymentFailure, type GatewayPayment, type PaymentGateway } from './gateway.ts';
import { type Handled, type PaymentDeps, type PaymentRow, purposeOf } from './purposes.ts';
import { backoffMs, leaseUntil, logPaymentEvent, MAX_HOLD_ATTEMPTS, OUTAGE_AFTER_FAILURES } from './states.ts';

/*
 * Holds after their purpose decided what becomes of them (engine.ts markHolds: 'capturing' or
 * 'voiding' with a lease, in the transaction that decided). Only then is the gateway called, and
 * the answer moves the row to 'captured' or 'voided' in one transaction with its purpose's
 * handler. A crash in between leaves the in-between state, which the reconciler finishes. A hold
 * the gateway will not move is retried with backoff MAX_HOLD_ATTEMPTS times, then given a terminal
 * state an admin sees: 'expired' (the hold lapsed at the gateway), 'capture_failed' or
 * 'void_failed'. A capture that gives up never releases what it pays for: its purpose keeps it
 * reserved for the admin's Retry (or the admin's void).
 */

type Ending = 'captured' | 'voided' | 'expired' | 'capture_failed' | 'void_failed' | null;

/** Every hold whose time has come (after a crash, or a backoff), for the reconciler. */
export function dueHolds(db: Queryable, now: number, limit = 500): PaymentRow[] {
  return db
    .select()
    .from(payments)
    .where(and(inArray(payments.status, ['capturing', 'voiding']), or(isNull(payments.nextAttemptAt), lte(payments.nextAttemptAt, now))))
    .limit(limit)
    .all();
}

/** Moves the row from `from` once (null when someone else moved it first), and runs its purpose's handler for a terminal state. */
function finish(deps: PaymentDeps, row: PaymentRow, from: 'capturing' | 'voiding', set: Partial<PaymentRow>): { handled: Handled | undefined } | null {
  const purpose = purposeOf(row.kind);
  return deps.db.transaction((tx) => {
    const moved = tx
      .update(payments)
      .set({ ...set, updatedAt: deps.clock.now() })
      .where(and(eq(payments.id, row.id), eq(payments.status, from)))
      .returning()
      .get();
    if (!moved) return null;
    const ending = (set.status ?? null) as Ending;
    if (ending === 'captured') return { handled: purpose.onCaptured?.(tx, deps, moved) };
    if (ending === 'voided' || ending === 'expired') return { handled: purpose.onVoided?.(tx, deps, moved) };
    if (ending === 'capture_failed') return { handled: purpose.onCaptureGaveUp?.(tx, deps, moved) };
    return { handled: undefined };
  });
}

async function gatewayStatus(gateway: PaymentGateway, id: string): Promise<GatewayPayment | null> {
  try {
    return await gateway.getPayment(id);
  } catch {
    return null;
  }
}

/** Tells the admins in the purpose's words for the row as it now stands (what to do depends on its new state). */
function alert(deps: PaymentDeps, row: PaymentRow, problem: string, happened: string): void {
  const now = deps.db.select().from(payments).where(eq(payments.id, row.id)).get() ?? row;
  const { what, todo } = purposeOf(now.kind).describe(deps.db, now);
  alertAdmins(deps, now, problem, `${what}: ${happened} ${todo}`);
}

/** One gateway call for one hold; false when the outcome was unknown (the gateway may be down). */
async function moveHold(deps: PaymentDeps, row: PaymentRow): Promise<boolean> {
  const { gateway } = deps;
  const from = row.status as 'capturing' | 'voiding';
  const capture = from === 'capturing';
  const attempts = row.attempts + 1;
  const end = async (set: Partial<PaymentRow>) => {
    const done = finish(deps, row, from, set);
    if (done?.handled?.after) await done.handled.after(deps);
    return done !== null;
  };
  if (!row.gatewayPaymentId) {
    if (await end({ status: capture ? 'capture_failed' : 'void_failed', attempts, errorCode: 'NO_GATEWAY_PAYMENT', nextAttemptAt: null }))
      alert(deps, row, capture ? 'capture_failed' : 'void_failed', 'it has no gateway payment id.');
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
    await end({ status: capture ? 'captured' : 'voided', attempts, errorCode: null, errorDetail: null, nextAttemptAt: null, gatewayPaymentId: moved.id });
    return true;
  } catch (error) {
    const failure = asPaymentFailure(error);
    const detail = failure.detail.slice(0, 500);
    const now = await gatewayStatus(gateway, row.gatewayPaymentId);
    if (now?.status === (capture ? 'COMPLETED' : 'CANCELED')) {
      await end({ status: capture ? 'captured' : 'voided', attempts, errorCode: null, errorDetail: null, nextAttemptAt: null });
      return true;
    }
    if (capture && now?.status === 'CANCELED') {
      // The hold lapsed (or was canceled) at the gateway: there is nothing left to capture.
      if (await end({ status: 'expired', attempts, errorCode: failure.code, errorDetail: detail, nextAttemptAt: null }))
        alert(deps, row, 'expired', 'the hold expired before it could be captured; nothing was taken.');
      return true;
    }
    if (!capture && (now?.status === 'COMPLETED' || now?.status === 'FAILED')) {
      const status = now.status === 'FAILED' ? 'voided' : 'void_failed';
      if ((await end({ status, attempts, errorCode: failure.code, errorDetail: detail, nextAttemptAt: null })) && status === 'void_failed')
        alert(deps, row, 'void_failed', 'it was captured although it should have been released.');
      return true;
    }
    if (attempts >= MAX_HOLD_ATTEMPTS) {
      const status = capture ? 'capture_failed' : 'void_failed';
      if (await end({ status, attempts, errorCode: failure.code, errorDetail: detail, nextAttemptAt: null }))
        alert(deps, row, status, `it could not be ${capture ? 'captured' : 'released'} after ${attempts} tries: ${failure.detail.replace(/\.$/, '')}.`);
      return true;
    }
    deps.db
      .update(payments)
      .set({ attempts, errorCode: failure.code, errorDetail: detail, nextAttemptAt: deps.clock.now() + backoffMs(attempts), updatedAt: deps.clock.now() })
      .where(and(eq(payments.id, row.id), eq(payments.status, from)))
      .run();
    logPaymentEvent('hold_retry', { paymentId: row.id, status: from, attempts, code: failure.code, uncertain: failure.uncertain });
    return !failure.uncertain;
  }
}

/**
 * Captures or voids each hold. After OUTAGE_AFTER_FAILURES unknown outcomes in a row the batch
 * stops (the gateway is down): the rest keep their state and lease for the next run.
 */
export async function moveHolds(deps: PaymentDeps, rows: PaymentRow[]): Promise<void> {
  let unknownInARow = 0;
  for (const row of rows) {
    if (await moveHold(deps, row)) unknownInARow = 0;
    else if (++unknownInARow >= OUTAGE_AFTER_FAILURES) {
      logPaymentEvent('gateway_outage', { stoppedAfter: row.id, left: rows.length });
      return;
    }
  }
}
