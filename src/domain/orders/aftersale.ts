import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { orderRefunds, orders, payments } from '../../db/schema.ts';
import type { Carrier } from '../../shared/schemas/aftersale.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { queueReturnRequestEmail, queueShippedEmail } from './aftersale-emails.ts';
import { notify } from '../accounts/notifications.ts';

/*
 * After the sale, without money: shipping a cart order by carrier, and the shopper's return
 * request. Each is a conditional UPDATE (the claim), so two clicks change an order once, with
 * its notification and e-mail in the same transaction.
 *
 * The 30-day money-back guarantee runs from delivery; a parcel still with the carrier is inside it.
 */

export const GUARANTEE_MS = 30 * 24 * 60 * 60 * 1000;

type OrderRow = typeof orders.$inferSelect;

/** When the guarantee ends, or null while it has not started (shipped, not delivered yet). */
export function guaranteeEndsAt(order: Pick<OrderRow, 'deliveredAt'>): number | null {
  return order.deliveredAt === null ? null : order.deliveredAt + GUARANTEE_MS;
}

/**
 * Whether a return request has been answered: by a refund made after it was asked. A refund an
 * admin gave before (a part of the order, for a scratch) does not answer a later request (issue 37).
 * The order page, the admin's list and Needs attention (openReturnRequests, the same rule in SQL) read this.
 */
export function returnAnswered(order: Pick<OrderRow, 'returnRequestedAt' | 'returnHandledAt'>): boolean {
  return order.returnRequestedAt !== null && order.returnHandledAt !== null && order.returnHandledAt >= order.returnRequestedAt;
}

/** Whether the shopper may still ask to return it. */
export function canRequestReturn(order: Pick<OrderRow, 'status' | 'deliveredAt' | 'returnRequestedAt' | 'donationTo'>, now: number): boolean {
  // A donation handed over belongs to the charity: there is nothing of the donor's to send back.
  if (order.returnRequestedAt !== null || order.donationTo !== null) return false;
  if (order.status !== 'completed' && order.status !== 'shipped') return false;
  const ends = guaranteeEndsAt(order);
  return ends === null || now <= ends;
}

/** POST /api/admin/orders/{id}/ship: a processing cart order sent by carrier becomes 'shipped'. */
export function shipOrder(deps: { db: Db; clock: Clock }, orderId: number, parcel: { carrier: Carrier; trackingNumber: string }): OrderRow {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
    if (!order) throw new DomainError(404, 'Order not found.');
    if (order.shippingMethod !== 'standard' && order.shippingMethod !== 'express')
      throw new DomainError(409, `Order #${orderId} is delivered by our own driver in Laguna Beach: mark it delivered instead of shipping it.`);
    const now = clock.now();
    const shipped = tx
      .update(orders)
      .set({ status: 'shipped', carrier: parcel.carrier, trackingNumber: parcel.trackingNumber, shippedAt: now, updatedAt: now })
      .where(and(eq(orders.id, orderId), eq(orders.status, 'processing')))
      .returning()
      .get();
    if (!shipped) {
      const said = order.status === 'shipped' ? `has already shipped (${order.carrier} ${order.trackingNumber})` : `is ${order.status}`;
      throw new DomainError(409, `Order #${orderId} ${said}. Only processing orders can be shipped.`);
    }
    notify(tx, clock, order.userId, {
      type: 'order_status',
      eventKey: `order:${orderId}:shipped`,
      title: 'Order shipped',
      message: `Your order #${orderId} is on its way with ${parcel.carrier}, tracking number ${parcel.trackingNumber}.`,
      actionUrl: `/orders/${orderId}`,
      actionText: 'Track Order',
    });
    queueShippedEmail(tx, clock, shipped);
    return shipped;
  });
}

