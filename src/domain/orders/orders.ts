import { and, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { cartItems, orderItems, orders, payments } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { CHECKOUT_IN_PROGRESS, DomainError } from '../errors.ts';
import { asPaymentFailure, paymentUnderKey, type PaymentFailure, type PaymentGateway } from '../payments/gateway.ts';
import { type CardGate, withCardAttempt } from '../payments/card-attempts.ts';
import { gatewayKey } from '../payments/keys.ts';
import { queueOrderConfirmation } from './order-emails.ts';
import { type OrderLine, writeLines } from './order-lines.ts';
import { confirmPayment, createPayment, paymentRow, refusePayment, settleFromGateway } from '../payments/engine.ts';
import type { ShippingMethod, Totals } from '../../shared/pricing.ts';
import { findProfile } from '../accounts/profile.ts';
import { sellOrder } from '../inventory/stock.ts';
import { openCashOrdersOfEmail } from './visitor-cart.ts';
import { noteIdempotentOrder } from '../payments/idempotency.ts';

/*
 * Placing an order (DESIGN section 5), in named steps:
 *
 * 1. claim: one transaction takes the checkout lock (no other pending order for the same cart
 *    or buy-now), the stock (a conditional UPDATE: the last unit sells once), the prize (its
 *    game moves 'cart' -> 'buying'), writes the order and, for a card, its payment row in
 *    the in-between state 'charging' with its gateway key (payments/keys.ts: prefix and order id).
 * 2. charge: the gateway call with that key.
 * 3. confirm or roll back (order-charge.ts): paid -> processing, cart lines emptied, prize
 *    bought; refused -> failed, stock and prize released. An unknown outcome (timeout, 5xx,
 *    lost answer) is neither: the gateway is asked for the payment under our key, and when it
 *    cannot tell yet the order stays pending, locked, until the reconciler learns the truth.
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

export type OrderPayment = { method: 'cod' } | { method: 'square' | 'apple_pay'; sourceId: string; customerId?: string | null };

/** Cash on delivery takes stock without payment: at most this many units per order... */
export const MAX_COD_UNITS = 5;
/** ...and one open (undelivered) cash order per account. */
export const MAX_OPEN_COD_ORDERS = 1;

/** The card to charge: a one-time token from the card form, else the card on file. */
export function paymentSourceFor(db: Queryable, userId: number, token: unknown): { sourceId: string; customerId?: string | null } {
  if (typeof token === 'string' && token.trim() !== '') return { sourceId: token.trim().slice(0, 500) };
  const profile = findProfile(db, userId);
  if (profile?.gatewayCardId) return { sourceId: profile.gatewayCardId, customerId: profile.gatewayCustomerId };
  throw new DomainError(400, 'Add a payment card to your profile, or enter a card.', { paymentToken: 'Add a payment card to your profile, or enter a card.' });
}

function checkCashOnDelivery(tx: Queryable, order: PlaceOrder): void {
  const units = order.lines.reduce((sum, line) => sum + line.quantity, 0);
  if (units > MAX_COD_UNITS) {
    const message = `Cash on delivery is limited to ${MAX_COD_UNITS} items per order. Please pay by card.`;
    throw new DomainError(409, message, { paymentMethod: message });
  }
  const open =
    tx
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.userId, order.userId), eq(orders.paymentMethod, 'cod'), eq(orders.status, 'processing')))
      .get()?.n ?? 0;
  const ofEmail = order.guest ? openCashOrdersOfEmail(tx, order.address.email) : 0;
  if (Math.max(open, ofEmail) >= MAX_OPEN_COD_ORDERS) {
    const message = 'You already have a cash-on-delivery order on its way. Please pay by card, or wait until it is delivered.';
    throw new DomainError(409, message, { paymentMethod: message });
  }
}

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Error && /UNIQUE constraint failed: orders\.checkout_key/.test(error.message);
}

