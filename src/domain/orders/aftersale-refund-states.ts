import { and, eq, inArray, isNull, sum } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { orderRefunds, orders, payments } from '../../db/schema.ts';
import { formatCents } from '../../shared/pricing.ts';
import type { Clock } from '../clock.ts';
import { queueAfterSaleRefundEmail } from './aftersale-emails.ts';
import { notify } from '../accounts/notifications.ts';
import { withdrawFreeEntries } from '../games/free-entries.ts';

/*
 * The end states of an admin's after-sale refund (aftersale-refund.ts starts it). A refund row
 * with an order_refunds row beside it is one of these; order-refund.ts's sendRefund, used by the
 * request and by the reconciler alike, comes here for its consequences instead of a cancellation's.
 */

/** The after-sale record of a refund payment row, or undefined for a cancellation's refund. */
export function afterSaleOf(db: Queryable, paymentRowId: number) {
  return db.select().from(orderRefunds).where(eq(orderRefunds.paymentId, paymentRowId)).get();
}

/** Cents of the order's refunds that are sent or done: what may not be refunded again. */
export function committedRefundCents(db: Queryable, orderId: number): number {
  const row = db
    .select({ total: sum(payments.amountCents) })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'refund'), inArray(payments.status, ['refunding', 'refunded'])))
    .get();
  return Number(row?.total ?? 0);
}

/** A refund row the gateway accepted, moved from refunding to refunded once: the row, or undefined when it was not refunding. */
export function markRefundAccepted(tx: Queryable, refundRowId: number, gatewayRefundId: string, now: number) {
  return tx
    .update(payments)
    .set({ status: 'refunded', gatewayPaymentId: gatewayRefundId, errorCode: null, errorDetail: null, nextAttemptAt: null, updatedAt: now })
    .where(and(eq(payments.id, refundRowId), eq(payments.status, 'refunding')))
    .returning()
    .get();
}

/** Accepted by the gateway: the row is refunded, the shopper told, a return request answered; once. */
export function confirmAfterSaleRefund(deps: { db: Db; clock: Clock }, refundRowId: number, gatewayRefundId: string): boolean {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const now = clock.now();
    const row = markRefundAccepted(tx, refundRowId, gatewayRefundId, now);
    const record = afterSaleOf(tx, refundRowId);
    if (!row?.orderId || !record) return false;
    const charge = tx
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, row.orderId), eq(payments.kind, 'order_charge'), eq(payments.status, 'captured')))
      .get();
    // All of it given back: the charge reads refunded, as after a cancellation.
    if (charge && committedRefundCents(tx, row.orderId) >= charge.amountCents && !refundsInFlight(tx, row.orderId)) {
      tx.update(payments).set({ status: 'refunded', updatedAt: now }).where(eq(payments.id, charge.id)).run();
      // Refunded in full: its unused free entries go too (a part refund keeps them).
      withdrawFreeEntries(tx, clock, row.orderId);
    }
    tx.update(orders)
      .set({ returnHandledAt: now, updatedAt: now })
      .where(and(eq(orders.id, row.orderId), isNull(orders.returnHandledAt)))
      .run();
    notify(tx, clock, row.userId, {
      type: 'order_status',
      eventKey: `order:${row.orderId}:refund:${record.id}`,
      title: 'Refund on its way',
      message: `We refunded ${formatCents(row.amountCents)} of order #${row.orderId}: ${record.reason}`,
      actionUrl: `/orders/${row.orderId}`,
      actionText: 'View Order',
    });
    const order = tx.select().from(orders).where(eq(orders.id, row.orderId)).get();
    if (order) queueAfterSaleRefundEmail(tx, clock, order, { id: record.id, amountCents: row.amountCents, reason: record.reason });
    return true;
  });
}

function refundsInFlight(tx: Queryable, orderId: number): boolean {
  return !!tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'refund'), eq(payments.status, 'refunding')))
    .get();
}

/** Refused by the gateway: the row is failed with the gateway's words; the order is as it was, and may be refunded again. */
export function rollBackAfterSaleRefund(deps: { db: Db; clock: Clock }, refundRowId: number, failure: { code: string; detail: string }): boolean {
  const { db, clock } = deps;
  const row = db
    .update(payments)
    .set({ status: 'failed', errorCode: failure.code, errorDetail: failure.detail.slice(0, 500), nextAttemptAt: null, updatedAt: clock.now() })
    .where(and(eq(payments.id, refundRowId), eq(payments.status, 'refunding')))
    .returning({ id: payments.id })
    .get();
  return !!row;
}
