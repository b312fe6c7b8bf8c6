import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { type Auction, auctions, products } from '../../db/schema.ts';
import { productLabel, requireStillSold } from '../catalog/catalog.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { owners, release, reserve } from '../inventory/stock.ts';
import { chooseVariant, sizeLabelFor } from '../inventory/variants.ts';
import { auctionItemLabel, biddersOf, liveAuctionOf, OPEN_STATUSES, openAuctionOf, releaseStock } from './auction-rows.ts';
import { checkAuctionSetup } from './increments.ts';
import { tellEndedByShop } from './messages.ts';

/*
 * The admin's side of an auction (issue 28, item 1): set it up (or change it before its first
 * bid), cancel it while nobody has bid, or end it early with a reason the bidders are told.
 * The auction sells one unit of one size (issue 38): the admin names the size when the product
 * has several, and that size's unit is held back from the shelf from set-up until it is over.
 */

export interface AuctionDeps {
  db: Db;
  clock: Clock;
}

export const BID_NOT_ENABLED = 'Auctions are off for this product: turn on Bid in its form first.';
export const NO_OPEN_AUCTION = 'This product has no auction running.';
const HAS_BIDS_NO_CHANGE = 'This auction already has bids: it can be ended early, not changed.';
const HAS_BIDS_NO_CANCEL = 'This auction already has bids: end it early with a reason instead.';

function auctionProduct(db: Db, productId: number) {
  const product = db.select().from(products).where(eq(products.id, productId)).get();
  if (!product) throw new DomainError(404, 'Product not found');
  return product;
}

/** PUT /api/admin/products/{id}/auction: a new auction, or new terms for one nobody has bid in yet. */
export function setUpAuction(deps: AuctionDeps, productId: number, input: unknown): Auction {
  const { db, clock } = deps;
  const now = clock.now();
  const checked = checkAuctionSetup(input, now);
  if (!checked.ok) throw new DomainError(400, checked.message, checked.fields);
  const { setup } = checked;
  return db.transaction((tx) => {
    const product = auctionProduct(db, productId);
    requireStillSold(product);
    if (!product.bidEnabled) throw new DomainError(409, BID_NOT_ENABLED, { bidEnabled: BID_NOT_ENABLED });
    const terms = {
      startingBidCents: setup.startingBidCents,
      incrementCents: setup.incrementCents,
      reserveCents: setup.reserveCents,
      startsAt: setup.startsAt,
      endsAt: setup.endsAt,
      scheduledEndAt: setup.endsAt,
      keepBuyNow: setup.keepBuyNow,
      status: setup.startsAt > now ? ('scheduled' as const) : ('running' as const),
      updatedAt: now,
    };
    const open = liveAuctionOf(tx, productId);
    if (open && (open.bidCount > 0 || open.status === 'awaiting_payment' || open.status === 'second_chance')) throw new DomainError(409, HAS_BIDS_NO_CHANGE);
    // Changing an auction keeps its size unless another is named; a new one must name it when there are several.
    const variant = chooseVariant(tx, productId, setup.variantId ?? open?.variantId, 'variantId');
    const holdSize = (auctionId: number) => {
      // A refusal undoes the whole transaction: the insert, or the old size's release.
      if (reserve(tx, { productId, variantId: variant.id, quantity: 1, reason: 'auction', owner: owners.auction(auctionId), now })) return;
      const size = sizeLabelFor(tx, product.productType, variant.id);
      const message = `${productLabel(product)}${size ? ` in size ${size}` : ''} is sold out: an auction needs one in stock.`;
      throw new DomainError(409, message, size ? { variantId: message } : undefined);
    };
    if (open) {
      if (open.variantId !== variant.id && open.stockReserved) {
        // Nobody has bid: the hold moves to the new size (the old unit back on its shelf first).
        release(tx, owners.auction(open.id), now);
        holdSize(open.id);
      }
      return tx
        .update(auctions)
        .set({ ...terms, variantId: variant.id })
        .where(eq(auctions.id, open.id))
        .returning()
        .get();
    }
    const created = tx
      .insert(auctions)
      .values({ productId, variantId: variant.id, ...terms, stockReserved: true, createdAt: now })
      .returning()
      .get();
    // The unit the auction sells leaves the shelf now, so Buy Now cannot sell it twice.
    holdSize(created.id);
    return created;
  });
}

