import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type Auction, auctions, bids, users } from '../../db/schema.ts';
import { centsToDollars, formatUsd } from '../../shared/money.ts';
import type { AdminAuctionFilter } from '../../shared/schemas/auctions.ts';
import { auctionSizeOf, currentAuctionOf } from './auction-rows.ts';
import { incrementAt } from './increments.ts';
import { adminAuctions } from './lists.ts';
import { adminAuctionView, type PublicAuctionStatus, publicStatus } from './views.ts';

/*
 * What only the admin reads of an auction (issue 28, items 1 and 6): the bid history with full
 * usernames, the auction a product's admin page manages, and the Auctions tab's rows with the
 * order an ended auction made. The maximums stay secret here too: the shop never sees how far
 * a bidder would go, so it cannot be tempted to bid against them.
 */

export const ADMIN_HISTORY_LIMIT = 200;

export interface AdminBid {
  id: number;
  username: string;
  amount: number;
  at: number;
  /** Placed by the store for the bidder up to their maximum. */
  proxy: boolean;
}

/** Every bid of an auction, newest first, with the bidder's full username. */
export function adminBidHistory(db: Queryable, auctionId: number): AdminBid[] {
  return db
    .select({ id: bids.id, username: users.username, amountCents: bids.amountCents, at: bids.createdAt, proxy: bids.proxy })
    .from(bids)
    .innerJoin(users, eq(users.id, bids.userId))
    .where(eq(bids.auctionId, auctionId))
    .orderBy(desc(bids.id))
    .limit(ADMIN_HISTORY_LIMIT)
    .all()
    .map((row) => ({ id: row.id, username: row.username, amount: centsToDollars(row.amountCents), at: row.at, proxy: row.proxy }));
}

const usernameOf = (db: Queryable, id: number | null) =>
  id === null ? null : (db.select({ username: users.username }).from(users).where(eq(users.id, id)).get()?.username ?? null);

/** The auction of a product the admin page shows: a named one of that product, else the live one, else the latest. */
export function adminAuctionDetail(db: Queryable, productId: number, now: number, auctionId?: number) {
  const auction: Auction | undefined =
    auctionId === undefined
      ? currentAuctionOf(db, productId)
      : db
          .select()
          .from(auctions)
          .where(and(eq(auctions.id, auctionId), eq(auctions.productId, productId)))
          .get();
  if (!auction) return undefined;
  const price = auction.currentPriceCents;
  return {
    ...adminAuctionView(auction),
    /** The size it sells ('M'), or '' when the product is not sold by size. */
    size: auctionSizeOf(db, auction),
    /** What a shopper sees: the clock decides running or ended before the close job has run. */
    shownStatus: publicStatus(auction, now),
    /** Scheduled or running, and not past its end: the admin may still change, cancel or end it. */
    open: (auction.status === 'scheduled' || auction.status === 'running') && now < auction.endsAt,
    minimumBid: centsToDollars(price === null ? auction.startingBidCents : price + incrementAt(auction.incrementCents, price)),
    reserveMet: auction.reserveCents === null || auction.reserveMet,
    leader: usernameOf(db, auction.leaderId),
    winner: usernameOf(db, auction.winnerId),
    winnerOrderId: auction.winnerOrderId,
    paymentDueAt: auction.paymentDueAt,
    startsAtMs: auction.startsAt,
    endsAtMs: auction.endsAt,
    bids: adminBidHistory(db, auction.id),
  };
}

export type AdminAuctionDetail = NonNullable<ReturnType<typeof adminAuctionDetail>>;

/**
 * The Auctions tab's rows: adminAuctions() with the order an ended auction made, the payment's
 * deadline, and whether it still takes bids (`open`) or is past its end, waiting for the close job.
 */
export function adminAuctionRows(db: Queryable, filter: AdminAuctionFilter, now: number) {
  const rows = adminAuctions(db, filter);
  const ids = rows.map((row) => row.id);
  const extra = new Map(
    ids.length === 0
      ? []
      : db
          .select({ id: auctions.id, winnerOrderId: auctions.winnerOrderId, paymentDueAt: auctions.paymentDueAt, endsAt: auctions.endsAt })
          .from(auctions)
          .where(inArray(auctions.id, ids))
          .all()
          .map((row) => [row.id, row] as const),
  );
  return rows.map((row) => {
    const endsAtMs = extra.get(row.id)?.endsAt ?? Date.parse(row.endsAt);
    const taking = row.status === 'scheduled' || row.status === 'running';
    return {
      ...row,
      winnerOrderId: extra.get(row.id)?.winnerOrderId ?? null,
      paymentDueAt: extra.get(row.id)?.paymentDueAt ?? null,
      endsAtMs,
      open: taking && now < endsAtMs,
      shownStatus: (taking && now >= endsAtMs ? 'ended' : Date.parse(row.startsAt) > now ? 'scheduled' : 'running') as PublicAuctionStatus,
    };
  });
}

export type AdminAuctionRow = ReturnType<typeof adminAuctionRows>[number];

const noteStatus: Record<Auction['status'], string> = {
  scheduled: 'Scheduled',
  running: 'Running',
  awaiting_payment: 'Ended, awaiting payment',
  second_chance: 'Ended, second-chance offer',
  ended: 'Sold',
  unsold: 'Ended unsold',
  cancelled: 'Cancelled',
};

/** The product form's line about the product's auction, or undefined when it never had one. */
export function auctionNoteOf(db: Queryable, productId: number, now: number, formatTime: (ms: number) => string): string | undefined {
  const auction = currentAuctionOf(db, productId);
  if (!auction) return undefined;
  const shown = publicStatus(auction, now);
  const taking = auction.status === 'scheduled' || auction.status === 'running';
  const status = taking ? (shown === 'ended' ? 'Closing' : shown === 'scheduled' ? 'Scheduled' : 'Running') : noteStatus[auction.status];
  const price = auction.currentPriceCents === null ? `from ${formatUsd(auction.startingBidCents)}` : formatUsd(auction.currentPriceCents);
  const bidsText = `${auction.bidCount} bid${auction.bidCount === 1 ? '' : 's'}`;
  return `${status}: ${price}, ${bidsText}, ${taking && shown !== 'ended' ? 'ends' : 'ended'} ${formatTime(auction.endsAt)}`;
}