export interface PlaceOrder {
  userId: number;
  lines: OrderLine[];
  totals: Totals;
  shippingMethod: ShippingMethod;
  address: ShippingAddress;
  payment: OrderPayment;
  /** What is being paid for ('cart:{userId}', 'buy:{userId}:{productId}'): one attempt at a time. */
  checkoutKey: string;
  /** The client's address: card attempts are limited per user and per address (card-attempts.ts). */
  clientAddress: string;
  /** A guest checkout (domain/orders/visitor-cart.ts): the cash limit also counts the e-mail's other guest orders. */
  guest?: boolean;
  /** 'Buy to donate': the charity partner's name; the address is then the charity's (promotions/donations.ts). */
  donationTo?: string;
  /**
   * The caller's own claim, in the claim's transaction once the order row exists: throwing
   * leaves nothing written. An auction's close uses it to give its winner one order, whatever
   * process or retry gets there (domain/auctions/close.ts).
   */
  inClaim?: (tx: Queryable, orderId: number) => void;
}

export interface Claimed {
  orderId: number;
  /** The 'charging' payment row; null for cash on delivery. */
  paymentRowId: number | null;
  key: string;
  createdAt: number;
}

/** How long a failed order takes the next attempt of the same checkout (docs/decisions.md "Card failures"). */
export const FAILED_ORDER_WINDOW_MS = 15 * 60 * 1000;

/** The same checkout's order that failed within the window, if any, and the number of this attempt on it. */
function failedAttemptToRetry(tx: Queryable, order: PlaceOrder, now: number): { id: number; attempt: number } | undefined {
  const failed = recentFailedOrder(tx).get({ userId: order.userId, checkoutKey: order.checkoutKey, since: now - FAILED_ORDER_WINDOW_MS });
  if (!failed) return undefined;
  const charges = chargesOfOrder(tx).get({ orderId: failed.id });
  return { id: failed.id, attempt: (charges?.n ?? 0) + 1 };
}

/* Every card checkout's claim runs these: built once (db/prepared.ts). */
const recentFailedOrder = preparedOnce((db) =>
  db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, sql.placeholder('userId')),
        eq(orders.checkoutKey, sql.placeholder('checkoutKey')),
        eq(orders.status, 'failed'),
        gte(orders.updatedAt, sql.placeholder('since')),
      ),
    )
    .orderBy(desc(orders.id))
    .prepare(),
);
const chargesOfOrder = preparedOnce((db) =>
  db
    .select({ n: count() })
    .from(payments)
    .where(and(eq(payments.orderId, sql.placeholder('orderId')), eq(payments.kind, 'order_charge')))
    .prepare(),
);

