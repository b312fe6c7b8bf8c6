import { and, eq, inArray, max } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type Auction, auctionMaximums, users } from '../../db/schema.ts';
import { centsToDollars } from '../../shared/money.ts';
import { totalsFor } from '../../shared/pricing.ts';
import type { AuctionPayment, AuctionView, PublicAuctionStatus } from '../../shared/views/auctions.ts';
import { auctionSizeOf, bidRowsOf, currentAuctionOf } from './auction-rows.ts';
import { incrementAt } from './increments.ts';
import { buyerOrders, owedPriceCents } from './payment.ts';
import { maskBidderName } from './proxy.ts';

/*
 * GET /api/products/{id}/auction (issue 28, item 2): what every viewer may know. The reserve's
 * amount and the maximums stay secret; bidders show as masked names.
 */

export type { AuctionPayment, AuctionView, PublicAuctionStatus };

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
  // The public price; a second-chance offer's price (the runner-up's secret maximum) is kept apart, in `offerCents`.
  const price = auction.currentPriceCents;
  const status = publicStatus(auction, now);
  const view: AuctionView = {
    status,
    currentPrice: price === null ? null : centsToDollars(price),
    minimumBid: centsToDollars(price === null ? auction.startingBidCents : price + incrementAt(auction.incrementCents, price)),
    bidCount: auction.bidCount,
    size: auctionSizeOf(db, auction),
    startsAt: new Date(auction.startsAt).toISOString(),
    endsAt: new Date(auction.endsAt).toISOString(),
    hasReserve: auction.reserveCents !== null,
    reserveMet: auction.reserveCents === null || auction.reserveMet,
    leading: viewerId !== null && auction.leaderId === viewerId,
    buyNowOffered: status === 'running' && auction.keepBuyNow && auction.bidCount === 0,
    bids: rows.map((row) => ({ bidder: names.get(row.userId) ?? '***', amount: centsToDollars(row.amountCents), at: new Date(row.createdAt).toISOString() })),
    now: new Date(now).toISOString(),
  };
  return viewerId === null ? view : { ...view, ...viewerStanding(db, auction, viewerId, now) };
}

/**
 * The signed-in viewer's own part of the view: whether they bid, their own best maximum, and
 * the payment the auction waits on them for. Only their own GET carries it; the live broadcast
 * is built with no viewer.
 */
function viewerStanding(db: Queryable, auction: Auction, viewerId: number, now: number): Pick<AuctionView, 'youBid' | 'yourMaximum' | 'payment'> {
  const best = db
    .select({ cents: max(auctionMaximums.maxCents) })
    .from(auctionMaximums)
    .where(and(eq(auctionMaximums.auctionId, auction.id), eq(auctionMaximums.userId, viewerId)))
    .get()?.cents;
  return { youBid: best != null, yourMaximum: best == null ? null : centsToDollars(best), payment: paymentOwed(db, auction, viewerId, now) };
}

/** Retry (the winner after a decline) or Buy (the runner-up's offer), while the window is open and no charge is under way or paid. */
function paymentOwed(db: Queryable, auction: Auction, viewerId: number, now: number): AuctionPayment | null {
  if (auction.winnerId !== viewerId || auction.currentPriceCents === null || auction.paymentDueAt === null || now >= auction.paymentDueAt) return null;
  if (auction.status !== 'awaiting_payment' && auction.status !== 'second_chance') return null;
  const { latest, paid } = buyerOrders(db, auction.id, viewerId);
  if (paid || latest?.status === 'pending') return null;
  // The winner's first charge is the close job's; Retry is offered once it was declined.
  if (auction.status === 'awaiting_payment' && !latest) return null;
  // Their own price: the final one, or their own maximum on a second-chance offer.
  const owed = owedPriceCents(auction);
  const totals = totalsFor([{ priceCents: owed, quantity: 1 }], 0);
  return {
    kind: auction.status === 'awaiting_payment' ? 'retry' : 'second_chance',
    amount: centsToDollars(totals.totalCents),
    price: centsToDollars(owed),
    dueAt: new Date(auction.paymentDueAt).toISOString(),
  };
}

/** The admin's view adds what bidders never see: the reserve, the inner status, the reason. */
export function adminAuctionView(auction: Auction) {
  return {
    id: auction.id,
    productId: auction.productId,
    variantId: auction.variantId,
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
