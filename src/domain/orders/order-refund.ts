import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { orders, payments } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { afterSaleOf, afterSaleRefunded } from './aftersale-refund-states.ts';
import { queueRefundEmail } from './order-emails.ts';
import { notify } from '../accounts/notifications.ts';
import { restoreSoldStock } from './order-charge.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import { gatewayKey } from '../payments/keys.ts';
import { createRefund, markChargeRefunded, reopenRefund } from '../payments/engine.ts';
import type { Purpose } from '../payments/purposes.ts';
import { formatCents } from '../../shared/pricing.ts';
import { reinstateFreeEntries, withdrawFreeEntries } from '../games/free-entries.ts';

/*
 * Refunding a canceled card order. The transaction that cancels the order writes the refund
 * row as 'refunding' with the key '{prefix}-refund-{order id}' (a refund asked again re-arms the
 * same row, with the key it was first written with); then the gateway is called
 * (payments/refunds.ts sendRefund). The same key and body always return the first refund, so a
 * retry (by the admin, or by the reconciler after an unknown answer or a crash) can never refund twice. Refused: the order goes back to
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
  const _now = clock.now();
  // Found by order, not by a rebuilt key: a refund first asked under another prefix keeps its key, so it is never sent twice.
  const earlier = tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'refund'), sql`not exists (select 1 from order_refunds where payment_id = ${payments.id})`))
    .orderBy(desc(payments.id))
    .get();
  if (earlier) {
    return reopenRefund(tx, clock, earlier.id);
  }
  return createRefund(tx, clock, {
    userId: charge.userId,
    amountCents: charge.amountCents,
    orderId,
    gateway: charge.gateway,
    idempotencyKey: gatewayKey(deps.db, 'refund', orderId),
  });
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

/** A cancellation's refund went through (the row already 'refunded'): everything that follows from it, once. */
function cancellationRefunded(tx: Queryable, clock: Clock, row: PaymentRow): void {
  if (!row.orderId) return;
  const now = clock.now();
  const charge = chargeOf(tx, row.orderId);
  if (charge) markChargeRefunded(tx, clock, charge.id);
  restoreSoldStock(tx, row.orderId, now);
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
}

/** The gateway refused a cancellation's refund: the order is processing again and nothing else changed. */
function cancellationRefundRefused(tx: Queryable, clock: Clock, row: PaymentRow): void {
  if (!row.orderId) return;
  const back = tx
    .update(orders)
    .set({ status: 'processing', canceledAt: null, updatedAt: clock.now() })
    .where(and(eq(orders.id, row.orderId), eq(orders.status, 'canceled')))
    .returning({ id: orders.id })
    .get();
  // The cancellation did not happen after all: the free entries it withdrew are the shopper's again.
  if (back) reinstateFreeEntries(tx, row.orderId);
}

/**
 * What a refund row means (payments kind 'refund'), registered with the money engine
 * (payments/refunds.ts sends it): an admin's after-sale refund ends its own way
 * (aftersale-refund-states.ts), a cancellation's as above.
 */
export const refundPurpose: Purpose = {
  kind: 'refund',
  onConfirmed: () => {
    throw new Error('A refund row is never charged or held.');
  },
  onRefused: () => {
    throw new Error('A refund row is never charged or held.');
  },
  refundOf(db, row) {
    const charge = row.orderId ? chargeOf(db, row.orderId) : undefined;
    const afterSale = afterSaleOf(db, row.id);
    return {
      paymentId: charge?.gatewayPaymentId ?? null,
      reason: afterSale ? `CSA order #${row.orderId}: ${afterSale.reason}`.slice(0, 192) : `CSA order #${row.orderId} canceled`,
    };
  },
  onRefunded(tx, { clock }, row) {
    const afterSale = afterSaleOf(tx, row.id);
    if (afterSale) afterSaleRefunded(tx, clock, row, afterSale);
    else cancellationRefunded(tx, clock, row);
    return undefined;
  },
  onRefundRefused(tx, { clock }, row) {
    if (!afterSaleOf(tx, row.id)) cancellationRefundRefused(tx, clock, row);
    return undefined;
  },
  describe: (_db, row) => ({
    what: `Refund of order #${row.orderId}`,
    todo: 'It is sent again with the same key, which refunds once; check it with Square, or dismiss it once dealt with there.',
  }),
  actions: (_row, offered) => offered,
};
