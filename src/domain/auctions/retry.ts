import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { auctions, orders } from '../../db/schema.ts';
import { buyerOrders, OWING_STATUSES } from './payment.ts';

/*
 * The order page's Retry payment (issue 28, item 5): an auction order whose charge was declined
 * shows it only while the auction still owes this buyer (awaiting payment or a second-chance
 * offer, inside the 24 hours) and nothing of theirs for it is paid or under way. The button calls
 * POST /api/products/{id}/auction/pay, whose own checks (close.ts payForAuction) decide.
 */

const AUCTION_KEY = /^auction:(\d+):(\d+)$/;

export interface AuctionRetry {
  productId: number;
  /** Until when the buyer may pay (epoch ms). */
  dueAt: number;
}

/** The Retry an order offers its owner, or null. */
export function auctionRetryFor(db: Queryable, orderId: number, viewerId: number | null, now: number): AuctionRetry | null {
  if (viewerId === null) return null;
  const order = db
    .select({ id: orders.id, userId: orders.userId, status: orders.status, checkoutKey: orders.checkoutKey })
    .from(orders)
    .where(eq(orders.id, orderId))
    .get();
  const key = order?.checkoutKey ? AUCTION_KEY.exec(order.checkoutKey) : null;
  if (!order || !key || order.status !== 'failed' || order.userId !== viewerId || Number(key[2]) !== viewerId) return null;
  const auction = db
    .select()
    .from(auctions)
    .where(and(eq(auctions.id, Number(key[1])), eq(auctions.winnerId, viewerId), inArray(auctions.status, [...OWING_STATUSES])))
    .get();
  if (!auction || auction.paymentDueAt === null || now >= auction.paymentDueAt) return null;
  // Only the latest attempt offers it, and never once one went through.
  const attempts = buyerOrders(db, auction.id, viewerId);
  if (attempts.paid || attempts.latest?.id !== order.id) return null;
  return { productId: auction.productId, dueAt: auction.paymentDueAt };
}

/** The Retry of each failed order in a list (the profile's Orders tab), by order id. */
export function auctionRetriesFor(db: Queryable, list: { id: number; status: string }[], viewerId: number, now: number): Map<number, AuctionRetry> {
  const found = new Map<number, AuctionRetry>();
  for (const order of list) {
    if (order.status !== 'failed') continue;
    const retry = auctionRetryFor(db, order.id, viewerId, now);
    if (retry) found.set(order.id, retry);
  }
  return found;
}
