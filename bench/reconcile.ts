/**
 * Reconciler speed (issue 9): how long one pass takes for 1,000 rows left in between, against
 * the fake Square server on loopback with the real `square` SDK:
 * - 1,000 card charges whose answers were lost ('charging'; Square took 1,000 payments): one
 *   ListPayments walk finds them all, every order becomes paid;
 * - 1,000 game holds left 'capturing' by a crash: one CompletePayment call each.
 * Usage: bun bench/reconcile.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SquareClient } from 'square';
import { openMigratedDatabase, type Db } from '../src/db/client.ts';
import { games, orders, payments, plays, products, users } from '../src/db/schema.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { ManualClock } from '../src/domain/clock.ts';
import type { GameDeps } from '../src/domain/games/entry.ts';
import { simulatedMetrics } from '../src/domain/games/simulation.ts';
import { gatewayKey } from '../src/domain/payments/keys.ts';
import { reconcilePayments } from '../src/domain/payments/reconcile.ts';
import { createSquareGateway } from '../src/domain/payments/square-gateway.ts';
import { FAKE_SQUARE_LOCATION, FAKE_SQUARE_TOKEN, startFakeSquare } from '../tests/helpers/fake-square.ts';

const ROWS = 1000;
const fake = await startFakeSquare();
const sdk = new SquareClient({ token: FAKE_SQUARE_TOKEN, baseUrl: fake.url, maxRetries: 0 });
const gateway = createSquareGateway({
  accessToken: FAKE_SQUARE_TOKEN,
  locationId: FAKE_SQUARE_LOCATION,
  environment: 'sandbox',
  baseUrl: fake.url,
  maxRetries: 0,
  timeoutInSeconds: 10,
});
const dir = mkdtempSync(join(tmpdir(), 'csa-reconcile-bench-'));

async function freshStore(): Promise<{ db: Db; clock: ManualClock; deps: GameDeps; user: number; product: number }> {
  const db = await openMigratedDatabase(join(dir, `store-${crypto.randomUUID()}.db`));
  const clock = new ManualClock(Date.now());
  seedIfEmpty(db, clock);
  const user = db
    .insert(users)
    .values({ username: `bench-${crypto.randomUUID().slice(0, 8)}`, passwordHash: 'x', createdAt: clock.now() })
    .returning()
    .get().id;
  const product = db.select().from(products).get()!.id;
  return { db, clock, deps: { db, clock, gateway, metrics: simulatedMetrics }, user, product };
}

async function lostCharges(): Promise<number> {
  const { db, clock, deps, user } = await freshStore();
  const now = clock.now();
  for (let i = 0; i < ROWS; i++) {
    const order = db
      .insert(orders)
      .values({
        userId: user,
        orderDate: now,
        totalCents: 1000,
        subtotalCents: 1000,
        taxCents: 0,
        shippingCents: 0,
        status: 'pending',
        paymentMethod: 'square',
        shippingMethod: 'local',
        checkoutKey: `bench:${i}`,
        updatedAt: now,
      })
      .returning()
      .get();
    const key = gatewayKey(db, 'charge', order.id);
    db.insert(payments)
      .values({
        userId: user,
        kind: 'order_charge',
        status: 'charging',
        amountCents: 1000,
        orderId: order.id,
        gateway: 'square',
        idempotencyKey: key,
        createdAt: now,
        updatedAt: now,
      })
      .run();
    await sdk.payments.create({
      sourceId: 'cnon:card-nonce-ok',
      idempotencyKey: key,
      referenceId: key,
      amountMoney: { amount: 1000n, currency: 'USD' },
      autocomplete: true,
      locationId: FAKE_SQUARE_LOCATION,
    });
  }
  const started = performance.now();
  const report = await reconcilePayments(deps, clock.now());
  const ms = performance.now() - started;
  const paid = db
    .select()
    .from(orders)
    .all()
    .filter((o) => o.status === 'processing').length;
  if (report.resolved !== ROWS || paid !== ROWS) throw new Error(`expected ${ROWS} paid orders, got ${paid} (${JSON.stringify(report)})`);
  return ms;
}

async function crashedCaptures(): Promise<number> {
  const { db, clock, deps, user, product } = await freshStore();
  const now = clock.now();
  const game = db
    .insert(games)
    .values({ productId: product, status: 'completed', requiredParticipants: ROWS, startTime: now - 7_200_000, endTime: now - 3_600_000, createdAt: now })
    .returning()
    .get();
  for (let i = 0; i < ROWS; i++) {
    const player = db
      .insert(users)
      .values({ username: `p${i}-${game.id}-${crypto.randomUUID().slice(0, 6)}`, passwordHash: 'x', createdAt: now })
      .returning()
      .get().id;
    const play = db
      .insert(plays)
      .values({
        productId: product,
        gameId: game.id,
        userId: player,
        influencerIds: ['1', '2', '3', '4', '5'],
        status: 'entered',
        enteredAt: now,
        createdAt: now,
      })
      .returning()
      .get();
    const key = gatewayKey(db, 'hold', play.id);
    const { payment } = await sdk.payments.create({
      sourceId: 'cnon:card-nonce-ok',
      idempotencyKey: key,
      referenceId: key,
      amountMoney: { amount: 100n, currency: 'USD' },
      autocomplete: false,
      locationId: FAKE_SQUARE_LOCATION,
    });
    db.insert(payments)
      .values({
        userId: player,
        kind: 'play_authorization',
        status: 'capturing',
        amountCents: 100,
        playId: play.id,
        gateway: 'square',
        gatewayPaymentId: payment!.id!,
        idempotencyKey: key,
        createdAt: now,
        updatedAt: now,
      })
      .run();
  }
  void user;
  const started = performance.now();
  await reconcilePayments(deps, clock.now());
  const ms = performance.now() - started;
  const captured = db
    .select()
    .from(payments)
    .all()
    .filter((p) => p.status === 'captured').length;
  if (captured !== ROWS) throw new Error(`expected ${ROWS} captured holds, got ${captured}`);
  return ms;
}

const charges = await lostCharges();
const captures = await crashedCaptures();
console.log(`reconciler, ${ROWS} in-between rows against the fake Square on loopback:`);
console.log(`  ${ROWS} lost charges (one ListPayments walk): ${charges.toFixed(0)} ms, ${(charges / ROWS).toFixed(2)} ms a row`);
console.log(`  ${ROWS} crashed captures (one CompletePayment each): ${captures.toFixed(0)} ms, ${(captures / ROWS).toFixed(2)} ms a row`);
fake.stop();
rmSync(dir, { recursive: true, force: true });
