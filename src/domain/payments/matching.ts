import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { payments } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { formatCents } from '../../shared/pricing.ts';
import { alertAdmins } from './alerts.ts';
import { type GatewayPayment, STORE_CURRENCY } from './gateway.ts';
import { purposeOf } from './purposes.ts';
import { backoffMs } from './states.ts';

/*
 * Every confirm compares what the gateway holds with our row (DESIGN section 5): the amount, the
 * currency, the reference id (our key) and that no other row already claims that payment. A
 * payment found under our key can still be someone else's: a key made by a restored backup or
 * another store on the same account. Such a payment never pays a row: the row stays in between
 * and goes to the admin's "Needs attention", with what did not match.
 */

export const GATEWAY_MISMATCH = 'GATEWAY_MISMATCH';

type PaymentRow = typeof payments.$inferSelect;

function money(cents: number, currency: string): string {
  return currency === STORE_CURRENCY ? formatCents(cents) : `${(cents / 100).toFixed(2)} ${currency || '(no currency)'}`;
}

/** The other row that already names this gateway payment, if any. */
export function rowLinkedTo(db: Queryable, gatewayPaymentId: string, except: number): { id: number; orderId: number | null } | undefined {
  return linkedRow(db).get({ gatewayPaymentId, except });
}

// Every confirm asks (mismatchOf): built once (db/prepared.ts).
const linkedRow = preparedOnce((db) =>
  db
    .select({ id: payments.id, orderId: payments.orderId })
    .from(payments)
    .where(and(eq(payments.gatewayPaymentId, sql.placeholder('gatewayPaymentId')), ne(payments.id, sql.placeholder('except'))))
    .prepare(),
);

/**
 * Why `payment` is not this row's, in the admin's words; null when amount, currency and reference
 * match and no other row claims it. `anyReference` skips the reference (an admin's override).
 */
export function mismatchOf(db: Queryable, row: PaymentRow, payment: GatewayPayment, options: { anyReference?: boolean } = {}): string | null {
  const problems: string[] = [];
  if (payment.currency !== STORE_CURRENCY) problems.push(`its currency is ${payment.currency || 'not given'}, not ${STORE_CURRENCY}`);
  if (payment.amountCents !== row.amountCents) problems.push(`it is for ${money(payment.amountCents, payment.currency)}, not ${formatCents(row.amountCents)}`);
  if (!options.anyReference && payment.referenceId !== row.idempotencyKey)
    problems.push(`its reference is ${payment.referenceId ? `'${payment.referenceId}'` : 'empty'}, not '${row.idempotencyKey}'`);
  const linked = rowLinkedTo(db, payment.id, row.id);
  if (linked) problems.push(`it already pays ${linked.orderId ? `order #${linked.orderId}` : `payment #${linked.id}`}`);
  return problems.length ? `Payment ${payment.id} at the card processor does not match: ${problems.join('; ')}.` : null;
}

/**
 * A payment that did not match: the row stays in between (never paid, never failed by a guess),
 * is shown under "Needs attention" with the reason, and every admin is told once.
 */
export function holdForReview(deps: { db: Db; clock: Clock }, row: PaymentRow, reason: string): void {
  const now = deps.clock.now();
  const attempts = row.attempts + 1;
  const held = deps.db
    .update(payments)
    .set({ errorCode: GATEWAY_MISMATCH, errorDetail: reason.slice(0, 500), attempts, nextAttemptAt: now + backoffMs(attempts), updatedAt: now })
    .where(and(eq(payments.id, row.id), inArray(payments.status, ['charging', 'authorizing'])))
    .returning()
    .get();
  if (!held) return;
  const { what } = purposeOf(row.kind).describe(deps.db, held);
  alertAdmins(deps, held, 'gateway_mismatch', `The card processor's answer for ${what} does not match it, so it was not marked paid. ${reason}`);
}
