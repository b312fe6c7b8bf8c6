import { and, asc, count, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { orderItems, orderRefunds, orders, payments, products } from '../../db/schema.ts';
import { canRequestReturn, returnAnswered } from './aftersale.ts';
import { trackingUrl } from '../../shared/schemas/aftersale.ts';
import { productLabel, resolveImageUrl } from '../catalog/catalog.ts';
import { addressLinesOf, paymentLabelOf, shippingLabelOf } from './order-emails.ts';
import { centsToDollars } from '../../shared/money.ts';

/* Orders as their owner sees them: the confirmation page, the order history, GET /api/orders/{id}. */

/** An order as GET /api/orders/{id} and the order history show it (dollars, items with product). */
export function orderView(db: Queryable, order: typeof orders.$inferSelect) {
  const items = db
    .select({ item: orderItems, product: products })
    .from(orderItems)
    .leftJoin(products, eq(orderItems.productId, products.id))
    .where(eq(orderItems.orderId, order.id))
    .all();
  return {
    id: order.id,
    userId: order.userId,
    orderDate: order.orderDate,
    createdAt: order.orderDate,
    status: order.status,
    subtotal: centsToDollars(order.subtotalCents),
    shipping: centsToDollars(order.shippingCents),
    tax: centsToDollars(order.taxCents),
    total: centsToDollars(order.totalCents),
    totalAmount: centsToDollars(order.totalCents),
    customerName: order.customerName,
    shippingAddress: order.shippingAddress,
    shippingCity: order.shippingCity,
    shippingState: order.shippingState,
    shippingZipCode: order.shippingZipCode,
    shippingCountry: order.shippingCountry,
    addressLines: addressLinesOf(order),
    paymentMethod: order.paymentMethod,
    shippingMethod: order.shippingMethod,
    paymentId: order.paymentId,
    cardBrand: order.cardBrand,
    cardLast4: order.cardLast4,
    notes: order.notes,
    carrier: order.carrier,
    trackingNumber: order.trackingNumber,
    shippedAt: order.shippedAt,
    deliveredAt: order.deliveredAt,
    returnRequestedAt: order.returnRequestedAt,
    /** 'Buy to donate': the charity it went to (its address is the order's shipping address). */
    donation: order.donationTo ? { charity: order.donationTo } : null,
    items: items.map(({ item, product }) => ({
      id: item.id,
      productId: item.productId,
      /** The size bought, as it was called at the sale ('' when the product has no sizes to tell apart). */
      size: item.sizeLabel,
      variantId: item.variantId,
      quantity: item.quantity,
      price: centsToDollars(item.priceCents),
      purchaseType: item.purchaseType,
      /** The product as it was sold (its name at the time), so a renamed or archived one reads the same. */
      label: item.productLabel || (product ? productLabel(product) : 'Deleted product'),
      product: product
        ? { id: product.id, brand: product.brand, model: product.model, imageUrl: resolveImageUrl(product.imageUrl, product.productType) }
        : { id: null, brand: item.productLabel, model: '', imageUrl: '/static/images/defaults/sunglasses.svg' },
    })),
  };
}

export type OrderView = ReturnType<typeof orderView>;

/** `anyOwner`: the holder of the order's e-mailed link (domain/orders/visitor-cart.ts), whoever owns it. */
function ownOrderRow(db: Queryable, userId: number | 'anyOwner', id: number) {
  if (!Number.isSafeInteger(id) || id < 1) return undefined;
  return db
    .select()
    .from(orders)
    .where(userId === 'anyOwner' ? eq(orders.id, id) : and(eq(orders.id, id), eq(orders.userId, userId)))
    .get();
}

/** The owner's order, or null: anyone else's order answers like a missing one. */
export function findOwnOrder(db: Queryable, userId: number | 'anyOwner', id: number): OrderView | null {
  const order = ownOrderRow(db, userId, id);
  return order ? orderView(db, order) : null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export type HistoryOrder = OrderView & { declinedAttempts: number };

/**
 * The order history: declined attempts are counted under the order of the same checkout that
 * went through after them, and a declined attempt nothing followed is shown for a day, then
 * hidden (it is still in the database, in the data export and in the admin's list).
 */
export function userOrders(db: Queryable, userId: number, now: number = Date.now()): HistoryOrder[] {
  const rows = db.select().from(orders).where(eq(orders.userId, userId)).orderBy(desc(orders.orderDate), desc(orders.id)).limit(200).all();
  const shown: HistoryOrder[] = [];
  const declinedByOrder = new Map<number, number>();
  // Newest first: a failed attempt belongs to the nearest later order of the same checkout that went through.
  const laterSuccess = new Map<string, number>();
  for (const order of rows) {
    if (order.status !== 'failed') {
      if (order.checkoutKey) laterSuccess.set(order.checkoutKey, order.id);
      continue;
    }
    const owner = order.checkoutKey ? laterSuccess.get(order.checkoutKey) : undefined;
    if (owner !== undefined) declinedByOrder.set(owner, (declinedByOrder.get(owner) ?? 0) + 1);
  }
  for (const order of rows) {
    if (order.status === 'failed') {
      const grouped =
        order.checkoutKey !== null && [...rows].some((o) => o.status !== 'failed' && o.checkoutKey === order.checkoutKey && o.orderDate >= order.orderDate);
      if (grouped || order.orderDate < now - DAY_MS) continue;
    }
    // A card refused and tried again within the hour reuses its order: those declines are its own failed charges.
    const ownDeclines =
      order.status === 'failed'
        ? 0
        : (db
            .select({ n: count() })
            .from(payments)
            .where(and(eq(payments.orderId, order.id), eq(payments.kind, 'order_charge'), eq(payments.status, 'failed')))
            .get()?.n ?? 0);
    shown.push({ ...orderView(db, order), declinedAttempts: (declinedByOrder.get(order.id) ?? 0) + ownDeclines });
    if (shown.length === 100) break;
  }
  return shown;
}

export interface TimelineStep {
  label: string;
  at: number;
  detail?: string;
}

/** Everything /orders/{id} shows: the order, its labels, and what happened to it, in order. */
export function orderDetail(db: Queryable, userId: number | 'anyOwner', id: number, now: number = Date.now()) {
  const order = ownOrderRow(db, userId, id);
  if (!order) return null;
  const moves = db.select().from(payments).where(eq(payments.orderId, order.id)).orderBy(asc(payments.createdAt), asc(payments.id)).all();
  const timeline: TimelineStep[] = [{ label: 'Placed', at: order.orderDate }];
  const paid = moves.find((p) => p.kind === 'order_charge' && (p.status === 'captured' || p.status === 'refunded'));
  if (paid)
    timeline.push({
      label: 'Paid',
      // Never before 'Placed': a team's hold is taken before its order exists (issue 37 item 10).
      at: Math.max(order.orderDate, paid.updatedAt > order.orderDate && paid.status === 'captured' ? paid.updatedAt : paid.createdAt),
      detail: paymentLabelOf(order),
    });
  const declined = moves.filter((p) => p.kind === 'order_charge' && p.status === 'failed').length;
  if (order.status === 'failed') timeline.push({ label: 'Payment failed', at: order.updatedAt, detail: 'Nothing was charged.' });
  if (order.shippedAt) timeline.push({ label: 'Shipped', at: order.shippedAt, detail: `${order.carrier} tracking number ${order.trackingNumber}` });
  if (order.deliveredAt) timeline.push({ label: order.donationTo ? `Handed over to ${order.donationTo}` : 'Delivered', at: order.deliveredAt });
  if (order.returnRequestedAt) timeline.push({ label: 'Return requested', at: order.returnRequestedAt, detail: order.returnReason ?? undefined });
  // An admin's refund after the sale says why; a cancellation's refund needs no reason.
  const reasons = new Map(
    db
      .select({ paymentId: orderRefunds.paymentId, reason: orderRefunds.reason })
      .from(orderRefunds)
      .where(eq(orderRefunds.orderId, order.id))
      .all()
      .map((r) => [r.paymentId, r.reason]),
  );
  if (order.canceledAt) timeline.push({ label: 'Canceled', at: order.canceledAt });
  for (const refund of moves.filter((p) => p.kind === 'refund')) {
    if (refund.status === 'refunded')
      timeline.push({
        label: 'Refunded',
        at: refund.updatedAt,
        detail: `$${centsToDollars(refund.amountCents).toFixed(2)} to ${paymentLabelOf(order).replace(/^Card: /, 'your ')}${reasons.has(refund.id) ? `: ${reasons.get(refund.id)}` : ''}`,
      });
    else if (refund.status === 'refunding')
      timeline.push({ label: 'Refund in progress', at: refund.createdAt, detail: `$${centsToDollars(refund.amountCents).toFixed(2)}` });
  }
  timeline.sort((a, b) => a.at - b.at);
  const refundedCents = moves.filter((p) => p.kind === 'refund' && p.status === 'refunded').reduce((sum, p) => sum + p.amountCents, 0);
  return {
    ...orderView(db, order),
    customerEmail: order.customerEmail,
    customerPhone: order.customerPhone,
    shippingLabel: shippingLabelOf(order.shippingMethod),
    paymentLabel: paymentLabelOf(order),
    refunded: centsToDollars(refundedCents),
    declinedAttempts: declined,
    timeline,
    shipment:
      order.carrier && order.trackingNumber
        ? { carrier: order.carrier, trackingNumber: order.trackingNumber, url: trackingUrl(order.carrier, order.trackingNumber) }
        : null,
    returnRequest: order.returnRequestedAt ? { at: order.returnRequestedAt, reason: order.returnReason ?? '', answered: returnAnswered(order) } : null,
    // Refunded in full already: nothing is left to give back for a return.
    canRequestReturn: canRequestReturn(order, now) && paid?.status !== 'refunded',
  };
}

export type OrderDetail = NonNullable<ReturnType<typeof orderDetail>>;

/** How far back the checkout page looks for the same product bought already. */
export const RECENT_PURCHASE_MS = 24 * 60 * 60 * 1000;

/**
 * The shopper's latest paid order holding this product within RECENT_PURCHASE_MS: a shopper
 * back on a checkout they just paid (Back, refresh, a second tab) is told before paying again.
 */
export function recentPurchaseOf(db: Queryable, userId: number, productId: number, now: number): { orderId: number; at: number } | null {
  const found = db
    .select({ orderId: orders.id, at: orders.orderDate })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(
      and(
        eq(orders.userId, userId),
        eq(orderItems.productId, productId),
        inArray(orders.status, ['processing', 'shipped', 'completed']),
        gte(orders.orderDate, now - RECENT_PURCHASE_MS),
      ),
    )
    .orderBy(desc(orders.orderDate), desc(orders.id))
    .limit(1)
    .get();
  return found ?? null;
}
