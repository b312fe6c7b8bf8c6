import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { cartItems, orderItems, orders, payments, products } from '../db/schema.ts';
import { cartLines, type CartLine } from './cart.ts';
import { resolveImageUrl } from './catalog.ts';
import type { Clock } from './clock.ts';
import { DomainError } from './errors.ts';
import { centsToDollars } from './money.ts';
import { notify } from './notifications.ts';
import { idempotencyKey, PaymentFailure, type PaymentGateway } from './payments/gateway.ts';
import { formatCents, type ShippingMethod, type Totals } from './pricing.ts';
import { findProfile } from './profile.ts';

/*
 * Placing an order (DESIGN section 5): totals come from our prices, stock is taken with a
 * conditional UPDATE in the order's own transaction (the last unit sells once), then the card
 * is charged with a key derived from the order id. A failed payment restores the stock and
 * leaves a `failed` order; the cart is emptied only once the order is paid or cash on delivery.
 */

export interface OrderDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
}

export interface ShippingAddress {
  name: string;
  email: string;
  phone: string;
  line1: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
}

export type OrderPayment =
  | { method: 'cod' }
  | { method: 'square' | 'apple_pay'; sourceId: string; customerId?: string | null };

export interface OrderLine {
  productId: number;
  quantity: number;
  priceCents: number;
  purchaseType: 'buy_now' | 'play';
  label: string;
  /** The cart line this came from, emptied once the order goes through. */
  cartItemId?: number;
  /** A prize's stock was reserved when its game started. */
  stockReserved: boolean;
}

export function linesFromCart(cart: CartLine[]): OrderLine[] {
  return cart.map((line) => ({
    productId: line.productId,
    quantity: line.quantity,
    priceCents: line.priceCents,
    purchaseType: line.type === 'play' ? 'play' : 'buy_now',
    label: `${line.product.brand} ${line.product.model}`,
    cartItemId: line.id,
    stockReserved: line.type === 'play',
  }));
}

/** The card to charge: a one-time token from the card form, else the card on file. */
export function paymentSourceFor(db: Db, userId: number, token: unknown): { sourceId: string; customerId?: string | null } {
  if (typeof token === 'string' && token.trim() !== '') return { sourceId: token.trim().slice(0, 500) };
  const profile = findProfile(db, userId);
  if (profile?.gatewayCardId) return { sourceId: profile.gatewayCardId, customerId: profile.gatewayCustomerId };
  throw new DomainError(400, 'Add a payment card to your profile, or enter a card.', { paymentToken: 'Add a payment card to your profile, or enter a card.' });
}

function reserveStock(tx: Db, line: OrderLine): void {
  const taken = tx
    .update(products)
    .set({ quantity: sql`${products.quantity} - ${line.quantity}` })
    .where(and(eq(products.id, line.productId), gte(products.quantity, line.quantity)))
    .returning({ id: products.id })
    .all();
  if (taken.length === 0) {
    const left = tx.select({ quantity: products.quantity }).from(products).where(eq(products.id, line.productId)).get()?.quantity ?? 0;
    const message = left <= 0 ? `${line.label} just sold out.` : `Only ${left} of ${line.label} left in stock.`;
    throw new DomainError(409, message, { items: message });
  }
}

function restoreStock(tx: Db, line: OrderLine): void {
  tx.update(products)
    .set({ quantity: sql`${products.quantity} + ${line.quantity}` })
    .where(eq(products.id, line.productId))
    .run();
}

export interface PlaceOrder {
  userId: number;
  lines: OrderLine[];
  totals: Totals;
  shippingMethod: ShippingMethod | 'local';
  address: ShippingAddress;
  payment: OrderPayment;
}

