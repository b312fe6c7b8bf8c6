import { and, eq } from 'drizzle-orm';
import { payments } from '../../db/schema.ts';
import { alertAdmins } from './alerts.ts';
import { asPaymentFailure } from './gateway.ts';
import { type Failure, type PaymentDeps, type PaymentRow, purposeOf } from './purposes.ts';
import { backoffMs, logPaymentEvent, MAX_REFUND_ATTEMPTS } from './states.ts';
import { afterCommit } from './engine.ts';

/*
 * A 'refunding' row (written by its purpose's area with its own key: a cancellation, an admin's
 * after-sale refund) is sent to the gateway here, by the request and the reconciler alike. The
 * same key and body always return the first refund, so a retry can never refund twice.
 * Accepted: 'refunded'; refused: 'failed'; each in one transaction with the purpose's handler.
 */

export type RefundOutcome = { outcome: 'refunded' } | { outcome: 'refused'; code: string; detail: string } | { outcome: 'unknown'; detail: string };

function endRefund(deps: PaymentDeps, row: PaymentRow, set: Partial<PaymentRow>, failure: Failure | null) {
  const purpose = purposeOf(row.kind);
  return deps.db.transaction((tx) => {
    const moved = tx
      .update(payments)
      .set({ ...set, nextAttemptAt: null, updatedAt: deps.clock.now() })
      .where(and(eq(payments.id, row.id), eq(payments.status, 'refunding')))
      .returning()
      .get();
    if (!moved) return undefined;
    return failure ? purpose.onRefundRefused?.(tx, deps, moved, failure) : purpose.onRefunded?.(tx, deps, moved);
  });
}

async function refused(deps: PaymentDeps, row: PaymentRow, failure: Failure): Promise<RefundOutcome> {
  await afterCommit(deps, row.id, endRefund(deps, row, { status: 'failed', errorCode: failure.code, errorDetail: failure.detail.slice(0, 500) }, failure));
  return { outcome: 'refused', code: failure.code, detail: failure.detail };
}

/** One gateway call for a 'refunding' row, and its consequence. */
export async function sendRefund(deps: PaymentDeps, row: PaymentRow): Promise<RefundOutcome> {
  const { db, clock, gateway } = deps;
  const purpose = purposeOf(row.kind);
  if (!purpose.refundOf) throw new Error(`The payment purpose '${row.kind}' does not refund: payment #${row.id} cannot be sent as a refund.`);
  const target = purpose.refundOf(db, row);
  const attempts = row.attempts + 1;
  if (!target.paymentId) return refused(deps, row, { code: 'NOT_FOUND', detail: 'the charge has no gateway payment id.' });
  try {
    const refund = await gateway.refund({
      paymentId: target.paymentId,
      amountCents: row.amountCents,
      idempotencyKey: row.idempotencyKey,
      reason: target.reason,
    });
    // PENDING and COMPLETED both mean the gateway accepted the refund.
    if (refund.status !== 'PENDING' && refund.status !== 'COMPLETED')
      return refused(deps, row, { code: refund.status, detail: `the payment gateway answered ${refund.status}.` });
    await afterCommit(deps, row.id, endRefund(deps, row, { status: 'refunded', gatewayPaymentId: refund.id, errorCode: null, errorDetail: null }, null));
    return { outcome: 'refunded' };
  } catch (error) {
    const failure = asPaymentFailure(error);
    if (!failure.uncertain) return refused(deps, row, failure);
    // Unknown: the same key is sent again later, which can only ever refund once.
    db.update(payments)
      .set({
        attempts,
        errorCode: failure.code,
        errorDetail: failure.detail.slice(0, 500),
        nextAttemptAt: clock.now() + backoffMs(attempts),
        updatedAt: clock.now(),
      })
      .where(and(eq(payments.id, row.id), eq(payments.status, 'refunding')))
      .run();
    logPaymentEvent('refund_retry', { paymentId: row.id, orderId: row.orderId, attempts, code: failure.code });
    if (attempts === MAX_REFUND_ATTEMPTS) {
      const { what } = purpose.describe(db, row);
      alertAdmins(deps, row, 'refund_unconfirmed', `${what} is still unconfirmed after ${attempts} tries.`);
    }
    return { outcome: 'unknown', detail: failure.detail };
  }
}
