import { and, asc, desc, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type Auction, auctionMaximums, auctions, products, users } from '../../db/schema.ts';
import { productLabel } from '../catalog/catalog.ts';
import { centsToDollars } from '../../shared/money.ts';
import type { AdminAuctionFilter } from '../../shared/schemas/auctions.ts';
import { OPEN_STATUSES } from './auction-rows.ts';
import { incrementAt } from './increments.ts';
import { adminAuctionView, publicStatus } from './views.ts';

/*
 * The lists the pages will read (issue 28, item 6): running auctions ending soonest first
 * (/auctions), a bidder's auctions (the profile's Bids tab), and the admin's Auctions tab.
 */

const LIST_LIMIT = 100;

function line(auction: Auction, product: typeof products.$inferSelect) {
  const price = auction.currentPriceCents;
  return {
    productId: product.id,
    name: productLabel(product),
    imageUrl: product.imageUrl,
    currentPrice: price === null ? null : centsToDollars(price),
    minimumBid: centsToDollars(price === null ? auction.startingBidCents : price + incrementAt(auction.incrementCents, price)),
    bidCount: auction.bidCount,
    endsAt: new Date(auction.endsAt).toISOString(),
  };
}

/** GET /api/auctions: every auction taking bids now, the one ending soonest first. */
export function runningAuctions(db: Queryable, now: number) {
  return db
    .select({ auction: auctions, product: products })
    .from(auctions)
    .innerJoin(products, eq(products.id, auctions.productId))
    .where(and(inArray(auctions.status, OPEN_STATUSES), lte(auctions.startsAt, now), gt(auctions.endsAt, now)))
    .orderBy(asc(auctions.endsAt))
    .limit(LIST_LIMIT)
    .all()
    .map(({ auction, product }) => line(auction, product));
}

/** GET /api/user/bids: the auctions a shopper bid in: still open (leading or not), won, lost. */
export function userBids(db: Queryable, userId: number, now: number) {
  const mine = db
    .selectDistinct({ auctionId: auctionMaximums.auctionId })
    .from(auctionMaximums)
    .where(eq(auctionMaximums.userId, userId))
    .all()
    .map((row) => row.auctionId);
  const rows =
    mine.length === 0
      ? []
      : db
          .select({ auction: auctions, product: products })
          .from(auctions)
          .innerJoin(products, eq(products.id, auctions.productId))
          .where(inArray(auctions.id, mine))
          .orderBy(desc(auctions.endsAt))
          .all();
  const result = { active: [] as ReturnType<typeof line>[], won: [] as ReturnType<typeof line>[], lost: [] as ReturnType<typeof line>[] };
  for (const { auction, product } of rows) {
    const entry = { ...line(auction, product), leading: auction.leaderId === userId, status: publicStatus(auction, now) };
    if (entry.status === 'running' || entry.status === 'scheduled') result.active.push(entry);
    else if (auction.status === 'ended' && auction.winnerId === userId) result.won.push(entry);
    else if (auction.status === 'awaiting_payment' && auction.winnerId === userId) result.won.push(entry);
    else result.lost.push(entry);
  }
  return result;
}

const filterStatuses: Record<AdminAuctionFilter, Auction['status'][]> = {
  running: ['scheduled', 'running'],
  ended: ['ended'],
  unsold: ['unsold', 'cancelled'],
  awaiting_payment: ['awaiting_payment', 'second_chance'],
};

/** GET /api/admin/auctions?status=: the admin's tab, newest first, with the leader's or buyer's name. */
export function adminAuctions(db: Queryable, filter: AdminAuctionFilter) {
  return db
    .select({ auction: auctions, product: products, leader: users.username })
    .from(auctions)
    .innerJoin(products, eq(products.id, auctions.productId))
    .leftJoin(users, eq(users.id, sql`coalesce(${auctions.winnerId}, ${auctions.leaderId})`))
    .where(inArray(auctions.status, filterStatuses[filter]))
    .orderBy(desc(auctions.id))
    .limit(LIST_LIMIT)
    .all()
    .map(({ auction, product, leader }) => ({ ...adminAuctionView(auction), name: productLabel(product), bidder: leader }));
}
