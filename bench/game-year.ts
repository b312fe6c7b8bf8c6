/**
 * The cost of history (issue 10): a store file with a synthetic year — about 18,000 settled
 * games with their frozen records, 365,000 payments and 2 million feed snapshot rows — then:
 * the per-minute tick (every job of the scheduler, a few live games), GET
 * /api/products/{id}/competition of a finished game, and the hourly snapshot prune. Each figure
 * is the median of several runs, next to `/ping` through the same app in the same run.
 * Usage: bun bench/game-year.ts
 */
import { createLifecycle } from '../src/http/lifecycle.ts';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { loadManifest } from '../src/assets.ts';
import { loadConfig } from '../src/config.ts';
import { openMigratedDatabase } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { createAccountLimits } from '../src/domain/accounts/account-limits.ts';
import { ManualClock } from '../src/domain/clock.ts';
import type { GameDeps } from '../src/domain/games/entry.ts';
import { PRUNE_BATCH, pruneSnapshots } from '../src/domain/games/retention.ts';
import { simulatedMetrics } from '../src/domain/games/simulation.ts';
import { buildYear } from './year-data.ts';
import { imageStore } from '../src/domain/catalog/images.ts';
import { shareCardStore } from '../src/domain/catalog/share-cards.ts';
import { createTestGateway } from '../src/domain/payments/test-gateway.ts';
import { createTelemetry } from '../src/telemetry.ts';
import { log } from '../src/log.ts';
import { PageCache } from '../src/http/page-cache.ts';
import { storefrontVersion } from '../src/domain/catalog/storefront-version.ts';
import { storeJobs } from '../src/jobs/index.ts';
import { argon2idHasher, TEST_PASSWORD_COST } from '../src/domain/accounts/passwords.ts';

// A request log line per timed call would bury the figures.
if (!process.env.LOG_LEVEL) log.level = 'warn';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const GAMES = 18_000;
const PLAYERS_PER_GAME = 10;
const SNAPSHOT_ROWS = 2_000_000;

const dir = mkdtempSync(join(tmpdir(), 'csa-year-'));
const file = join(dir, 'store.db');
const db = await openMigratedDatabase(file);
const now = Date.UTC(2026, 10, 21, 18, 30);
const clock = new ManualClock(now);
seedIfEmpty(db, clock);
const sqlite = db.$client;
const productIds = sqlite
  .query<{ id: number }, []>('select id from products where play_enabled = 1')
  .all()
  .map((p) => p.id);

let t = performance.now();
buildYear(db, now, { games: GAMES, playersPerGame: PLAYERS_PER_GAME, snapshotRows: SNAPSHOT_ROWS });
// No ANALYZE: the store never runs it (docs/decisions.md), and without stat4 its averages
// would tell SQLite that a status lookup matches a third of the table.
const buildMs = performance.now() - t;

// A few live games, as on any afternoon.
const liveProduct = productIds[0]!;
sqlite.exec(`update products set quantity = 1000 where id = ${liveProduct}`);
sqlite.exec(`update product_variants set quantity = 1000, stocked = 1000 where product_id = ${liveProduct}`);

const gateway = createTestGateway();
const deps: GameDeps = { db, clock, gateway, metrics: simulatedMetrics };
const images = imageStore(join(dir, 'uploads'));
const app = createApp({
  lifecycle: createLifecycle(),
  db,
  config: loadConfig({ NODE_ENV: 'test', ADMIN_PASSWORD: 'admin-secret', ADMIN_PIN: '246810' }),
  clock,
  manifest: await loadManifest(),
  adminPin: '246810',
  limits: createAccountLimits(db, clock, false),
  passwords: argon2idHasher(TEST_PASSWORD_COST),
  images,
  shareCards: shareCardStore(join(dir, 'share-cards'), images),
  pageCache: new PageCache(() => storefrontVersion(db)),
  telemetry: createTelemetry(db),
  jobsHolder: 'test',
  gateway,
  metrics: simulatedMetrics,
  runJobs: async () => {},
});

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
async function timeIt(runs: number, work: () => Promise<unknown> | unknown): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const began = performance.now();
    await work();
    times.push(performance.now() - began);
  }
  return median(times);
}

// The product's last finished game: its competition panel reads the frozen record.
const finished = sqlite.query<{ product_id: number }, []>("select product_id from games where status = 'completed' order by id desc limit 1").get()!.product_id;
await app.request(`/api/products/${finished}/competition`);
const pingMs = await timeIt(200, async () => (await app.request('/ping')).text());
const competitionMs = await timeIt(50, async () => {
  const response = await app.request(`/api/products/${finished}/competition`);
  if (response.status !== 200) throw new Error(`competition: ${response.status}`);
  return response.text();
});
const count = (table: string) => (sqlite.query(`select count(*) as n from ${table}`).get() as { n: number }).n;
const summary = `synthetic year: ${count('games')} games, ${count('game_records')} records, ${count('plays')} plays, ${count('payments')} payments, ${count('influencer_metrics')} snapshot rows`;
const jobs = storeJobs(db, deps);
// The retention job prunes a backlog of old snapshots one batch a minute; the batches are timed
// here, then the tick in the steady state after them.
const backlogFrom = performance.now();
let backlogBatches = 0;
let backlogRows = 0;
for (let removed = PRUNE_BATCH; removed >= PRUNE_BATCH; backlogBatches++) {
  removed = pruneSnapshots(db, clock.now());
  backlogRows += removed;
}
const backlogMs = performance.now() - backlogFrom;
const tickMs = await timeIt(20, async () => {
  clock.advance(MINUTE);
  for (const job of jobs) await job.run(clock.now());
});
for (const job of jobs) {
  const jobMs = await timeIt(5, async () => {
    clock.advance(MINUTE);
    await job.run(clock.now());
  });
  console.log(`  job ${job.name}: ${jobMs.toFixed(2)} ms`);
}
t = performance.now();
const pruned = pruneSnapshots(db, clock.now() + 30 * DAY);
const pruneBatchMs = performance.now() - t;
let prunedAll = pruned;
while (true) {
  const more = pruneSnapshots(db, clock.now() + 30 * DAY);
  prunedAll += more;
  if (more < PRUNE_BATCH) break;
}
const pruneMs = performance.now() - t;

sqlite.exec('PRAGMA wal_checkpoint(TRUNCATE)');
console.log(`${summary}; ${(statSync(file).size / 1024 / 1024).toFixed(0)} MiB, built in ${(buildMs / 1000).toFixed(0)} s`);
console.log(`/ping through the app: ${pingMs.toFixed(3)} ms (median)`);
console.log(`GET /api/products/{id}/competition of a finished game: ${competitionMs.toFixed(2)} ms (median; ${(competitionMs / pingMs).toFixed(0)}× /ping)`);
console.log(
  `old-snapshot backlog: ${backlogRows} rows in ${backlogBatches} batches of at most ${PRUNE_BATCH}, ${(backlogMs / backlogBatches).toFixed(1)} ms a batch (one batch a minute)`,
);
console.log(`per-minute tick, every job: ${tickMs.toFixed(2)} ms (median of 20; ${(tickMs / pingMs).toFixed(0)}× /ping)`);
console.log(`snapshot prune 30 days on: one batch of ${pruned} rows ${pruneBatchMs.toFixed(0)} ms; ${prunedAll} rows in all in ${pruneMs.toFixed(0)} ms`);
sqlite.close();
if (process.env.BENCH_KEEP) console.log(`kept ${file}`);
else rmSync(dir, { recursive: true, force: true });