/** Step 1: lock, stock, prize, order and payment row, in one transaction. */
function claimCheckout(deps: OrderDeps, order: PlaceOrder): Claimed {
  const { db, clock } = deps;
  const now = clock.now();
  const cashOnDelivery = order.payment.method === 'cod';
  try {
    // All or nothing: a refusal at any step leaves no order, no reserved stock and no payment row.
    return db.transaction((tx) => {
      if (cashOnDelivery) checkCashOnDelivery(tx, order);
      refuseWhileInProgress(tx, order);
      const { orderId, key } = writeOrder(deps, tx, order, now);
      // The request's Idempotency-Key names its order with it: a retry after a crash finishes this one.
      noteIdempotentOrder(tx, orderId);
      order.inClaim?.(tx, orderId);
      writeLines(tx, orderId, order.lines, order.payment.method === 'cod', now);
      if (cashOnDelivery) {
        completeCashOnDelivery(tx, clock, order, orderId);
        return { orderId, paymentRowId: null, key, createdAt: now };
      }
      return { orderId, paymentRowId: recordCharge(deps, tx, order, orderId, key), key, createdAt: now };
    });
  } catch (error) {
    // Another process took the lock between our check and our insert.
    if (isUniqueViolation(error)) throw new DomainError(409, CHECKOUT_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
    throw error;
  }
}

/** One checkout at a time: a second click while the first is being charged is a 409 naming it. */
function refuseWhileInProgress(tx: Queryable, order: PlaceOrder): void {
  const busy = pendingOrderOfKey(tx).get({ checkoutKey: order.checkoutKey });
  if (busy) throw new DomainError(409, CHECKOUT_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS', orderId: busy.id });
}

/* Every checkout's claim runs these: built once (db/prepared.ts). */
const pendingOrderOfKey = preparedOnce((db) =>
  db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.checkoutKey, sql.placeholder('checkoutKey')), eq(orders.status, 'pending')))
    .prepare(),
);
const insertOrder = preparedOnce((db) =>
  db
    .insert(orders)
    .values({
      userId: sql.placeholder('userId'),
      orderDate: sql.placeholder('orderDate'),
      totalCents: sql.placeholder('totalCents'),
      subtotalCents: sql.placeholder('subtotalCents'),
      taxCents: sql.placeholder('taxCents'),
      shippingCents: sql.placeholder('shippingCents'),
      status: sql.placeholder('status'),
      customerName: sql.placeholder('customerName'),
      customerEmail: sql.placeholder('customerEmail'),
      customerPhone: sql.placeholder('customerPhone'),
      shippingAddress: sql.placeholder('shippingAddress'),
      shippingCity: sql.placeholder('shippingCity'),
      shippingState: sql.placeholder('shippingState'),
      shippingZipCode: sql.placeholder('shippingZipCode'),
      shippingCountry: sql.placeholder('shippingCountry'),
      paymentMethod: sql.placeholder('paymentMethod'),
      shippingMethod: sql.placeholder('shippingMethod'),
      checkoutKey: sql.placeholder('checkoutKey'),
      donationTo: sql.placeholder('donationTo'),
      updatedAt: sql.placeholder('updatedAt'),
    })
    .returning({ id: orders.id })
    .prepare(),
);
const orderStatusOf = preparedOnce((db) =>
  db
    .select({ status: orders.status })
    .from(orders)
    .where(eq(orders.id, sql.placeholder('id')))
    .prepare(),
);

/**
 * The order row: new, or the failed order of a card refused again within the window (one
 * failed order per attempt window), whose lines are written again. Each attempt is its own
 * charge at the gateway, under its own key.
 */
function writeOrder(deps: OrderDeps, tx: Queryable, order: PlaceOrder, now: number): { orderId: number; key: string } {
  const cashOnDelivery = order.payment.method === 'cod';
  const fields: typeof orders.$inferInsert = {
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
    checkoutKey: order.checkoutKey,
    donationTo: order.donationTo ?? null,
    updatedAt: now,
  };
  const retried = cashOnDelivery ? undefined : failedAttemptToRetry(tx, order, now);
  if (!retried) {
    const created = insertOrder(tx).get(fields)!;
    return { orderId: created.id, key: gatewayKey(deps.db, 'charge', created.id) };
  }
  tx.update(orders)
    .set({ ...fields, notes: null })
    .where(eq(orders.id, retried.id))
    .run();
  tx.delete(orderItems).where(eq(orderItems.orderId, retried.id)).run();
  return { orderId: retried.id, key: gatewayKey(deps.db, 'charge', retried.id, retried.attempt) };
}

/** Cash on delivery is complete here: nothing to charge, the cart lines go, the confirmation is queued. */
function completeCashOnDelivery(tx: Queryable, clock: Clock, order: PlaceOrder, orderId: number): void {
  // Nothing to charge: the units are the order's from now on (a cancel returns them).
  sellOrder(tx, orderId, clock.now());
  removeCartLines(tx, order.userId, order.lines);
  queueOrderConfirmation(tx, clock, tx.select().from(orders).where(eq(orders.id, orderId)).get()!);
}

