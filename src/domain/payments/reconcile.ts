import { and, inArray, isNull, lte, or } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';
import { settleFromGateway } from './engine.ts';
import { dueHolds, moveHolds } from './holds.ts';
import { type PaymentDeps, registeredPurposes } from './purposes.ts';
import { sendRefund } from './refunds.ts';
import { logPaymentEvent, OUTAGE_AFTER_FAILURES } from './states.ts';

/*
 * The reconciler (DESIGN section 5): at start-up and every minute it finishes every payment
 * row left in an in-between state, by asking the gateway, never by guessing.
 *
 * - charging / authorizing (a charge or hold whose answer was lost): one ListPayments-style
 *   lookup by reference id for all of them; found and matching the row (amount, currency,
 *   reference: payments/matching.ts) -> confirmed, and the row's purpose (purposes.ts) does what
 *   that means; found but not matching -> Needs attention; declined -> failed; still unknown to
 *   the gateway NOT_TAKEN_AFTER_MS after our last call -> never taken: failed, and the purpose
 *   gives back what it reserved (engine.ts settleFromGateway).
 * - capturing / voiding: the call is made again (holds.ts: bounded tries, then a terminal
 *   state and an admin alert).
 *
 * Nothing here knows a kind of row: each purpose's handlers run through the registry, and a
 * purpose's sweep (rows its area left to mark) runs first.
 * - refunding: the refund is sent again with its own key, which refunds at most once.
 *
 * Rows under a lease (a request or job is calling the gateway for them) are left alone.
 */

const BATCH = 1000;

export interface ReconcileReport {
  /** In-between rows looked at. */
  examined: number;
  /** Of those, rows that reached a final state. */
  resolved: number;
  /** Rows still in between (the gateway could not tell yet, or is down). */
  unresolved: number;
}

function due(now: number) {
  return or(isNull(payments.nextAttemptAt), lte(payments.nextAttemptAt, now));
}

function stillInBetween(deps: PaymentDeps, ids: number[]): number {
  if (ids.length === 0) return 0;
  return deps.db
    .select({ id: payments.id })
    .from(payments)
    .where(and(inArray(payments.id, ids), inArray(payments.status, ['charging', 'authorizing', 'capturing', 'voiding', 'refunding'])))
    .all().length;
}

async function resolveUnknownOutcomes(deps: PaymentDeps, now: number): Promise<number[]> {
  const { db, gateway } = deps;
  const rows = db
    .select()
    .from(payments)
    .where(and(inArray(payments.status, ['charging', 'authorizing']), due(now)))
    .limit(BATCH)
    .all();
  if (rows.length === 0) return [];
  let found: Awaited<ReturnType<typeof gateway.findPayments>>;
  try {
    found = await gateway.findPayments(
      rows.map((row) => row.idempotencyKey),
      Math.min(...rows.map((row) => row.createdAt)),
    );
  } catch (error) {
    logPaymentEvent('reconcile_lookup_failed', { rows: rows.length, error: error instanceof Error ? error.message : String(error) });
    return rows.map((row) => row.id);
  }
  for (const row of rows) {
    const payment = found.get(row.idempotencyKey);
    await settleFromGateway(deps, row, payment);
  }
  return rows.map((row) => row.id);
}

async function resendRefunds(deps: PaymentDeps, now: number): Promise<number[]> {
  const rows = deps.db
    .select()
    .from(payments)
    .where(and(inArray(payments.status, ['refunding']), due(now)))
    .limit(BATCH)
    .all();
  let unknownInARow = 0;
  for (const row of rows) {
    const sent = await sendRefund(deps, row);
    if (sent.outcome !== 'unknown') unknownInARow = 0;
    else if (++unknownInARow >= OUTAGE_AFTER_FAILURES) break;
  }
  return rows.map((row) => row.id);
}

/** One pass over every in-between payment whose time has come. Safe to run at any time, from any process. */
export async function reconcilePayments(deps: PaymentDeps, now = deps.clock.now()): Promise<ReconcileReport> {
  for (const purpose of registeredPurposes()) purpose.sweep?.(deps);
  const looked = await resolveUnknownOutcomes(deps, now);
  const holds = dueHolds(deps.db, now, BATCH);
  await moveHolds(deps, holds);
  const refunds = await resendRefunds(deps, now);
  const ids = [...looked, ...holds.map((row) => row.id), ...refunds];
  const unresolved = stillInBetween(deps, ids);
  if (ids.length) logPaymentEvent('reconcile', { examined: ids.length, resolved: ids.length - unresolved, unresolved }, 'info');
  return { examined: ids.length, resolved: ids.length - unresolved, unresolved };
}
