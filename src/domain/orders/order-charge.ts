import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { cartItems, games, orderItems, orders } from '../../db/schema.ts';
import { releaseOrder, returnOrder, sellOrder } from '../inventory/stock.ts';
import { queueOrderConfirmation } from './order-emails.ts';
import { notify } from '../accounts/notifications.ts';
import type { Purpose } from '../payments/purposes.ts';
import { formatCents } from '../../shared/pricing.ts';
import { grantFreeEntries } from '../games/free-entries.ts';

/*
 * What an order's card charge means (payments kind 'order_charge'), registered with the money
 * engine (payments/engine.ts) by src/flows/payment-purposes.ts: whoever learns the outcome (the
 * request that made the charge, the reconciler, the admin's Check or Mark paid), the engine moves
 * the row once and these handlers finish the order in the same transaction, with its notification.
 */

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

/*
 * The order leaves 'pending' once (undefined when it had already moved on, e.g. canceled
 * meanwhile): paid or failed, each move built once (db/prepared.ts).
 */
const pendingOrder = and(eq(orders.id, sql.placeholder('orderId')), eq(orders.status, 'pending'));
const orderPaid = preparedOnce((db) =>
  db
    .update(orders)
    .set({
      status: 'processing',
      paymentId: sql`${sql.placeholder('paymentId')}`,
      cardBrand: sql`${sql.placeholder('cardBrand')}`,
      cardLast4: sql`${sql.placeholder('cardLast4')}`,
      updatedAt: sql`${sql.placeholder('now')}`,
    })
    .where(pendingOrder)
    .returning()
    .prepare(),
);
const orderFailed = preparedOnce((db) =>
  db
    .update(orders)
    .set({ status: 'failed', notes: sql`${sql.placeholder('notes')}`, updatedAt: sql`${sql.placeholder('now')}` })
    .where(pendingOrder)
    .returning()
    .prepare(),
);

/**
 * A charge not taken: units the order took off the shelf (buy now, a mystery box's drawn one) go
 * back; a prize's unit stays reserved for its game, and an auction's stays held for the winner's
 * Retry or the second chance (the auction gives it back itself if it ends unsold).
 */
export function restoreBuyNowStock(tx: Queryable, orderId: number, now: number): void {
  releaseOrder(tx, orderId, now);
}

/** A paid order canceled or refunded: every unit it sold goes back, an auction's and a team's too; a prize's does not (its game gave it away). */
export function restoreSoldStock(tx: Queryable, orderId: number, now: number): void {
  returnOrder(tx, orderId, now, ['prize']);
}

export const orderChargePurpose: Purpose = {
  kind: 'order_charge',
  /** Paid: the order is processing, its cart lines are emptied, its prize is bought, the shopper is told. */
  onConfirmed(tx, { clock }, row, charged) {
    const now = clock.now();
    const order =
      row.orderId === null
        ? undefined
        : orderPaid(tx).get({
            orderId: row.orderId,
            paymentId: charged.id,
            cardBrand: charged.card?.brand ?? null,
            cardLast4: charged.card?.last4 ?? null,
            now,
          });
    if (!order) return undefined;
    const items = itemsOf(tx, order.id);
    const lines = items.map((item) => item.cartItemId).filter((id): id is number => id !== null);
    if (lines.length)
      tx.delete(cartItems)
        .where(and(eq(cartItems.userId, order.userId), inArray(cartItems.id, lines)))
        .run();
    sellOrder(tx, order.id, now);
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
    return undefined;
  },
  /** Not taken: the order failed, its stock is back, its prize waits in the cart again, the shopper is told. */
  onRefused(tx, { clock }, row, failure) {
    const order = row.orderId === null ? undefined : orderFailed(tx).get({ orderId: row.orderId, notes: `Payment failed: ${failure.code}`, now: clock.now() });
    if (!order) return undefined;
    const items = itemsOf(tx, order.id);
    restoreBuyNowStock(tx, order.id, clock.now());
    settlePrizes(tx, items, 'cart');
    notify(tx, clock, order.userId, {
      type: 'payment_failed',
      eventKey: `order:${order.id}:failed`,
      title: 'Payment Failed',
      message: `There was an issue processing your payment for order #${order.id}.`,
      actionUrl: '/profile?tab=payment',
      actionText: 'Update Payment Method',
    });
    return undefined;
  },
  describe(_db, row) {
    return row.orderId === null
      ? { what: `Card charge #${row.id}`, todo: 'Check it with Square.' }
      : {
          what: `Card charge for order #${row.orderId}`,
          todo: 'Check it with Square: mark it paid with the payment Square shows, or failed when Square has none.',
        };
  },
  // An order's charge is the one row an admin may mark paid with a payment found at Square.
  actions: (_row, offered) => offered,
};
