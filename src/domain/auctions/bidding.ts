import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { auctionMaximums, auctions, bids, products } from '../../db/schema.ts';
import { findProfile, requireCompleteProfile } from '../accounts/profile.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { PAYMENT_METHOD_REQUIRED } from '../games/entry.ts';
import { centsToDollars } from '../../shared/money.ts';
import { prizeDeliveryFor } from '../../shared/prize-delivery.ts';
import { LOCAL_ZIP } from '../../shared/schemas/profile.ts';
import { auctionItemLabel, openAuctionOf, rulesOf, standingNow } from './auction-rows.ts';
import { NO_OPEN_AUCTION } from './admin.ts';
import { tellOutbid } from './messages.ts';
import { checkBidInput, decideBid, softCloseEnd } from './proxy.ts';
import { requireNoUnpaidStrikes } from './strikes.ts';

/*
 * POST /api/products/{id}/bids (issue 28, items 2, 3 and 7). The decision is proxy.ts's; this
 * file makes it safe: one IMMEDIATE transaction reads the standing the auction row keeps, decides,
 * and writes the maximum, the history rows, the new standing and end, and the outbid message,
 * so two processes bidding at the same instant are put in order and no bid is lost.
 */

export interface BidDeps {
  db: Db;
  clock: Clock;
}

export interface Bidder {
  id: number;
  isAdmin: boolean;
}

export interface BidResult {
  auctionId: number;
  leading: boolean;
  currentPrice: number;
  bidCount: number;
  endsAt: string;
  reserveMet: boolean;
}

export const NOT_STARTED = 'This auction has not started yet.';
export const OUTSIDE_AREA = `Local Delivery Only: auction items are delivered free within the ${LOCAL_ZIP} area code (Laguna Beach). Bid with an address in ${LOCAL_ZIP}.`;
export const ENDED = 'This auction has ended.';

/** A card on file is needed to bid: the winner is charged to it at the end. */
function requireCardToBid(db: Db, userId: number): void {
  if (findProfile(db, userId)?.gatewayCardId) return;
  throw new DomainError(402, 'Add a payment card to your profile to bid.', undefined, { code: PAYMENT_METHOD_REQUIRED });
}

/* A bid's writes, built once (db/prepared.ts); reserveMet goes in with its column's encoding. */
const insertMaximum = preparedOnce((db) =>
  db
    .insert(auctionMaximums)
    .values({
      auctionId: sql.placeholder('auctionId'),
      userId: sql.placeholder('userId'),
      maxCents: sql.placeholder('maxCents'),
      createdAt: sql.placeholder('createdAt'),
    })
    .prepare(),
);
const insertBid = preparedOnce((db) =>
  db
    .insert(bids)
    .values({
      productId: sql.placeholder('productId'),
      auctionId: sql.placeholder('auctionId'),
      userId: sql.placeholder('userId'),
      amountCents: sql.placeholder('amountCents'),
      proxy: sql.placeholder('proxy'),
      createdAt: sql.placeholder('createdAt'),
    })
    .returning({ id: bids.id })
    .prepare(),
);
const updateStanding = preparedOnce((db) =>
  db
    .update(auctions)
    .set({
      status: 'running',
      leaderId: sql`${sql.placeholder('leaderId')}`,
      leaderMaxCents: sql`${sql.placeholder('leaderMaxCents')}`,
      currentPriceCents: sql`${sql.placeholder('currentPriceCents')}`,
      reserveMet: sql`${sql.placeholder('reserveMet')}`,
      bidCount: sql`${auctions.bidCount} + ${sql.placeholder('newBids')}`,
      endsAt: sql`${sql.placeholder('endsAt')}`,
      updatedAt: sql`${sql.placeholder('now')}`,
    })
    .where(eq(auctions.id, sql.placeholder('id')))
    .returning()
    .prepare(),
);

export function bid(deps: BidDeps, bidder: Bidder, productId: number, maxAmount: unknown): BidResult {
  const { db, clock } = deps;
  const product = db.select().from(products).where(eq(products.id, productId)).get();
  if (!product) throw new DomainError(404, 'Product not found');
  const input = checkBidInput(maxAmount, bidder);
  if (!input.ok) throw new DomainError(input.status, input.message, input.fields);
  // Two unpaid auctions in 12 months: no more bids (issue 36), before anything else is asked of them.
  requireNoUnpaidStrikes(db, bidder.id, clock.now());
  // The card first, as for a play: its refusal opens the panel's 'add a card' dialog.
  requireCardToBid(db, bidder.id);
  const profile = requireCompleteProfile(db, clock, bidder.id);
  // The winner is charged for free local delivery, as Buy Now is: a bidder must be able to receive it.
  if (prizeDeliveryFor(profile.address?.postalCode) !== 'local') {
    throw new DomainError(422, OUTSIDE_AREA, { maxAmount: OUTSIDE_AREA }, { code: 'OUTSIDE_LOCAL_DELIVERY' });
  }

  return db.transaction((tx) => {
    // The server's clock, read under the write lock: the order of bids is the order of commits.
    const now = clock.now();
    const auction = openAuctionOf(tx, productId);
    if (!auction || product.archivedAt !== null) throw new DomainError(409, NO_OPEN_AUCTION);
    if (now < auction.startsAt) throw new DomainError(409, NOT_STARTED);
    if (now >= auction.endsAt) throw new DomainError(409, ENDED);

    // The standing the row keeps, not a replay of every maximum: a bid costs the same at the 10,000th.
    const decision = decideBid(rulesOf(auction), standingNow(tx, auction), { bidderId: bidder.id, maxCents: input.maxCents, at: now });
    if (!decision.accepted) {
      throw new DomainError(409, decision.message, decision.fields, { minimumBid: centsToDollars(decision.minimumCents) });
    }

    insertMaximum(tx).run({ auctionId: auction.id, userId: bidder.id, maxCents: input.maxCents, createdAt: now });
    let lastBidId = 0;
    for (const row of decision.rows) {
      const written = insertBid(tx).get({
        productId,
        auctionId: auction.id,
        userId: row.bidderId,
        amountCents: row.amountCents,
        proxy: row.proxy,
        createdAt: now,
      })!;
      lastBidId = written.id;
    }
    const endsAt = softCloseEnd(auction.endsAt, now, decision.priceChanged || decision.leaderChanged);
    const updated = updateStanding(tx).get({
      id: auction.id,
      leaderId: decision.leaderId,
      leaderMaxCents: decision.leaderMaxCents,
      currentPriceCents: decision.priceCents,
      reserveMet: auctions.reserveMet.mapToDriverValue(decision.reserveMet),
      newBids: decision.rows.length,
      endsAt,
      now,
    })!;

    const overtaken = auction.leaderId;
    if (decision.leaderChanged && overtaken !== null && overtaken !== decision.leaderId) {
      tellOutbid(tx, clock, overtaken, auction, auctionItemLabel(tx, product, auction.variantId), decision.priceCents, lastBidId);
    }
    return {
      auctionId: auction.id,
      leading: decision.leaderId === bidder.id,
      currentPrice: centsToDollars(decision.priceCents),
      bidCount: updated.bidCount,
      endsAt: new Date(updated.endsAt).toISOString(),
      reserveMet: decision.reserveMet,
    };
  });
}
