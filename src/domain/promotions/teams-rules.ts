import { eq } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { products, type Product, type userProfiles } from '../../db/schema.ts';
import { findProfile, requireCompleteProfile } from '../accounts/profile.ts';
import { productLabel, requireStillSold } from '../catalog/catalog.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { sizeLabelFor } from '../inventory/variants.ts';
import type { PaymentGateway } from '../payments/gateway.ts';
import { prizeDeliveryFor } from '../../shared/prize-delivery.ts';
import { TAX_RATE } from '../../shared/pricing.ts';
import { LOCAL_ZIP } from '../../shared/schemas/profile.ts';

/*
 * The rules of a team buy ('Half price with a friend', issue 29 item 1) that every step shares:
 * each member's share, who may start or join, and the words they read when refused.
 */

export interface TeamDeps {
  db: Db;
  clock: Clock;
  gateway: PaymentGateway;
}

/** Two shoppers: the starter and one friend. */
export const TEAM_SIZE = 2;
/** A friend has this long to join; well inside the card networks' 7 days for a held payment. */
export const TEAM_LIFETIME_MS = 24 * 60 * 60 * 1000;

export const PAYMENT_METHOD_REQUIRED = 'PAYMENT_METHOD_REQUIRED';
export const NOT_A_TEAM_PRODUCT = 'This product cannot be bought with a friend.';
export const TEAM_NOT_FOUND = 'This team does not exist. Check the link you were sent.';
export const OWN_TEAM = 'You cannot join your own team.';
export const ALREADY_IN_TEAM = 'You are already in this team.';
export const TEAM_FULL = 'This team is already full. Start your own team to buy at half price with a friend.';
export const TEAM_EXPIRED = 'This team has expired: nobody joined within 24 hours. Start your own team to buy at half price with a friend.';
export const TEAM_CLOSED = 'This team is closed. Start your own team to buy at half price with a friend.';
export const SOMEONE_JOINING = 'Someone is joining this team right now. Try again in a minute, or start your own team.';
export const TEAM_STARTING = 'This team is still being started. Try again in a minute.';
export const OUTSIDE_AREA = `Local Delivery Only: team buys are delivered free within the ${LOCAL_ZIP} area code (Laguna Beach). Use an address in ${LOCAL_ZIP} in your profile to buy with a friend.`;
export const HOLD_UNCONFIRMED =
  'We could not confirm the hold on your card with the card processor yet. Nothing is charged twice: we will notify you as soon as it is confirmed.';

/**
 * One member's share: half the price, a half cent rounded up (a $24.99 product is $12.50 each,
 * so the shop never gets less than its price), then 8% tax on that half, rounded as checkout
 * rounds (totalsFor). The hold is the two together; delivery is local and free.
 */
export function teamShare(priceCents: number): { priceCents: number; taxCents: number; holdCents: number } {
  const half = Math.ceil(priceCents / 2);
  const tax = Math.round(half * TAX_RATE);
  return { priceCents: half, taxCents: tax, holdCents: half + tax };
}

const BASE32 = 'abcdefghjkmnpqrstuvwxyz23456789';

/** 10 characters from 31 (about 49 bits): a link cannot be guessed from another or from an id. */
export function newTeamCode(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(10)), (byte) => BASE32[byte % BASE32.length]).join('');
}

/** Codes as links carry them: anything else is not a team (and never reaches a query). */
export function isTeamCode(value: string): boolean {
  return /^[a-z2-9]{10}$/.test(value);
}

/** The product a team buys: still sold, ticked for half price with a friend, with a unit left. */
export function teamProduct(db: Queryable, productId: number): Product {
  const product = Number.isSafeInteger(productId) ? db.select().from(products).where(eq(products.id, productId)).get() : undefined;
  if (!product) throw new DomainError(404, 'Product not found');
  requireStillSold(product);
  if (!product.halfPriceEnabled) throw new DomainError(409, NOT_A_TEAM_PRODUCT);
  if (product.quantity <= 0) throw new DomainError(409, 'This product is sold out.');
  return product;
}

/**
 * Who may take a place in a team, checked before anything is written: a card on file (asked
 * first, as for a play: its 402 opens the 'add a card' dialog), a complete profile, and an
 * address in 92651 (the unit is delivered free and locally, as checkout's Buy Now).
 */
export function requireTeamBuyer(deps: { db: Db; clock: Clock }, userId: number): typeof userProfiles.$inferSelect {
  const card = findProfile(deps.db, userId);
  if (!card?.gatewayCardId) {
    throw new DomainError(402, 'Add a payment card to your profile to buy with a friend.', undefined, { code: PAYMENT_METHOD_REQUIRED });
  }
  const profile = requireCompleteProfile(deps.db, deps.clock, userId);
  if (prizeDeliveryFor(profile.address?.postalCode) !== 'local') {
    throw new DomainError(422, OUTSIDE_AREA, undefined, { code: 'OUTSIDE_LOCAL_DELIVERY' });
  }
  return profile;
}

/** The team's item as messages name it: the product, and the team's size when it is sold by size ('Classic Tee in size M'). */
export function teamItemLabel(db: Queryable, product: Product, variantId: number | null): string {
  const size = sizeLabelFor(db, product.productType, variantId);
  return size ? `${productLabel(product)} in size ${size}` : productLabel(product);
}
