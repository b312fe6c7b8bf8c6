import { and, desc, eq, gt, inArray, isNull, or } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type Auction, auctions, orders, products } from '../../db/schema.ts';
import { findProfile, streetLine } from '../accounts/profile.ts';
import { productLabel } from '../catalog/catalog.ts';
import { DomainError } from '../errors.ts';
import { owners } from '../inventory/stock.ts';
import { type OrderDeps, paymentSourceFor, placeOrder } from '../orders/orders.ts';
import { totalsFor } from '../../shared/pricing.ts';
import { prizeDeliveryFor } from '../../shared/prize-delivery.ts';
import { LOCAL_ZIP } from '../../shared/schemas/profile.ts';
import { heldVariant, sizeLabelFor } from '../inventory/variants.ts';

/*
 * Charging an auction's buyer (the winner, or the runner-up who took a second-chance offer) to
 * the card on file, through buy-now's own path (orders.ts: claim -> charge -> confirm, the
 * gateway key, the reconciler for lost answers). The order's claim also claims the auction
 * (`inClaim`), in one IMMEDIATE transaction: a second process, a retry or a restart after
 * kill -9 finds the buyer's order there and never charges again.
 */

/** Waiting to be paid: the winner after the end, or the runner-up with an offer. */
export const OWING_STATUSES = ['awaiting_payment', 'second_chance'] as const;
const PAID: (typeof orders.$inferSelect.status)[] = ['processing', 'shipped', 'completed'];

/** What the buyer owes as price: a second chance's offer (the runner-up's maximum), else the final price. */
export function owedPriceCents(auction: Auction): number {
  if (auction.status === 'second_chance' && auction.offerCents !== null) return auction.offerCents;
  return auction.currentPriceCents as number;
}

/** Every order of one buyer for one auction shares this checkout key: one pending at a time. */
export const auctionCheckoutKey = (auctionId: number, buyerId: number) => `auction:${auctionId}:${buyerId}`;

/** The buyer's latest order for the auction, and whether any of theirs was paid. */
export function buyerOrders(db: Queryable, auctionId: number, buyerId: number) {
  const rows = db
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(eq(orders.checkoutKey, auctionCheckoutKey(auctionId, buyerId)))
    .orderBy(desc(orders.id))
    .all();
  return { latest: rows[0], paid: rows.find((row) => PAID.includes(row.status)), attempts: rows.length };
}

/**
 * In the order's claim: the auction still owes this buyer, within the time to pay (checked here, not
 * only before the charge began: the close job's second-chance move may be deciding at the same instant),
 * and nothing of theirs is paid or under way.
 */
function claimAuction(tx: Queryable, auctionId: number, buyerId: number, orderId: number, now: number): void {
  const claimed = tx
    .update(auctions)
    .set({ winnerOrderId: orderId, updatedAt: now })
    .where(
      and(
        eq(auctions.id, auctionId),
        eq(auctions.winnerId, buyerId),
        inArray(auctions.status, [...OWING_STATUSES]),
        or(isNull(auctions.paymentDueAt), gt(auctions.paymentDueAt, now)),
      ),
    )
    .returning({ id: auctions.id })
    .get();
  if (!claimed) throw new DomainError(409, 'This auction has nothing to pay for any more.');
  const { paid } = buyerOrders(tx, auctionId, buyerId);
  if (paid && paid.id !== orderId) throw new DomainError(409, 'This auction is already paid.');
}

/** Why a buyer whose address left the delivery area is not charged, in the words of the refusal and the e-mail. */
export const OUTSIDE_AREA_AT_CLOSE = `Auction items are delivered free within the ${LOCAL_ZIP} area code (Laguna Beach) only, and your delivery address is no longer in ${LOCAL_ZIP}.`;

/**
 * The price covers free local delivery only (the bid was taken on that promise), so a buyer who
 * moved away after bidding is not charged for a delivery the shop cannot make: they are told, as
 * after a decline, and have the same time to put an address in the area back and pay.
 */
export function buyerOutsideArea(db: Queryable, buyerId: number): boolean {
  return prizeDeliveryFor(findProfile(db, buyerId)?.address?.postalCode) !== 'local';
}

/**
 * One charge attempt for the auction's buyer at `priceCents` plus tax, delivered free by the
 * store's local delivery. Resolves to the order id once paid; throws the order path's
 * DomainError otherwise (402 declined, 502 not confirmed yet: the reconciler finishes it).
 */
export async function chargeBuyer(deps: OrderDeps, auction: Auction, buyerId: number, priceCents: number): Promise<number> {
  const { db, clock } = deps;
  const product = db.select().from(products).where(eq(products.id, auction.productId)).get();
  if (!product) throw new DomainError(404, 'Product not found');
  if (buyerOutsideArea(db, buyerId)) {
    throw new DomainError(422, `${OUTSIDE_AREA_AT_CLOSE} Update your address to pay.`, undefined, { code: 'OUTSIDE_LOCAL_DELIVERY' });
  }
  const profile = findProfile(db, buyerId);
  const address = profile?.address;
  return placeOrder(deps, {
    userId: buyerId,
    lines: [
      {
        productId: product.id,
        variantId: heldVariant(auction.variantId),
        sizeLabel: sizeLabelFor(db, product.productType, auction.variantId),
        quantity: 1,
        priceCents,
        purchaseType: 'auction',
        label: productLabel(product),
        stockReserved: true,
        heldBy: owners.auction(auction.id),
      },
    ],
    totals: totalsFor([{ priceCents, quantity: 1 }], 0),
    shippingMethod: 'local',
    address: {
      name: profile?.name ?? '',
      email: profile?.email ?? '',
      phone: profile?.phone ?? '',
      line1: address ? streetLine(address) : '',
      city: address?.city ?? '',
      state: address?.state ?? '',
      postalCode: address?.postalCode ?? '',
      country: address?.country || 'USA',
    },
    payment: { method: 'square', ...paymentSourceFor(db, buyerId, undefined) },
    checkoutKey: auctionCheckoutKey(auction.id, buyerId),
    // Card attempts are limited per address: each auction is its own, so one busy close blocks no other.
    clientAddress: `auction:${auction.id}`,
    inClaim: (tx, orderId) => claimAuction(tx, auction.id, buyerId, orderId, clock.now()),
  });
}
