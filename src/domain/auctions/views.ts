import { inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type Auction, users } from '../../db/schema.ts';
import { centsToDollars } from '../../shared/money.ts';
import { bidRowsOf, currentAuctionOf } from './auction-rows.ts';
import { incrementAt } from './increments.ts';
import { maskBidderName } from './proxy.ts';

/*
 * GET /api/products/{id}/auction (issue 28, item 2): what every viewer may know. The reserve's
 * amount and the maximums stay secret; bidders show as masked names.
 */

export type PublicAuctionStatus = 'scheduled' | 'running' | 'ended' | 'unsold' | 'cancelled';

export interface AuctionView {
  status: PublicAuctionStatus;
  currentPrice: number | null;
  /** The least the next bid may be. */
  minimumBid: number;
  bidCount: number;
  startsAt: string;
  endsAt: string;
  hasReserve: boolean;
  reserveMet: boolean;
  /** True for the signed-in leader. */
  leading: boolean;
  /** True when Buy Now is offered beside the auction: the admin kept it and nobody has bid. */
  buyNowOffered: boolean;
  bids: { bidder: string; amount: number; at: string }[];
}

/** The status a viewer sees: the clock decides between scheduled, running and ended before the close job has run. */
export function publicStatus(auction: Auction, now: number): PublicAuctionStatus {
  switch (auction.status) {
    case 'scheduled':
    case 'running':
      if (now < auction.startsAt) return 'scheduled';
      return now < auction.endsAt ? 'running' : 'ended';
    case 'awaiting_payment':
    case 'second_chance':
      return 'ended';
    default:
      return auction.status;
  }
}

export const HISTORY_LIMIT = 50;

export function auctionView(db: Queryable, productId: number, viewerId: number | null, now: number): AuctionView | undefined {
  const auction = currentAuctionOf(db, productId);
  if (!auction) return undefined;
  const rows = bidRowsOf(db, auction.id).slice(0, HISTORY_LIMIT);
  const ids = [...new Set(rows.map((row) => row.userId))];
  const names = new Map(
    ids.length === 0
      ? []
      : db
          .select({ id: users.id, username: users.username })
          .from(users)
          .where(inArray(users.id, ids))
          .all()
          .map((user) => [user.id, maskBidderName(user.username)] as const),
  );
  const price = auction.currentPriceCents;
  const status = publicStatus(auction, now);
  return {
    status,
    currentPrice: price === null ? null : centsToDollars(price),
    minimumBid: centsToDollars(price === null ? auction.startingBidCents : price + incrementAt(auction.incrementCents, price)),
    bidCount: auction.bidCount,
    startsAt: new Date(auction.startsAt).toISOString(),
    endsAt: new Date(auction.endsAt).toISOString(),
    hasReserve: auction.reserveCents !== null,
    reserveMet: auction.reserveCents === null || auction.reserveMet,
    leading: viewerId !== null && auction.leaderId === viewerId,
    buyNowOffered: status === 'running' && auction.keepBuyNow && auction.bidCount === 0,
    bids: rows.map((row) => ({ bidder: names.get(row.userId) ?? '***', amount: centsToDollars(row.amountCents), at: new Date(row.createdAt).toISOString() })),
  };
}

/** The admin's view adds what bidders never see: the reserve, the inner status, the reason. */
export function adminAuctionView(auction: Auction) {
  return {
    id: auction.id,
    productId: auction.productId,
    status: auction.status,
    startingBid: centsToDollars(auction.startingBidCents),
    increment: auction.incrementCents === null ? null : centsToDollars(auction.incrementCents),
    reservePrice: auction.reserveCents === null ? null : centsToDollars(auction.reserveCents),
    startsAt: new Date(auction.startsAt).toISOString(),
    endsAt: new Date(auction.endsAt).toISOString(),
    keepBuyNow: auction.keepBuyNow,
    currentPrice: auction.currentPriceCents === null ? null : centsToDollars(auction.currentPriceCents),
    bidCount: auction.bidCount,
    reason: auction.reason,
  };
}