/** POST /api/orders/{id}/return-request: the owner (or the holder of its link) asks, within the guarantee, once; support is e-mailed. */
export function requestReturn(deps: { db: Db; clock: Clock; supportEmail: string }, userId: number | 'anyOwner', orderId: number, reason: string): OrderRow {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    // 'anyOwner': the holder of the order's e-mailed link (a guest), as on the order page.
    const order = tx
      .select()
      .from(orders)
      .where(userId === 'anyOwner' ? eq(orders.id, orderId) : and(eq(orders.id, orderId), eq(orders.userId, userId)))
      .get();
    // Someone else's order answers like a missing one.
    if (!order) throw new DomainError(404, 'Order not found.');
    const now = clock.now();
    if (order.donationTo !== null)
      throw new DomainError(
        409,
        `Donation #${orderId} went to ${order.donationTo}, so there is nothing to return. Before it is handed over, contact us to cancel it.`,
      );
    if (order.returnRequestedAt !== null)
      throw new DomainError(409, `You already asked to return order #${orderId}. We will e-mail you within one business day.`);
    if (order.status !== 'completed' && order.status !== 'shipped')
      throw new DomainError(409, `Order #${orderId} has not been delivered yet, so there is nothing to return. To cancel it, contact us.`);
    const charge = tx
      .select({ status: payments.status })
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'order_charge'), eq(payments.status, 'refunded')))
      .get();
    if (charge) throw new DomainError(409, `Order #${orderId} has already been refunded in full, so there is nothing left to return for.`);
    if (!canRequestReturn(order, now))
      throw new DomainError(409, `The 30-day money-back guarantee for order #${orderId} has ended, so it can no longer be returned.`);
    const asked = tx
      .update(orders)
      .set({ returnRequestedAt: now, returnReason: reason, updatedAt: now })
      .where(and(eq(orders.id, orderId), isNull(orders.returnRequestedAt)))
      .returning()
      .get();
    if (!asked) throw new DomainError(409, `You already asked to return order #${orderId}. We will e-mail you within one business day.`);
    queueReturnRequestEmail(tx, clock, asked, deps.supportEmail);
    return asked;
  });
}

export interface ReturnRequestRow {
  orderId: number;
  customerName: string | null;
  requestedAt: number;
  reason: string;
  totalCents: number;
}

/** Return requests no refund has answered yet (returnAnswered): the admin's Needs attention list. */
export function openReturnRequests(db: Queryable): ReturnRequestRow[] {
  return db
    .select({
      orderId: orders.id,
      customerName: orders.customerName,
      requestedAt: orders.returnRequestedAt,
      reason: orders.returnReason,
      totalCents: orders.totalCents,
    })
    .from(orders)
    .where(and(isNotNull(orders.returnRequestedAt), or(isNull(orders.returnHandledAt), lt(orders.returnHandledAt, orders.returnRequestedAt))))
    .orderBy(asc(orders.returnRequestedAt))
    .limit(200)
    .all()
    .map((row) => ({ ...row, requestedAt: row.requestedAt ?? 0, reason: row.reason ?? '' }));
}

export interface RefundLine {
  amountCents: number;
  reason: string;
  at: number;
  state: 'refunded' | 'refunding' | 'failed';
}

/** Each after-sale refund of these orders with its reason, newest first, by order. */
export function afterSaleRefundsOf(db: Queryable, orderIds: number[]): Map<number, RefundLine[]> {
  const byOrder = new Map<number, RefundLine[]>();
  if (orderIds.length === 0) return byOrder;
  const rows = db
    .select({ record: orderRefunds, status: payments.status, updatedAt: payments.updatedAt })
    .from(orderRefunds)
    .innerJoin(payments, eq(payments.id, orderRefunds.paymentId))
    .where(inArray(orderRefunds.orderId, orderIds))
    .orderBy(desc(orderRefunds.id))
    .all();
  for (const { record, status, updatedAt } of rows) {
    const state = status === 'refunded' ? 'refunded' : status === 'refunding' ? 'refunding' : 'failed';
    const list = byOrder.get(record.orderId) ?? [];
    list.push({ amountCents: record.amountCents, reason: record.reason, at: state === 'refunded' ? updatedAt : record.createdAt, state });
    byOrder.set(record.orderId, list);
  }
  return byOrder;
}

export interface AfterSaleAdminView {
  shipment: { carrier: string; trackingNumber: string; shippedAt: number } | null;
  returnRequest: { at: number; reason: string; open: boolean } | null;
  refunds: RefundLine[];
  /** A processing order going by carrier (standard or express shipping). */
  canShip: boolean;
  /** Delivered or shipped, paid by card: the Refund form is shown (the 30 days are checked when it is sent). */
  canRefund: boolean;
  guaranteeEndsAt: number | null;
}

/** What the admin Orders tab shows and offers after the sale, by order id. */
export function afterSaleAdminViews(db: Queryable, rows: OrderRow[]): Map<number, AfterSaleAdminView> {
  const refunds = afterSaleRefundsOf(
    db,
    rows.map((row) => row.id),
  );
  return new Map(
    rows.map((order) => [
      order.id,
      {
        shipment:
          order.carrier && order.trackingNumber && order.shippedAt
            ? { carrier: order.carrier, trackingNumber: order.trackingNumber, shippedAt: order.shippedAt }
            : null,
        returnRequest: order.returnRequestedAt ? { at: order.returnRequestedAt, reason: order.returnReason ?? '', open: !returnAnswered(order) } : null,
        refunds: refunds.get(order.id) ?? [],
        canShip: order.status === 'processing' && (order.shippingMethod === 'standard' || order.shippingMethod === 'express'),
        canRefund: (order.status === 'completed' || order.status === 'shipped') && order.paymentMethod !== 'cod',
        guaranteeEndsAt: guaranteeEndsAt(order),
      },
    ]),
  );
}
