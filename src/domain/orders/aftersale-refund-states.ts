import { and, eq, inArray, isNotNull, isNull, lt, or, sum } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { orderRefunds, orders, payments } from '../../db/schema.ts';
import { markChargeRefunded } from '../payments/engine.ts';
import { formatCents } from '../../shared/pricing.ts';
import type { Clock } from '../clock.ts';
import { queueAfterSaleRefundEmail } from './aftersale-emails.ts';
import { notify } from '../accounts/notifications.ts';
import { withdrawFreeEntries } from '../games/free-entries.ts';

/*
 * The end states of an admin's after-sale refund (aftersale-refund.ts starts it). A refund row
 * with an order_refunds row beside it is one of these; the refund purpose (order-refund.ts) comes
 * here for its consequences instead of a cancellation's. Refused, nothing follows: the row is
 * failed with the gateway's words and the order may be refunded again.
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

/** Accepted by the gateway (the row already 'refunded' by the money engine): the shopper told, a return request answered; once. */
export function afterSaleRefunded(tx: Queryable, clock: Clock, row: typeof payments.$inferSelect, record: typeof orderRefunds.$inferSelect): void {
  const now = clock.now();
  if (!row.orderId) return;
  const charge = tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, row.orderId), eq(payments.kind, 'order_charge'), eq(payments.status, 'captured')))
    .get();
  // All of it given back: the charge reads refunded, as after a cancellation.
  if (charge && committedRefundCents(tx, row.orderId) >= charge.amountCents && !refundsInFlight(tx, row.orderId)) {
    markChargeRefunded(tx, clock, charge.id);
    // Refunded in full: its unused free entries go too (a part refund keeps them).
    withdrawFreeEntries(tx, clock, row.orderId);
  }
  // A refund answers the return request made before it (aftersale.ts, returnAnswered); none asked, nothing to answer.
  tx.update(orders)
    .set({ returnHandledAt: now, updatedAt: now })
    .where(
      and(
        eq(orders.id, row.orderId),
        isNotNull(orders.returnRequestedAt),
        or(isNull(orders.returnHandledAt), lt(orders.returnHandledAt, orders.returnRequestedAt)),
      ),
    )
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
}

function refundsInFlight(tx: Queryable, orderId: number): boolean {
  return !!tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'refund'), eq(payments.status, 'refunding')))
    .get();
}