function requireOpen(db: Db, productId: number): Auction {
  auctionProduct(db, productId);
  const open = openAuctionOf(db, productId);
  if (!open) throw new DomainError(409, NO_OPEN_AUCTION);
  return open;
}

/** Cancels an auction nobody has bid in: it never happened, and its unit is back on the shelf. */
export function cancelAuction(deps: AuctionDeps, productId: number, reason: string | undefined): Auction {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const open = requireOpen(db, productId);
    if (open.bidCount > 0) throw new DomainError(409, HAS_BIDS_NO_CANCEL);
    const now = clock.now();
    const cancelled = tx
      .update(auctions)
      .set({ status: 'cancelled', reason: reason ?? null, updatedAt: now })
      .where(eq(auctions.id, open.id))
      .returning()
      .get();
    releaseStock(tx, cancelled, now);
    return cancelled;
  });
}

/**
 * Ends an auction now, with a reason every bidder is told. With no bids it is simply unsold; with
 * bids its end moves to now and the close job settles it as if the clock had run out.
 */
export function endAuctionEarly(deps: AuctionDeps, productId: number, reason: string): Auction {
  const { db, clock } = deps;
  return db.transaction((tx) => {
    const open = requireOpen(db, productId);
    const now = clock.now();
    if (open.endsAt <= now) throw new DomainError(409, 'This auction has already ended.');
    if (open.bidCount === 0) {
      const unsold = tx.update(auctions).set({ status: 'unsold', endsAt: now, reason, updatedAt: now }).where(eq(auctions.id, open.id)).returning().get();
      releaseStock(tx, unsold, now);
      return unsold;
    }
    const ended = tx
      .update(auctions)
      .set({ status: 'running', endsAt: Math.min(open.endsAt, now), reason, updatedAt: now })
      .where(eq(auctions.id, open.id))
      .returning()
      .get();
    const product = auctionProduct(db, productId);
    tellEndedByShop(tx, clock, biddersOf(tx, open.id), open, auctionItemLabel(tx, product, open.variantId), reason);
    return ended;
  });
}

/** What the bidders of an auction withdrawn with its product read (after 'The shop ended the auction for X early: '). */
export const WITHDRAWN_REASON = 'the item was withdrawn from sale, so nobody wins it and nobody is charged.';

/**
 * A sale is being settled: the auction is past its end (the close job decides its winner and
 * charges them) or its winner owes the price. Such an auction is not withdrawn.
 */
export function auctionSettling(auction: Auction, now: number): boolean {
  return auction.status === 'awaiting_payment' || auction.status === 'second_chance' || (OPEN_STATUSES.includes(auction.status) && auction.endsAt <= now);
}

/**
 * Withdraws an open auction whose product leaves the shop (flows/end-product.ts), in the caller's
 * transaction: cancelled whatever its bids (no card is charged before the close, so no money
 * moves), its unit back on the shelf, every bidder told. Only before its end: false when the
 * auction was already past it or over, which the caller refuses.
 */
export function withdrawAuctionIn(tx: Queryable, clock: Clock, auction: Auction, label: string): boolean {
  const now = clock.now();
  const cancelled = tx
    .update(auctions)
    .set({ status: 'cancelled', reason: 'Withdrawn from sale with its product.', updatedAt: now })
    .where(and(eq(auctions.id, auction.id), inArray(auctions.status, OPEN_STATUSES), gt(auctions.endsAt, now)))
    .returning()
    .get();
  if (!cancelled) return false;
  releaseStock(tx, cancelled, now);
  tellEndedByShop(tx, clock, biddersOf(tx, auction.id), cancelled, label, WITHDRAWN_REASON);
  return true;
}