/** Places an order and pays for it; resolves to the order id, or throws a DomainError. */
export async function placeOrder(deps: OrderDeps, order: PlaceOrder): Promise<number> {
  const { db, clock, gateway } = deps;
  const now = clock.now();
  const cashOnDelivery = order.payment.method === 'cod';
  const { orderId, paymentRowId } = db.transaction((tx) => {
    const created = tx
      .insert(orders)
      .values({
        userId: order.userId,
        orderDate: now,
        totalCents: order.totals.totalCents,
        subtotalCents: order.totals.subtotalCents,
        taxCents: order.totals.taxCents,
        shippingCents: order.totals.shippingCents,
        status: cashOnDelivery ? 'processing' : 'pending',
        customerName: order.address.name,
        customerEmail: order.address.email,
        customerPhone: order.address.phone,
        shippingAddress: order.address.line1,
        shippingCity: order.address.city,
        shippingState: order.address.state,
        shippingZipCode: order.address.postalCode,
        shippingCountry: order.address.country,
        paymentMethod: order.payment.method,
        shippingMethod: order.shippingMethod,
        updatedAt: now,
      })
      .returning({ id: orders.id })
      .get();
    for (const line of order.lines) {
      if (!line.stockReserved) reserveStock(tx as unknown as Db, line);
      tx.insert(orderItems)
        .values({
          orderId: created.id,
          productId: line.productId,
          quantity: line.quantity,
          priceCents: line.priceCents,
          purchaseType: line.purchaseType,
          productLabel: line.label,
        })
        .run();
    }
    if (cashOnDelivery) {
      removeCartLines(tx as unknown as Db, order.userId, order.lines);
      return { orderId: created.id, paymentRowId: null };
    }
    const payment = tx
      .insert(payments)
      .values({
        userId: order.userId,
        kind: 'order_charge',
        status: 'pending',
        amountCents: order.totals.totalCents,
        orderId: created.id,
        gateway: gateway.name,
        idempotencyKey: idempotencyKey('order', created.id, 'charge'),
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: payments.id })
      .get();
    return { orderId: created.id, paymentRowId: payment.id };
  });
  if (paymentRowId === null) return orderId;

  const payment = order.payment as Exclude<OrderPayment, { method: 'cod' }>;
  try {
    const charged = await gateway.charge({
      sourceId: payment.sourceId,
      customerId: payment.customerId,
      amountCents: order.totals.totalCents,
      idempotencyKey: idempotencyKey('order', orderId, 'charge'),
      note: `CSA order #${orderId}`,
    });
    db.transaction((tx) => {
      tx.update(payments).set({ status: 'captured', gatewayPaymentId: charged.id, updatedAt: clock.now() }).where(eq(payments.id, paymentRowId)).run();
      tx.update(orders).set({ status: 'processing', paymentId: charged.id, updatedAt: clock.now() }).where(eq(orders.id, orderId)).run();
      removeCartLines(tx as unknown as Db, order.userId, order.lines);
    });
    notify(db, clock, order.userId, {
      type: 'payment_success',
      title: 'Payment Successful',
      message: `Your payment of ${formatCents(order.totals.totalCents)} for order #${orderId} has been processed.`,
      actionUrl: '/profile?tab=orders',
      actionText: 'View Orders',
    });
    return orderId;
  } catch (error) {
    const failure = error instanceof PaymentFailure ? error : new PaymentFailure('GATEWAY_ERROR', String(error), false);
    db.transaction((tx) => {
      for (const line of order.lines) if (!line.stockReserved) restoreStock(tx as unknown as Db, line);
      tx.update(payments).set({ status: 'failed', errorCode: failure.code, updatedAt: clock.now() }).where(eq(payments.id, paymentRowId)).run();
      tx.update(orders).set({ status: 'failed', notes: `Payment failed: ${failure.code}`, updatedAt: clock.now() }).where(eq(orders.id, orderId)).run();
    });
    notify(db, clock, order.userId, {
      type: 'payment_failed',
      title: 'Payment Failed',
      message: `There was an issue processing your payment for order #${orderId}.`,
      actionUrl: '/profile?tab=payment',
      actionText: 'Update Payment Method',
    });
    const message = failure.declined
      ? 'Your card was declined. Please check your card details or use another card.'
      : 'There was an error processing your payment. Please try again.';
    throw new DomainError(failure.declined ? 402 : 502, message, undefined, { orderId, code: failure.code });
  }
}

function removeCartLines(tx: Db, userId: number, lines: OrderLine[]): void {
  const ids = lines.map((line) => line.cartItemId).filter((id): id is number => id !== undefined);
  if (ids.length) tx.delete(cartItems).where(and(eq(cartItems.userId, userId), inArray(cartItems.id, ids))).run();
}

/** An order as GET /api/orders/{id} and the order history show it (dollars, items with product). */
export function orderView(db: Db, order: typeof orders.$inferSelect) {
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
    paymentMethod: order.paymentMethod,
    shippingMethod: order.shippingMethod,
    paymentId: order.paymentId,
    notes: order.notes,
    items: items.map(({ item, product }) => ({
      id: item.id,
      productId: item.productId,
      quantity: item.quantity,
      price: centsToDollars(item.priceCents),
      purchaseType: item.purchaseType,
      product: product
        ? { id: product.id, brand: product.brand, model: product.model, imageUrl: resolveImageUrl(product.imageUrl, product.productType) }
        : { id: null, brand: item.productLabel, model: '', imageUrl: '/static/images/defaults/sunglasses.svg' },
    })),
  };
}

export type OrderView = ReturnType<typeof orderView>;

/** The owner's order, or null: anyone else's order answers like a missing one. */
export function findOwnOrder(db: Db, userId: number, id: number): OrderView | null {
  if (!Number.isSafeInteger(id) || id < 1) return null;
  const order = db.select().from(orders).where(and(eq(orders.id, id), eq(orders.userId, userId))).get();
  return order ? orderView(db, order) : null;
}

export function userOrders(db: Db, userId: number): OrderView[] {
  return db
    .select()
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.orderDate), desc(orders.id))
    .limit(100)
    .all()
    .map((order) => orderView(db, order));
}

export { cartLines };
