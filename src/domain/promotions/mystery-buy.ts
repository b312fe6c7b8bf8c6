import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { mysteryDraws, mysterySeeds, type ProductType } from '../../db/schema.ts';
import { findProfile, profileShippingAddress, requireCompleteProfile } from '../accounts/profile.ts';
import { DomainError } from '../errors.ts';
import type { OrderLine } from '../orders/order-lines.ts';
import { type OrderDeps, paymentSourceFor, placeOrder } from '../orders/orders.ts';
import { PAYMENT_METHOD_REQUIRED } from '../games/entry.ts';
import { LOCAL_ZIP } from '../../shared/schemas/profile.ts';
import { totalsFor } from '../../shared/pricing.ts';
import { boxName, boxState, commitSeed, currentSeed, drawFor, isBoxType, NO_SUCH_BOX, refusalOf } from './mystery-boxes.ts';
import { drawProduct } from './mystery-draw.ts';
import { openSeed } from '../operations/sealed-seeds.ts';
import { sizeLabelOf, variantsOf } from '../inventory/variants.ts';

/*
 * Buying a mystery box: buy-now's own path (orders.ts placeOrder: claim -> charge -> confirm, the
 * gateway key, the reconciler), charged to the card on file, delivered free in 92651. The draw
 * happens in the order's claim (`inClaim`), in its IMMEDIATE transaction: it reads the stock (of
 * the size bought, for tees and shoes), uses the box's committed seed, retires it and commits the
 * next, and the order's line then
 * reserves the drawn unit with the usual conditional UPDATE. So two buyers of the last unit
 * cannot both get it, a declined card puts the unit back (order-charge.ts restocks a box line),
 * and a retry or the reconciler finishes the charge without drawing again.
 */

export const BOX_COMMITMENT_CHANGED =
  'Someone bought this box a moment ago, so its draw now uses a new seed. Check the new commitment and odds, then buy again.';
export const BOX_PRICE_CHANGED = 'The price of this box has just changed. Please check it and buy again.';
export const BOX_LOCAL_ONLY = `Local Delivery Only: mystery boxes are delivered within the ${LOCAL_ZIP} area code (Laguna Beach). Update the address in your profile.`;

/** One box purchase attempt at a time per shopper and box (the order's checkout lock). */
export const boxCheckoutKey = (userId: number, type: ProductType) => `box:${userId}:${type}`;

export interface BuyBoxInput {
  /** The commitment the shopper saw: when sent, the draw must use exactly that seed. */
  seedHash?: string;
  /** The price the shopper saw, in dollars. */
  price?: number;
  /** Tee and shoe boxes: the size bought ('M', '10'); the draw is over that size's units. */
  size?: string;
}

/** In the claim: the draw over the size's units, its seed retired and the next committed, the line pointed at the drawn unit. */
function drawInClaim(tx: Queryable, now: number, type: ProductType, priceCents: number, input: BuyBoxInput, line: OrderLine, orderId: number): void {
  const box = boxState(tx, type);
  const refused = refusalOf(box);
  if (refused) throw refused;
  if (box.priceCents !== priceCents) throw new DomainError(409, BOX_PRICE_CHANGED, undefined, { price: (box.priceCents ?? 0) / 100 });
  // The size's last unit may have gone since the first look: refused naming the sizes still on offer.
  const draw = drawFor(box, input.size);
  const seed = currentSeed(tx, type)!;
  if (input.seedHash !== undefined && input.seedHash !== seed.seedHash) {
    throw new DomainError(409, BOX_COMMITMENT_CHANGED, undefined, { code: 'BOX_COMMITMENT_CHANGED', seedHash: seed.seedHash });
  }
  const plain = openSeed(seed.seed);
  const variantId = drawProduct(plain, orderId, draw.stock)!;
  const item = draw.items.find((candidate) => candidate.variantId === variantId)!;
  // Used, it is revealed (plain) on the order page: it draws nothing else.
  tx.update(mysterySeeds).set({ usedAt: now, seed: plain }).where(eq(mysterySeeds.id, seed.id)).run();
  commitSeed(tx, type, now);
  tx.insert(mysteryDraws)
    .values({
      orderId,
      productType: type,
      seedId: seed.id,
      productId: item.productId,
      variantId,
      size: draw.size,
      productLabel: item.label,
      priceCents,
      // An object, not today's array: verify reads the ids as variant ids (mystery-audit.ts).
      stock: JSON.stringify({ variants: draw.stock }),
      createdAt: now,
    })
    .run();
  line.productId = item.productId;
  line.variantId = variantId;
  line.sizeLabel = sizeLabelOf(type, variantsOf(tx, item.productId).length, item);
  line.label = `${boxName(type)}: ${item.label}`;
}

/** POST /api/mystery-boxes/{type}/orders: resolves to the paid order's id, or throws the order path's refusal. */
export async function buyBox(deps: OrderDeps, userId: number, type: string, input: BuyBoxInput, clientAddress: string): Promise<{ orderId: number }> {
  const { db, clock } = deps;
  if (!isBoxType(type)) throw new DomainError(404, NO_SUCH_BOX);
  const box = boxState(db, type);
  const refused = refusalOf(box);
  if (refused) throw refused;
  drawFor(box, input.size);
  const priceCents = box.priceCents!;
  if (input.price !== undefined && Math.round(input.price * 100) !== priceCents) {
    throw new DomainError(409, BOX_PRICE_CHANGED, undefined, { price: priceCents / 100 });
  }
  // A card is asked for first: the page opens its payment-method dialog on this 402.
  if (!findProfile(db, userId)?.gatewayCardId) {
    throw new DomainError(402, 'Add a payment card to your profile to buy a mystery box.', undefined, { code: PAYMENT_METHOD_REQUIRED });
  }
  const profile = requireCompleteProfile(db, clock, userId);
  const address = profile.address!;
  if (address.postalCode.trim().slice(0, 5) !== LOCAL_ZIP) throw new DomainError(400, BOX_LOCAL_ONLY, { zipCode: BOX_LOCAL_ONLY });

  // Filled in by the draw, in the claim's transaction, before the line is written.
  const line: OrderLine = {
    productId: 0,
    variantId: 0,
    sizeLabel: '',
    quantity: 1,
    priceCents,
    purchaseType: 'mystery_box',
    label: boxName(type),
    stockReserved: false,
  };
  const orderId = await placeOrder(deps, {
    userId,
    lines: [line],
    totals: totalsFor([{ priceCents, quantity: 1 }], 0),
    shippingMethod: 'local',
    address: profileShippingAddress(profile, address),
    payment: { method: 'square', ...paymentSourceFor(db, userId, undefined) },
    checkoutKey: boxCheckoutKey(userId, type),
    clientAddress,
    inClaim: (tx, id) => drawInClaim(tx, clock.now(), type, priceCents, input, line, id),
  });
  return { orderId };
}
