import { and, asc, desc, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { type Auction, auctionMaximums, auctions, products, users } from '../../db/schema.ts';
import { resolveImageUrl } from '../catalog/catalog.ts';
import { winners } from '../games/views.ts';
import { centsToDollars } from '../../shared/money.ts';
import type { AdminAuctionFilter } from '../../shared/schemas/auctions.ts';
import { auctionItemLabels, LIVE_STATUSES, OPEN_STATUSES } from './auction-rows.ts';
import { OWING_STATUSES } from './payment.ts';
import { incrementAt } from './increments.ts';
import { maskBidderName } from './proxy.ts';
import { adminAuctionView, publicStatus } from './views.ts';

/*
 * The lists the pages will read (issue 28, item 6): running auctions ending soonest first
 * (/auctions), a bidder's auctions (the profile's Bids tab), and the admin's Auctions tab.
 */

const LIST_LIMIT = 100;

function line(auction: Auction, product: typeof products.$inferSelect, name: string) {
  const price = auction.currentPriceCents;
  return {
    productId: product.id,
    name,
    productType: product.productType,
    imageUrl: resolveImageUrl(product.imageUrl, product.productType),
    currentPrice: price === null ? null : centsToDollars(price),
    minimumBid: centsToDollars(price === null ? auction.startingBidCents : price + incrementAt(auction.incrementCents, price)),
    bidCount: auction.bidCount,
    endsAt: new Date(auction.endsAt).toISOString(),
  };
}

/** GET /api/auctions: every auction taking bids now, the one ending soonest first. */
export function runningAuctions(db: Queryable, now: number) {
  const rows = runningAuctionsQuery(db).all({ now });
  const names = auctionItemLabels(db, rows);
  return rows.map(({ auction, product }) => line(auction, product, names.get(auction.id)!));
}

// The /auctions page reads it on every visit: built once (db/prepared.ts). The clock is bound as
// `cast(? as integer)`: compared bare in a join, each new value would make SQLite compile the
// statement again (see accounts/sessions.ts).
const runningAuctionsQuery = preparedOnce((db) => {
  const now = sql`cast(${sql.placeholder('now')} as integer)`;
  return db
    .select({ auction: auctions, product: products })
    .from(auctions)
    .innerJoin(products, eq(products.id, auctions.productId))
    .where(and(inArray(auctions.status, OPEN_STATUSES), lte(auctions.startsAt, now), gt(auctions.endsAt, now)))
    .orderBy(asc(auctions.endsAt))
    .limit(LIST_LIMIT)
    .prepare();
});

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
  type Entry = ReturnType<typeof bidEntry>;
  const result = { active: [] as Entry[], won: [] as Entry[], lost: [] as Entry[] };
  const names = auctionItemLabels(db, rows);
  for (const { auction, product } of rows) {
    const entry = bidEntry(auction, product, names.get(auction.id)!, userId, now);
    if (entry.status === 'running' || entry.status === 'scheduled') result.active.push(entry);
    else if (auction.winnerId === userId && (auction.status === 'ended' || entry.awaitingPayment)) result.won.push(entry);
    else result.lost.push(entry);
  }
  return result;
}

/** One auction as its bidder's list shows it: won ones with their order once paid, or what is due and by when. */
function bidEntry(auction: Auction, product: typeof products.$inferSelect, name: string, userId: number, now: number) {
  const mine = auction.winnerId === userId;
  return {
    ...line(auction, product, name),
    auctionId: auction.id,
    leading: auction.leaderId === userId,
    status: publicStatus(auction, now),
    /** The paid order of the auction this bidder won. */
    orderId: mine && auction.status === 'ended' ? auction.winnerOrderId : null,
    /** Won (or offered as the runner-up) and not paid yet: the product page takes the payment. */
    awaitingPayment: mine && (OWING_STATUSES as readonly string[]).includes(auction.status),
    paymentDueAt: mine && auction.paymentDueAt !== null ? new Date(auction.paymentDueAt).toISOString() : null,
  };
}

const filterStatuses: Record<AdminAuctionFilter, Auction['status'][]> = {
  running: ['scheduled', 'running'],
  ended: ['ended'],
  unsold: ['unsold', 'cancelled'],
  awaiting_payment: ['awaiting_payment', 'second_chance'],
};

/** GET /api/admin/auctions?status=: the admin's tab, newest first, with the leader's or buyer's name. */
export function adminAuctions(db: Queryable, filter: AdminAuctionFilter) {
  const rows = db
    .select({ auction: auctions, product: products, leader: users.username })
    .from(auctions)
    .innerJoin(products, eq(products.id, auctions.productId))
    .leftJoin(users, eq(users.id, sql`coalesce(${auctions.winnerId}, ${auctions.leaderId})`))
    .where(inArray(auctions.status, filterStatuses[filter]))
    .orderBy(desc(auctions.id))
    .limit(LIST_LIMIT)
    .all();
  const names = auctionItemLabels(db, rows);
  return rows.map(({ auction, leader }) => ({ ...adminAuctionView(auction), name: names.get(auction.id)!, bidder: leader }));
}

