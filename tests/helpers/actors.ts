import { expect } from 'bun:test';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { playerSettings, userProfiles, users } from '../../src/db/schema.ts';
import { bootstrapAdmin } from '../../src/domain/accounts/bootstrap-admin.ts';
import type { Clock } from '../../src/domain/clock.ts';
import { createSession, generateSessionToken } from '../../src/domain/accounts/sessions.ts';
import { TEST_PIN, type testApp, type TestClient } from './app.ts';

/*
 * The people of the tests, made one way each: a shopper who registered through the API, a
 * shopper made straight in the database (no sign-up to go through), the bootstrap admin with
 * and without the PIN; and what they may need (a complete profile, play consent, a buy-now body).
 */

type AppCtx = Awaited<ReturnType<typeof testApp>>;

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

/** A shopper who signed up through POST /api/register and is signed in; a complete profile with a card unless told otherwise. */
export async function shopper(
  ctx: AppCtx,
  username = 'shopper1',
  { withProfile = true, password = 'secret-pass' }: { withProfile?: boolean; password?: string } = {},
): Promise<{ client: TestClient; id: number }> {
  const client = ctx.client();
  const response = await client.post('/api/register', { json: { username, password } });
  expect(response.status).toBe(201);
  const { id } = (await response.json()) as { id: number };
  if (withProfile) completeProfile(ctx, id);
  return { client, id };
}

/** A signed-in user made straight in the users and sessions tables: no password to hash, no sign-up to go through. */
export function signedInUser(ctx: { db: Db; clock: Clock; client(): TestClient }, username: string): { client: TestClient; id: number } {
  const user = ctx.db.insert(users).values({ username, passwordHash: 'unused', createdAt: ctx.clock.now() }).returning().get();
  const token = generateSessionToken();
  createSession(ctx.db, ctx.clock, token, user.id);
  const client = ctx.client();
  client.cookies.set('csa_session', token);
  return { client, id: user.id };
}

/** signedInUser with a complete profile and a card: ready to buy. */
export function quickShopper(ctx: AppCtx, username: string): { client: TestClient; id: number } {
  const made = signedInUser(ctx, username);
  completeProfile(ctx, made.id);
  return made;
}

/** The bootstrap admin (made now if it is not there yet), signed in, before the PIN. */
export async function adminWithoutPin(ctx: AppCtx): Promise<TestClient> {
  await bootstrapAdmin(ctx);
  const admin = ctx.client();
  expect((await admin.post('/api/login', { json: { username: 'admin', password: 'admin-secret' } })).status).toBe(200);
  return admin;
}

/** The bootstrap admin, signed in, with the PIN passed. */
export async function adminWithPin(ctx: AppCtx): Promise<TestClient> {
  const admin = await adminWithoutPin(ctx);
  expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);
  return admin;
}