/** The 'charging' payment row, written before the gateway is called, under a lease the reconciler respects (payments/engine.ts). */
function recordCharge(deps: OrderDeps, tx: Queryable, order: PlaceOrder, orderId: number, key: string): number {
  return createPayment(tx, deps, {
    userId: order.userId,
    kind: 'order_charge',
    status: 'charging',
    amountCents: order.totals.totalCents,
    orderId,
    idempotencyKey: key,
  }).id;
}

function removeCartLines(tx: Queryable, userId: number, lines: OrderLine[]): void {
  const ids = lines.map((line) => line.cartItemId).filter((id): id is number => id !== undefined);
  if (ids.length)
    tx.delete(cartItems)
      .where(and(eq(cartItems.userId, userId), inArray(cartItems.id, ids)))
      .run();
}

export const PAYMENT_UNCONFIRMED =
  'We could not confirm your payment with the card processor yet. Your order is on hold while we check, and you will not be charged twice. We will notify you as soon as it is confirmed.';

function declinedError(failure: PaymentFailure, orderId: number): DomainError {
  const message = failure.declined
    ? 'Your card was declined. Please check your card details or use another card.'
    : 'There was an error processing your payment. Please try again.';
  return new DomainError(failure.declined ? 402 : 502, message, undefined, { orderId, code: failure.code });
}

/** What the shopper is told once the order's charge has ended, whoever ended it. */
export function answerFor(db: Queryable, orderId: number, failure: PaymentFailure | null): number {
  const status = orderStatusOf(db).get({ id: orderId })?.status;
  if (status === 'processing' || status === 'shipped' || status === 'completed') return orderId;
  if (status === 'failed' && failure) throw declinedError(failure, orderId);
  if (status === 'failed')
    throw new DomainError(402, 'Your payment did not go through. Please check your card details or use another card.', undefined, { orderId });
  throw new DomainError(502, PAYMENT_UNCONFIRMED, undefined, { orderId, code: 'PAYMENT_UNCONFIRMED' });
}

/** Steps 2 and 3: the charge, then confirm, roll back, or leave it to the reconciler. */
export async function chargeOrder(
  deps: OrderDeps,
  claimed: Claimed & { paymentRowId: number },
  order: Pick<PlaceOrder, 'payment'> & { totals: Pick<Totals, 'totalCents'> },
  gate: CardGate,
): Promise<number> {
  const { db, gateway } = deps;
  const payment = order.payment as Exclude<OrderPayment, { method: 'cod' }>;
  try {
    const charged = await gate.call(() =>
      gateway.charge({
        sourceId: payment.sourceId,
        customerId: payment.customerId,
        amountCents: order.totals.totalCents,
        idempotencyKey: claimed.key,
        note: `CSA order #${claimed.orderId}`,
      }),
    );
    if (charged.status === 'COMPLETED') await confirmPayment(deps, claimed.paymentRowId, charged);
    return answerFor(db, claimed.orderId, null);
  } catch (error) {
    const failure = asPaymentFailure(error);
    if (!failure.uncertain) {
      await refusePayment(deps, claimed.paymentRowId, failure);
      return answerFor(db, claimed.orderId, failure);
    }
    // The gateway may have taken the money: ask it before saying anything.
    const found = await paymentUnderKey(gateway, claimed.key, claimed.createdAt);
    const row = paymentRow(db, claimed.paymentRowId);
    if (row && found) await settleFromGateway(deps, row, found);
    return answerFor(db, claimed.orderId, null);
  }
}

/** Places an order and pays for it; resolves to the order id, or throws a DomainError. */
export async function placeOrder(deps: OrderDeps, order: PlaceOrder): Promise<number> {
  if (order.payment.method === 'cod') return claimCheckout(deps, order).orderId;
  // A card order takes its card slot before anything is written: a 429 leaves no order behind.
  return withCardAttempt(deps, { userId: order.userId, address: order.clientAddress }, async (gate) => {
    const claimed = claimCheckout(deps, order);
    if (claimed.paymentRowId === null) return claimed.orderId;
    return chargeOrder(deps, { ...claimed, paymentRowId: claimed.paymentRowId }, order, gate);
  });
}
