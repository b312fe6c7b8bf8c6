import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { cartItems, games, orderItems, orders, payments, products } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { queueOrderConfirmation } from './order-emails.ts';
import { notify } from '../accounts/notifications.ts';
import type { GatewayPayment } from '../payments/gateway.ts';
import { holdForReview, mismatchOf } from '../payments/matching.ts';
import { NOT_TAKEN_AFTER_MS } from '../payments/states.ts';
import { formatCents } from '../../shared/pricing.ts';
import { grantFreeEntries } from '../games/free-entries.ts';

/*
 * How a card order's charge ends, whoever learns the outcome: the request that made the charge,
 * or the reconciler after an unknown answer or a crash. Each ending is one transaction claimed
 * on the payment row (WHERE status = 'charging'), so an order is finished once, with its
 * notification in the same transaction.
 */

export interface ChargeDeps {
  db: Db;
  clock: Clock;
}

type PaymentRow = typeof payments.$inferSelect;

function itemsOf(tx: Queryable, orderId: number) {
  return tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).all();
}

/** The prizes among an order's lines leave 'buying': bought once paid, back in the winner's cart when not. */
function settlePrizes(tx: Queryable, items: (typeof orderItems.$inferSelect)[], outcome: 'bought' | 'cart'): void {
  const prizes = items.flatMap((item) => (item.purchaseType === 'play' && item.gameId !== null ? [item.gameId] : []));
  if (prizes.length === 0) return;
  tx.update(games)
    .set({ prizeOutcome: outcome })
    .where(and(inArray(games.id, prizes), eq(games.prizeOutcome, 'buying')))
    .run();
}

/**
 * A charge ends once: its row leaves 'charging' (a second caller, the reconciler or a retry,
 * finds nothing and stops: undefined), then its order leaves 'pending' (undefined when the
 * order had already moved on, e.g. canceled meanwhile).
 */
function endCharge(
  tx: Queryable,
  paymentRowId: number,
  payment: Partial<typeof payments.$inferInsert>,
  order: Partial<typeof orders.$inferInsert>,
): { order: typeof orders.$inferSelect | undefined } | undefined {
  const row = tx
    .update(payments)
    .set(payment)
    .where(and(eq(payments.id, paymentRowId), eq(payments.status, 'charging')))
    .returning()
    .get();
  if (!row?.orderId) return undefined;
  const moved = tx
    .update(orders)
    .set(order)
    .where(and(eq(orders.id, row.orderId), eq(orders.status, 'pending')))
    .returning()
    .get();
  return { order: moved };
}

/** How a charge is confirmed: by default only with a payment that matches the row in full (payments/matching.ts). */
export interface ConfirmOptions {
  /** An admin's override: a payment under another reference may pay this order (amount, currency and uniqueness still hold). */
  anyReference?: boolean;
  /** Kept on the payment row: who confirmed it against what, and why. */
  reviewNote?: string;
}

/** Paid: the order is processing, its cart lines are emptied, its prize is bought, the shopper is told. */
export function confirmCharge(deps: ChargeDeps, paymentRowId: number, charged: GatewayPayment, options: ConfirmOptions = {}): boolean {
  const { db, clock } = deps;
  const result = db.transaction((tx) => {
    const now = clock.now();
    const current = tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentRowId), eq(payments.status, 'charging')))
      .get();
    if (!current) return false;
    const mismatch = mismatchOf(tx, current, charged, options);
    if (mismatch) return { current, mismatch };
    const reviewed = options.reviewNote ? { reviewNote: options.reviewNote.slice(0, 1000), reviewedAt: now } : {};
    const ended = endCharge(
      tx,
      paymentRowId,
      { status: 'captured', gatewayPaymentId: charged.id, errorCode: null, errorDetail: null, nextAttemptAt: null, updatedAt: now, ...reviewed },
      { status: 'processing', paymentId: charged.id, cardBrand: charged.card?.brand ?? null, cardLast4: charged.card?.last4 ?? null, updatedAt: now },
    );
    if (!ended) return false;
    const { order } = ended;
    if (!order) return true;
    const items = itemsOf(tx, order.id);
    const lines = items.map((item) => item.cartItemId).filter((id): id is number => id !== null);
    if (lines.length)
      tx.delete(cartItems)
        .where(and(eq(cartItems.userId, order.userId), inArray(cartItems.id, lines)))
        .run();
    settlePrizes(tx, items, 'bought');
    // Buy one, play free: in the transaction that makes the order paid, before its receipt (which names them).
    grantFreeEntries(tx, clock, order);
    notify(tx, clock, order.userId, {
      type: 'payment_success',
      eventKey: `order:${order.id}:paid`,
      title: 'Payment Successful',
      message: `Your payment of ${formatCents(order.totalCents)} for order #${order.id} has been processed.`,
      actionUrl: `/orders/${order.id}`,
      actionText: 'View Order',
    });
    queueOrderConfirmation(tx, clock, order);
    return true;
  });
  if (typeof result === 'boolean') return result;
  holdForReview(deps, result.current, result.mismatch);
  return false;
}

