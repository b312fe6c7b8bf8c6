import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { auctions } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import { LIVE_STATUSES, OPEN_STATUSES, openAuctionOf, releaseStock } from './auction-rows.ts';

/*
 * Buy Now beside an auction (issue 28, items 1 and 6): while a product has an auction not over,
 * Buy Now is offered only when the admin kept it and nobody has bid. Buying then ends the
 * auction, in the order's own claim, so a bid and a purchase at the same instant cannot both win.
 */

export const AUCTION_RUNNING = 'This product is being auctioned: place a bid instead.';
export const BUY_NOW_GONE = 'Someone has just bid on this product, so Buy Now is no longer offered: place a bid instead.';
/** Names the refusals above for the checkout: it sends the shopper to the bid form instead of saying 'Payment Failed'. */
export const BIDDING_INSTEAD = 'BIDDING_INSTEAD';
const bidInstead = (message: string) => new DomainError(409, message, undefined, { code: BIDDING_INSTEAD });
/** The cart cannot end an auction (only Buy Now's own claim does): the held unit is bid on, or bought with Buy Now. */
export const AUCTION_HOLDS_UNIT = 'This product is being auctioned: place a bid, or use Buy Now on its page.';

/**
 * How Buy Now may sell the product now: 'shelf' (no auction, or one beside units still on the
 * shelf), 'auction' (the unit held for an auction nobody has bid in: buying ends it), or a 409.
 */
export function buyNowStance(db: Queryable, productId: number, onShelf: number, now: number): 'shelf' | 'auction' {
  const live = liveAuctionOf(db).get({ productId });
  if (!live) return 'shelf';
  const open = OPEN_STATUSES.includes(live.status) && now >= live.startsAt && now < live.endsAt;
  if (!open || !live.keepBuyNow) throw bidInstead(AUCTION_RUNNING);
  if (live.bidCount > 0) throw bidInstead(BUY_NOW_GONE);
  return onShelf > 0 ? 'shelf' : 'auction';
}

// Every Buy Now, add to cart and checkout asks: built once (db/prepared.ts).
const liveAuctionOf = preparedOnce((db) =>
  db
    .select()
    .from(auctions)
    .where(and(eq(auctions.productId, sql.placeholder('productId')), inArray(auctions.status, LIVE_STATUSES)))
    .prepare(),
);

/**
 * What the checkout page says before anyone presses Pay: whether Buy Now would sell the unit the
 * auction holds (the shelf may be empty and the product still for sale), or why it would refuse.
 */
export function buyNowOutlook(db: Queryable, productId: number, onShelf: number, now: number): { heldUnit: boolean; refusal: string | null } {
  try {
    return { heldUnit: buyNowStance(db, productId, onShelf, now) === 'auction', refusal: null };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { heldUnit: false, refusal: error.message };
  }
}

/** In Buy Now's claim: the auction is cancelled ('Bought with Buy Now') and its unit handed to the order; refused if a bid came first. */
export function endAuctionForBuyNow(tx: Queryable, productId: number, now: number): void {
  const open = openAuctionOf(tx, productId);
  const ended = open
    ? tx
        .update(auctions)
        .set({ status: 'cancelled', reason: 'Bought with Buy Now', updatedAt: now })
        .where(and(eq(auctions.id, open.id), eq(auctions.bidCount, 0), inArray(auctions.status, OPEN_STATUSES)))
        .returning()
        .get()
    : undefined;
  if (!ended) throw bidInstead(BUY_NOW_GONE);
  releaseStock(tx, ended, now);
}

/**
 * The cart's side of the same stance (issue 28): a product with a live auction goes in a cart,
 * and out of it at checkout, only as Buy Now would sell it from the shelf. The held unit itself
 * is never sold through the cart, because only Buy Now's claim ends the auction with it.
 */
export function requireShelfSale(db: Queryable, productId: number, onShelf: number, now: number): void {
  if (buyNowStance(db, productId, onShelf, now) === 'auction') throw new DomainError(409, AUCTION_HOLDS_UNIT);
}
