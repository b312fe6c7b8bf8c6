import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { playerSettings, userProfiles } from '../../src/db/schema.ts';
import type { Clock } from '../../src/domain/clock.ts';

/** Personal details that pass every profile rule of spec section 5. */
export const COMPLETE_PROFILE = {
  name: 'Lena Ocean',
  email: 'lena@example.com',
  phone: '949-555-0123',
  address: { line1: '123 Coast Hwy', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
};

/**
 * Gives a user a complete profile with a Visa on file at the built-in test gateway, straight in
 * the database: buying and playing need one (the profile rule holds on every API path). The
 * card id carries its outcome, so the test gateway accepts it without a save call.
 */
export function completeProfile(ctx: { db: Db; clock: Clock }, userId: number): void {
  const now = ctx.clock.now();
  const values = {
    name: COMPLETE_PROFILE.name,
    email: COMPLETE_PROFILE.email,
    phone: COMPLETE_PROFILE.phone,
    address: COMPLETE_PROFILE.address,
    paymentMethod: { type: 'card', cardBrand: 'VISA', lastFourDigits: '1111', expMonth: 12, expYear: 2030 },
    gatewayCustomerId: `test-cust-user${userId}`,
    gatewayCardId: `ccof:test-user${userId}.ok.VISA.1111.12.2030`,
    updatedAt: now,
  };
  ctx.db
    .insert(userProfiles)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: userProfiles.userId, set: values })
    .run();
}

/**
 * The player has confirmed they are 18 or older and accepted the official rules, straight in the
 * database: every play and payment needs that consent (responsible play), and most tests are about
 * something else. Keeps an earlier consent's time, and any limit or exclusion, as they are.
 */
export function giveConsent(ctx: { db: Db; clock: Clock }, userId: number): void {
  const now = ctx.clock.now();
  ctx.db
    .insert(playerSettings)
    .values({ userId, consentedAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: playerSettings.userId, set: { consentedAt: sql`coalesce(${playerSettings.consentedAt}, ${now})`, updatedAt: now } })
    .run();
}

/** The body the single-product checkout page sends (spec section 7) for one unit at `priceCents`, local delivery. */
export function buyNowBody(productId: number, priceCents: number) {
  const tax = Math.round(priceCents * 0.08);
  return {
    productId,
    quantity: 1,
    subtotal: priceCents / 100,
    shipping: 0,
    tax: tax / 100,
    total: (priceCents + tax) / 100,
    shippingMethod: 'local',
    customerInfo: {
      name: COMPLETE_PROFILE.name,
      email: COMPLETE_PROFILE.email,
      phone: COMPLETE_PROFILE.phone,
      address: { line1: COMPLETE_PROFILE.address.line1, city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
    },
    paymentMethod: 'square',
  };
}
