/**
 * Game speed (issue 5): settle one game of 1,000 players, and run one tick with 200 due games,
 * on a database file with the test gateway. Prints both times and the database size. The cost
 * after a year of history is bench/game-year.ts.
 * Usage: bun bench/game.ts
 */
import { statSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase, type Db } from '../src/db/client.ts';
import { games, influencers, payments, plays, products, productVariants, users } from '../src/db/schema.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { ManualClock } from '../src/domain/clock.ts';
import type { GameDeps } from '../src/domain/games/entry.ts';
import { runGameJobs, settleGame } from '../src/domain/games/lifecycle.ts';
import { HOUR_MS } from '../src/domain/games/schedule.ts';
import { drawSeed, simulatedMetrics } from '../src/domain/games/simulation.ts';
import { createTestGateway } from '../src/domain/payments/test-gateway.ts';

const dir = mkdtempSync(join(tmpdir(), 'csa-game-bench-'));
const file = join(dir, 'store.db');
const db: Db = await openMigratedDatabase(file);
const start = Date.UTC(2026, 10, 21, 19, 0);
const clock = new ManualClock(start - 30 * 60_000);
seedIfEmpty(db, clock);
const gateway = createTestGateway();
const deps: GameDeps = { db, clock, gateway, metrics: simulatedMetrics };
const influencerIds = db
  .select({ id: influencers.id })
  .from(influencers)
  .all()
  .map((i) => String(i.id));
const product = db.select().from(products).get()!;
db.update(products).set({ playEnabled: true }).run();
// Stock belongs to the variant; every product here has one (issue 38).
db.update(productVariants).set({ quantity: 10_000, stocked: 10_000 }).run();
db.update(products).set({ quantity: 10_000 }).run();

let userCount = 0;
/** A started game with `players` paid entries, each with five random influencers. */
async function activeGame(players: number): Promise<number> {
  const game = db
    .insert(games)
    .values({
      productId: product.id,
      status: 'active',
      requiredParticipants: players,
      startTime: start,
      endTime: start + HOUR_MS,
      createdAt: clock.now(),
      ...drawSeed(),
    })
    .returning()
    .get();
  for (let i = 0; i < players; i++) {
    const user = db
      .insert(users)
      .values({ username: `bench${++userCount}`, passwordHash: 'x', createdAt: clock.now() })
      .returning()
      .get();
    const picks = [...influencerIds].sort(() => Math.random() - 0.5).slice(0, 5);
    const play = db
      .insert(plays)
      .values({
        productId: product.id,
        gameId: game.id,
        userId: user.id,
        influencerIds: picks,
        status: 'entered',
        enteredAt: clock.now() + i,
        createdAt: clock.now(),
      })
      .returning()
      .get();
    const held = await gateway.authorize({ sourceId: 'cnon:card-nonce-ok', amountCents: 100, idempotencyKey: `bench-${play.id}` });
    db.insert(payments)
      .values({
        userId: user.id,
        kind: 'play_authorization',
        status: 'authorized',
        amountCents: 100,
        playId: play.id,
        gateway: 'test',
        gatewayPaymentId: held.id,
        idempotencyKey: `bench-${play.id}`,
        createdAt: clock.now(),
        updatedAt: clock.now(),
      })
      .run();
  }
  return game.id;
}

const big = await activeGame(1000);
clock.set(start + HOUR_MS + 1000);
let t = performance.now();
await settleGame(deps, big);
const settleMs = performance.now() - t;
const captured = gateway.payments().filter((p) => p.status === 'COMPLETED').length;

clock.set(start - 30 * 60_000);
for (let i = 0; i < 200; i++) await activeGame(2);
clock.set(start + HOUR_MS + 2000);
t = performance.now();
const result = await runGameJobs(deps);
const tickMs = performance.now() - t;

db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)');
const size = statSync(file).size;
console.log(`settle one game of 1,000 players: ${settleMs.toFixed(0)} ms (${captured} holds captured)`);
console.log(`one tick with 200 due games: ${tickMs.toFixed(0)} ms (${result.settled.length} settled)`);
const snapshots = (db.$client.query('select count(*) as n from influencer_metrics').get() as { n: number }).n;
console.log(`database after both: ${(size / 1024 / 1024).toFixed(1)} MiB (${userCount} players, ${snapshots} metric snapshots)`);
db.$client.close();
rmSync(dir, { recursive: true, force: true });