type StockLine = { productId: number | null; quantity: number; purchaseType: string };

function putBack(tx: Queryable, items: StockLine[], types: readonly string[]): void {
  for (const item of items) {
    if (!types.includes(item.purchaseType) || item.productId === null) continue;
    tx.update(products)
      .set({ quantity: sql`${products.quantity} + ${item.quantity}` })
      .where(eq(products.id, item.productId))
      .run();
  }
}

/**
 * A charge not taken: units the order took off the shelf (buy now, a team member's own, a mystery box's drawn one) go back; a prize's unit stays reserved for its
 * game, and an auction's stays held for the winner's Retry or the second chance (the auction
 * gives it back itself if it ends unsold).
 */
export function restoreBuyNowStock(tx: Queryable, items: StockLine[]): void {
  putBack(tx, items, ['buy_now', 'team', 'mystery_box']);
}

/** A paid order canceled or refunded: every unit it sold goes back, an auction's too (that auction is over). */
export function restoreSoldStock(tx: Queryable, items: StockLine[]): void {
  putBack(tx, items, ['buy_now', 'auction', 'team', 'mystery_box']);
}

/** Not taken: the order failed, its stock is back, its prize waits in the cart again, the shopper is told. */
export function rollBackCharge(deps: ChargeDeps, paymentRowId: number, failure: { code: string; detail: string }): boolean {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const now = clock.now();
    const ended = endCharge(
      tx,
      paymentRowId,
      { status: 'failed', errorCode: failure.code, errorDetail: failure.detail.slice(0, 500), nextAttemptAt: null, updatedAt: now },
      { status: 'failed', notes: `Payment failed: ${failure.code}`, updatedAt: now },
    );
    if (!ended) return false;
    const { order } = ended;
    if (!order) return true;
    const items = itemsOf(tx, order.id);
    restoreBuyNowStock(tx, items);
    settlePrizes(tx, items, 'cart');
    notify(tx, clock, order.userId, {
      type: 'payment_failed',
      eventKey: `order:${order.id}:failed`,
      title: 'Payment Failed',
      message: `There was an issue processing your payment for order #${order.id}.`,
      actionUrl: '/profile?tab=payment',
      actionText: 'Update Payment Method',
    });
    return true;
  });
}

export type ChargeOutcome = 'paid' | 'failed' | 'unknown';

/**
 * Ends a charge from what the gateway says it holds under our key, once it matches the row
 * (amount, currency, reference: otherwise Needs attention): COMPLETED is paid, FAILED or
 * CANCELED is not; nothing at all is 'not taken' only once NOT_TAKEN_AFTER_MS have passed since
 * our last call, because a request may still be on its way.
 */
export function settleChargeFromGateway(deps: ChargeDeps, row: PaymentRow, found: GatewayPayment | undefined): ChargeOutcome {
  // Not ours (another store's or a restored backup's key, another amount): an admin looks, nothing is guessed.
  const mismatch = found ? mismatchOf(deps.db, row, found) : null;
  if (mismatch) {
    holdForReview(deps, row, mismatch);
    return 'unknown';
  }
  if (found?.status === 'COMPLETED') return confirmCharge(deps, row.id, found) ? 'paid' : 'unknown';
  if (found?.status === 'FAILED' || found?.status === 'CANCELED') {
    rollBackCharge(deps, row.id, { code: 'DECLINED', detail: `The gateway answered ${found.status}.` });
    return 'failed';
  }
  if (!found && row.updatedAt <= deps.clock.now() - NOT_TAKEN_AFTER_MS) {
    rollBackCharge(deps, row.id, { code: 'NOT_TAKEN', detail: 'The gateway never took this payment.' });
    return 'failed';
  }
  return 'unknown';
}