// Every grid asks, for a different list of products each time: one statement built once
// (db/prepared.ts), its ids bound as one JSON array (an IN list of `?` would be a new statement per length).
const liveAuctionsOf = preparedOnce((db) =>
  db
    .select()
    .from(auctions)
    .where(and(sql`${auctions.productId} in (select value from json_each(${sql.placeholder('ids')}))`, inArray(auctions.status, LIVE_STATUSES)))
    .prepare(),
);

/** What a product card needs of the auction a listed product has (none over, none cancelled). */
export interface CardAuction {
  productId: number;
  /** running/scheduled by the clock; closing: past its end, or waiting on its buyer (no Bid, no Buy Now). */
  status: 'running' | 'scheduled' | 'closing';
  /** The current price, or the starting bid before any bid. */
  price: number;
  bidCount: number;
  endsAt: number;
}

/**
 * The auctions not over of the listed products, in one statement (a grid never asks per card),
 * by product. Read by the product index (auctions_product_idx): a product has few auctions.
 */
export function liveAuctionsFor(db: Queryable, productIds: readonly number[], now: number): Map<number, CardAuction> {
  return cardAuctions(liveAuctionRows(db, productIds), now);
}

/** The rows liveAuctionsFor reads: what the database says, before the clock says what shows (a page may keep them per storefront version). */
export function liveAuctionRows(db: Queryable, productIds: readonly number[]): Auction[] {
  return productIds.length === 0 ? [] : liveAuctionsOf(db).all({ ids: JSON.stringify(productIds) });
}

/** Those rows as the cards show them at `now`. */
export function cardAuctions(rows: readonly Auction[], now: number): Map<number, CardAuction> {
  return new Map(
    rows.map((auction) => {
      const shown = publicStatus(auction, now);
      return [
        auction.productId,
        {
          productId: auction.productId,
          status: shown === 'running' || shown === 'scheduled' ? shown : 'closing',
          price: centsToDollars(auction.currentPriceCents ?? auction.startingBidCents),
          bidCount: auction.bidCount,
          endsAt: auction.endsAt,
        },
      ];
    }),
  );
}

export type CardOffer = 'Buy Now' | 'Bid' | 'Bet';

/**
 * The options a product card may promise (issue 28, item 6): Buy Now when enabled and in stock
 * with no auction standing in its way, Bid with an auction taking bids or about to, Bet when a
 * game can be joined. Buy Now beside a running auction is the product page's to offer: the card
 * of a running auction says Bid alone.
 */
export function cardOffers(product: { buyNowEnabled: boolean; quantity: number }, auction: CardAuction | undefined, playable: boolean): CardOffer[] {
  const offers: CardOffer[] = [];
  if (product.buyNowEnabled && product.quantity > 0 && auction === undefined) offers.push('Buy Now');
  if (auction && auction.status !== 'closing') offers.push('Bid');
  if (playable) offers.push('Bet');
  return offers;
}

/**
 * When the listings' auction cards change by the clock alone: every start and end of the
 * auctions not over, sorted. Read once per storefront version (a bid, a new auction or a close
 * moves the version through its trigger, migration 0025), so a cached listing's key is worked
 * out from these with no query (http/page-cache-clock.ts).
 */
export function liveAuctionMoments(db: Queryable): number[] {
  return db
    .select({ startsAt: auctions.startsAt, endsAt: auctions.endsAt })
    .from(auctions)
    .where(inArray(auctions.status, LIVE_STATUSES))
    .all()
    .flatMap((row) => [row.startsAt, row.endsAt])
    .sort((a, b) => a - b);
}

/** The auctions won and paid for, newest first: the scoreboard's Winners list them beside the games. */
export function auctionWinners(db: Queryable, limit = 30) {
  const rows = db
    .select({ auction: auctions, product: products, username: users.username })
    .from(auctions)
    .innerJoin(products, eq(products.id, auctions.productId))
    .innerJoin(users, eq(users.id, auctions.winnerId))
    .where(and(eq(auctions.status, 'ended'), isNotNull(auctions.winnerOrderId)))
    .orderBy(desc(auctions.endsAt))
    .limit(limit)
    .all();
  const names = auctionItemLabels(db, rows);
  return rows.map(({ auction, product, username }) => ({
    kind: 'auction' as const,
    auctionId: auction.id,
    productId: product.id,
    // Public: masked as the bid history masks the same bidder (issue 37 item 9).
    username: maskBidderName(username),
    productName: names.get(auction.id)!,
    productType: product.productType,
    imageUrl: resolveImageUrl(product.imageUrl, product.productType),
    price: centsToDollars(auction.currentPriceCents ?? auction.startingBidCents),
    date: auction.endsAt,
  }));
}

/** GET /api/games/winners and the scoreboard's Winners: settled games and won auctions, newest first. */
export function winnersWithAuctions(db: Queryable, limit = 30) {
  const games = winners(db, limit).map((winner) => ({ kind: 'game' as const, ...winner }));
  return [...games, ...auctionWinners(db, limit)].sort((a, b) => (b.date ?? 0) - (a.date ?? 0)).slice(0, limit);
}

export type WinnerEntry = ReturnType<typeof winnersWithAuctions>[number];
