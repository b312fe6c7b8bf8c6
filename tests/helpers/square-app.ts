import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { sessions, users } from '../../src/db/schema.ts';
import { eq } from 'drizzle-orm';
import { createAccountLimits } from '../../src/domain/accounts/account-limits.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import type { GameDeps } from '../../src/domain/games/entry.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { imageStore } from '../../src/domain/catalog/images.ts';
import { shareCardStore } from '../../src/domain/catalog/share-cards.ts';
import { giveConsent } from './actors.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { reconcilePayments } from '../../src/domain/payments/reconcile.ts';
import { createSquareGateway } from '../../src/domain/payments/square-gateway.ts';
import { createSession, generateSessionToken } from '../../src/domain/accounts/sessions.ts';
import { createTelemetry } from '../../src/telemetry.ts';
import { PageCache } from '../../src/http/page-cache.ts';
import { storefrontVersion } from '../../src/domain/catalog/storefront-version.ts';
import { COMPLETE_PROFILE } from './actors.ts';
import { closeWhenFileEnds } from './file-end.ts';
import { seededImage } from './seeded-db.ts';
import { TEST_ORIGIN, TEST_PIN, TestClient, testManifest } from './app.ts';
import { FAKE_SQUARE_LOCATION, FAKE_SQUARE_TOKEN, startFakeSquare, type FakeSquare } from './fake-square.ts';
import { argon2idHasher, TEST_PASSWORD_COST } from '../../src/domain/accounts/passwords.ts';
import { createLifecycle } from '../../src/http/lifecycle.ts';
import { cartShippingCents, totalsFor, totalsInDollars } from '../../src/shared/pricing.ts';

/*
 * The store in process on the real `square` gateway, pointed at the fake Square server: money
 * paths tested with real latency and real failures, not the instant in-memory gateway.
 * The SDK's own retries are off (maxRetries 0) so each test sees exactly the faults it injects.
 */

export const PROFILE = COMPLETE_PROFILE;

export async function squareStore(options: { timeoutSeconds?: number } = {}) {
  const fake = await startFakeSquare();
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 18, 10, 0));
  const file = join(mkdtempSync(join(tmpdir(), 'csa-square-')), 'store.db');
  // The seeded store's bytes as the file: migrating a file (fsyncs and all) took 200 ms a store.
  writeFileSync(file, await seededImage(clock.now()));
  const db = await openMigratedDatabase(file);
  const config = loadConfig({
    NODE_ENV: 'test',
    PUBLIC_URL: TEST_ORIGIN,
    ADMIN_PASSWORD: 'admin-secret',
    ADMIN_PIN: TEST_PIN,
    CLOCK: 'manual',
    PAYMENTS: 'square',
    SQUARE_ACCESS_TOKEN: FAKE_SQUARE_TOKEN,
    SQUARE_LOCATION_ID: FAKE_SQUARE_LOCATION,
    SQUARE_BASE_URL: fake.url,
  });
  const gateway = createSquareGateway({
    accessToken: FAKE_SQUARE_TOKEN,
    locationId: FAKE_SQUARE_LOCATION,
    environment: 'sandbox',
    baseUrl: fake.url,
    maxRetries: 0,
    // Generous: a busy machine stretched a card save (two Square calls) past 2 s. A test of the
    // timeout itself sets its own (money-races: 1 s against a Square that never answers).
    timeoutInSeconds: options.timeoutSeconds ?? 10,
  });
  const games: GameDeps = { db, clock, gateway, metrics: simulatedMetrics };
  const images = imageStore(mkdtempSync(join(tmpdir(), 'csa-uploads-')));
  const app = createApp({
    db,
    config,
    clock,
    manifest: await testManifest(),
    adminPin: TEST_PIN,
    limits: createAccountLimits(db, clock, false),
    passwords: argon2idHasher(TEST_PASSWORD_COST),
    images,
    shareCards: shareCardStore(mkdtempSync(join(tmpdir(), 'csa-cards-')), images),
    pageCache: new PageCache(() => storefrontVersion(db)),
    telemetry: createTelemetry(db),
    jobsHolder: 'test',
    lifecycle: createLifecycle(),
    gateway,
    metrics: simulatedMetrics,
    runJobs: async () => {
      await runGameJobs(games);
      await reconcilePayments(games);
    },
  });

  /** A signed-in shopper made straight in the database, with a complete profile and a card saved at the fake. */
  async function shopper(username: string, card = 'cnon:card-nonce-ok'): Promise<{ client: TestClient; id: number }> {
    const user = db.insert(users).values({ username, passwordHash: 'unused', createdAt: clock.now() }).returning().get();
    giveConsent({ db, clock }, user.id);
    const token = generateSessionToken();
    createSession(db, clock, token, user.id);
    const client = new TestClient(app);
    client.cookies.set('csa_session', token);
    const saved = await client.request('PATCH', '/api/user/profile', { json: { ...PROFILE, paymentMethod: { type: 'card', token: card } } });
    if (saved.status !== 200) throw new Error(`profile not saved: ${saved.status} ${await saved.text()}`);
    return { client, id: user.id };
  }

  /** An admin whose session passed the PIN. */
  function admin(username = 'boss'): TestClient {
    const user = db.insert(users).values({ username, passwordHash: 'unused', isAdmin: true, createdAt: clock.now() }).returning().get();
    const token = generateSessionToken();
    createSession(db, clock, token, user.id);
    db.update(sessions).set({ pinVerifiedAt: clock.now() }).where(eq(sessions.userId, user.id)).run();
    const client = new TestClient(app);
    client.cookies.set('csa_session', token);
    return client;
  }

  return {
    app,
    db,
    admin,
    clock,
    gateway,
    fake,
    games,
    shopper,
    /** Every due game job, then the reconciler, as the scheduler's tick does. */
    tick: async () => {
      await runGameJobs(games);
      return reconcilePayments(games);
    },
    stop: () => fake.stop(),
  };
}

export type SquareStore = Awaited<ReturnType<typeof squareStore>>;
export type { FakeSquare };

/**
 * A store opener for a file whose tests run at once (describe.concurrent): each test opens its
 * own store and fake Square, and every one of them is stopped when the file is done.
 */
export function squareStoresOfFile() {
  const keep = closeWhenFileEnds((store: SquareStore) => store.stop());
  return async (options: Parameters<typeof squareStore>[0] = {}) => keep(await squareStore(options));
}

/** Where a card checkout delivers: the profile's street in Laguna Beach unless a test says otherwise. */
export interface CheckoutAddress {
  address: string;
  city: string;
  state: string;
  zipCode: string;
}
const LAGUNA: CheckoutAddress = { address: PROFILE.address.line1, city: 'Laguna Beach', state: 'CA', zipCode: '92651' };

/**
 * The body the cart page sends to POST /api/checkout for everything in the shopper's cart, paid by
 * card with standard shipping: the totals the page shows (prizes ride the free local delivery).
 */
export async function cardCheckoutBody(client: TestClient, to: CheckoutAddress = LAGUNA) {
  const cart = (await (await client.get('/api/cart')).json()) as { id: number; productId: number; quantity: number; price: number; type: 'regular' | 'play' }[];
  const lines = cart.map((line) => ({ priceCents: Math.round(line.price * 100), quantity: line.quantity }));
  const summary = totalsInDollars(totalsFor(lines, cartShippingCents(cart, 'standard')));
  return {
    paymentMethod: 'square',
    items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
    shipping: { method: 'standard', cost: summary.shipping },
    summary,
    customer: { fullName: PROFILE.name, email: PROFILE.email, phone: PROFILE.phone, ...to },
  };
}
