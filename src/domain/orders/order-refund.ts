import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { orderItems, orders, payments } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { afterSaleOf, confirmAfterSaleRefund, markRefundAccepted, rollBackAfterSaleRefund } from './aftersale-refund-states.ts';
import { queueRefundEmail } from './order-emails.ts';
import { notify } from '../accounts/notifications.ts';
import { restoreSoldStock } from './order-charge.ts';
import { alertAdmins } from '../payments/alerts.ts';
import { asPaymentFailure, type PaymentGateway } from '../payments/gateway.ts';
import { gatewayKey } from '../payments/keys.ts';
import { backoffMs, leaseUntil, logPaymentEvent, MAX_REFUND_ATTEMPTS } from '../payments/states.ts';
import { formatCents } from '../../shared/pricing.ts';
import { reinstateFreeEntries, withdrawFreeEntries } from '../games/free-entries.ts';

/*
 * Refunding a canceled card order. The transaction that cancels the order writes the refund
 * row as 'refunding' with the key '{prefix}-refund-{order id}' (a refund asked again re-arms the
 * same row, with the key it was first written with); then the gateway is called. The same key
 * and body always return the first refund, so a retry (by the admin, or by the reconciler after
 * an unknown answer or a crash) can never refund twice. Refused: the order goes back to
 * 'processing' and the charge stays captured. Accepted: the charge is 'refunded', buy-now
 * stock returns, and the customer is told, in one transaction.
 */

export interface RefundDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
}

type PaymentRow = typeof payments.$inferSelect;

/** Writes (or re-arms) the order's refund row in the caller's transaction. */
export function startRefund(tx: Queryable, deps: { db: Db; clock: Clock }, charge: PaymentRow, orderId: number): PaymentRow {
  const { clock } = deps;
  const now = clock.now();
  // Found by order, not by a rebuilt key: a refund first asked under another prefix keeps its key, so it is never sent twice.
  const earlier = tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'refund'), sql`not exists (select 1 from order_refunds where payment_id = ${payments.id})`))
    .orderBy(desc(payments.id))
    .get();
  if (earlier) {
    return tx
      .update(payments)
      .set({ status: 'refunding', errorCode: null, errorDetail: null, attempts: 0, nextAttemptAt: leaseUntil(clock), updatedAt: now })
      .where(eq(payments.id, earlier.id))
      .returning()
      .get()!;
  }
  return tx
    .insert(payments)
    .values({
      userId: charge.userId,
      kind: 'refund',
      status: 'refunding',
      amountCents: charge.amountCents,
      orderId,
      gateway: charge.gateway,
      idempotencyKey: gatewayKey(deps.db, 'refund', orderId),
      nextAttemptAt: leaseUntil(clock),
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
}

function chargeOf(db: Queryable, orderId: number): PaymentRow | undefined {
  return (
    db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'order_charge')))
      // An order retried after a refused card has several charges; the one that was taken is the one refunded.
      .orderBy(desc(sql`${payments.status} = 'captured'`), desc(payments.id))
      .get()
  );
}

/** The refund went through: everything that follows from it, once. */
export function confirmRefund(deps: { db: Db; clock: Clock }, refundRowId: number, gatewayRefundId: string): boolean {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const now = clock.now();
    const row = markRefundAccepted(tx, refundRowId, gatewayRefundId, now);
    if (!row?.orderId) return false;
    const charge = chargeOf(tx, row.orderId);
    if (charge) tx.update(payments).set({ status: 'refunded', updatedAt: now }).where(eq(payments.id, charge.id)).run();
    restoreSoldStock(tx, tx.select().from(orderItems).where(eq(orderItems.orderId, row.orderId)).all());
    withdrawFreeEntries(tx, clock, row.orderId);
    notify(tx, clock, row.userId, {
      type: 'order_status',
      eventKey: `order:${row.orderId}:canceled`,
      title: 'Order canceled',
      message: `Your order #${row.orderId} was canceled. A refund of ${formatCents(row.amountCents)} is on its way to your card.`,
      actionUrl: `/orders/${row.orderId}`,
      actionText: 'View Order',
    });
    const order = tx.select().from(orders).where(eq(orders.id, row.orderId)).get();
    if (order) queueRefundEmail(tx, clock, order, row.amountCents);
    return true;
  });
}

/** The gateway refused the refund: the order is processing again and nothing else changed. */
export function rollBackRefund(deps: { db: Db; clock: Clock }, refundRowId: number, failure: { code: string; detail: string }): boolean {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const row = tx
      .update(payments)
      .set({ status: 'failed', errorCode: failure.code, errorDetail: failure.detail.slice(0, 500), nextAttemptAt: null, updatedAt: clock.now() })
      .where(and(eq(payments.id, refundRowId), eq(payments.status, 'refunding')))
      .returning()
      .get();
    if (!row?.orderId) return false;
    const back = tx
      .update(orders)
      .set({ status: 'processing', canceledAt: null, updatedAt: clock.now() })
      .where(and(eq(orders.id, row.orderId), eq(orders.status, 'canceled')))
      .returning({ id: orders.id })
      .get();
    // The cancellation did not happen after all: the free entries it withdrew are the shopper's again.
    if (back) reinstateFreeEntries(tx, row.orderId);
    return true;
  });
}

export type RefundOutcome = { outcome: 'refunded' } | { outcome: 'refused'; code: string; detail: string } | { outcome: 'unknown'; detail: string };

/** One gateway call for a 'refunding' row, and its consequence. */
export async function sendRefund(deps: RefundDeps, row: PaymentRow): Promise<RefundOutcome> {
  const { db, clock, gateway } = deps;
  const charge = row.orderId ? chargeOf(db, row.orderId) : undefined;
  const attempts = row.attempts + 1;
  // An admin's after-sale refund ends its own way (aftersale-refund-states.ts); a cancellation's, as below.
  const afterSale = afterSaleOf(db, row.id);
  const confirm = afterSale ? confirmAfterSaleRefund : confirmRefund;
  const rollBack = afterSale ? rollBackAfterSaleRefund : rollBackRefund;
  try {
    if (!charge?.gatewayPaymentId) throw Object.assign(new Error('the charge has no gateway payment id.'), { refused: true });
    const refund = await gateway.refund({
      paymentId: charge.gatewayPaymentId,
      amountCents: row.amountCents,
      idempotencyKey: row.idempotencyKey,
      reason: afterSale ? `CSA order #${row.orderId}: ${afterSale.reason}`.slice(0, 192) : `CSA order #${row.orderId} canceled`,
    });
    // PENDING and COMPLETED both mean the gateway accepted the refund.
    if (refund.status !== 'PENDING' && refund.status !== 'COMPLETED') {
      rollBack(deps, row.id, { code: refund.status, detail: `the payment gateway answered ${refund.status}.` });
      return { outcome: 'refused', code: refund.status, detail: `the payment gateway answered ${refund.status}.` };
    }
    confirm(deps, row.id, refund.id);
    return { outcome: 'refunded' };
  } catch (error) {
    const failure = (error as { refused?: boolean }).refused
      ? { code: 'NOT_FOUND', detail: (error as Error).message, uncertain: false }
      : asPaymentFailure(error);
    if (!failure.uncertain) {
      rollBack(deps, row.id, failure);
      return { outcome: 'refused', code: failure.code, detail: failure.detail };
    }
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
    if (attempts === MAX_REFUND_ATTEMPTS)
      alertAdmins(deps, row, 'refund_unconfirmed', `The refund of order #${row.orderId} is still unconfirmed after ${attempts} tries.`);
    return { outcome: 'unknown', detail: failure.detail };
  }
}
