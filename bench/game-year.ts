/**
 * The cost of history (issue 10): a store file with a synthetic year — about 18,000 settled
 * games with their frozen records, 365,000 payments and 2 million feed snapshot rows — then:
 * the per-minute tick (every job of the scheduler, a few live games), GET
 * /api/products/{id}/competition of a finished game, and the hourly snapshot prune. Each figure
 * is the median of several runs, next to `/ping` through the same app in the same run.
 * Usage: bun bench/game-year.ts
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { loadManifest } from '../src/assets.ts';
import { loadConfig } from '../src/config.ts';
import { openMigratedDatabase } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { createAccountLimits } from '../src/domain/accounts.ts';
import { ManualClock } from '../src/domain/clock.ts';
import type { GameDeps } from '../src/domain/games/entry.ts';
import { PRUNE_BATCH, pruneSnapshots } from '../src/domain/games/retention.ts';
import { drawSeed, simulatedMetrics } from '../src/domain/games/simulation.ts';
import { imageStore } from '../src/domain/images.ts';
import { shareCardStore } from '../src/domain/share-cards.ts';
import { createTestGateway } from '../src/domain/payments/test-gateway.ts';
import { createTelemetry } from '../src/telemetry.ts';
import { log } from '../src/log.ts';
import { PageCache } from '../src/http/page-cache.ts';
import { storefrontVersion } from '../src/domain/storefront-version.ts';
import { storeJobs } from '../src/jobs/index.ts';
import { argon2idHasher, TEST_PASSWORD_COST } from '../src/domain/passwords.ts';
import { createLifecycle } from '../src/http/lifecycle.ts';

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
const productIds = db.$client
  .query<{ id: number }, []>('select id from products where play_enabled = 1')
  .all()
  .map((p) => p.id);
const influencerIds = db.$client
  .query<{ id: number }, []>('select id from influencers')
  .all()
  .map((i) => i.id);
const sqlite = db.$client;

let t = performance.now();
sqlite.transaction(() => {
  const user = sqlite.prepare("insert into users (username, password_hash, created_at) values (?, 'x', ?)");
  for (let u = 1; u <= 2_000; u++) user.run(`year${u}`, now - 400 * DAY);
  const game = sqlite.prepare(
    `insert into games (product_id, status, required_participants, start_time, end_time, winner_play_id, prize_outcome, created_at, settled_at, metrics_source, seed, seed_hash)
     values (?, 'completed', ?, ?, ?, null, 'bought', ?, ?, ?, ?, ?)`,
  );
  const play = sqlite.prepare(
    `insert into plays (product_id, game_id, user_id, influencer_ids, status, score, entered_at, created_at) values (?, ?, ?, ?, 'entered', ?, ?, ?)`,
  );
  const payment = sqlite.prepare(
    `insert into payments (user_id, kind, status, amount_cents, play_id, gateway, idempotency_key, attempts, created_at, updated_at) values (?, ?, 'captured', 100, ?, 'test', ?, 1, ?, ?)`,
  );
  const record = sqlite.prepare('insert into game_records (game_id, product_id, record, created_at) values (?, ?, ?, ?)');
  const winner = sqlite.prepare('update games set winner_play_id = ? where id = ?');
  let payments = 0;
  for (let g = 0; g < GAMES; g++) {
    const start = Math.floor((now - 365 * DAY + (g / GAMES) * 365 * DAY) / HOUR) * HOUR;
    const productId = productIds[g % productIds.length]!;
    const source = g % 10 === 0 ? 'feed' : 'simulated';
    const { seed, seedHash } = drawSeed();
    const gameId = Number(game.run(productId, PLAYERS_PER_GAME, start, start + HOUR, start - HOUR, start + HOUR, source, seed, seedHash).lastInsertRowid);
    const entries = [];
    for (let p = 0; p < PLAYERS_PER_GAME; p++) {
      const userId = 1 + ((g * PLAYERS_PER_GAME + p) % 2_000);
      const picks = influencerIds.slice(p % 11, (p % 11) + 5).map(String);
      const score = 4000 + ((g * 7 + p * 13) % 1000);
      const playId = Number(play.run(productId, gameId, userId, JSON.stringify(picks), score, start - HOUR + p, start - HOUR).lastInsertRowid);
      payment.run(userId, 'play_authorization', playId, `year-p${playId}`, start - HOUR, start + HOUR);
      payments++;
      entries.push({ playId, userId, username: `year${userId}`, influencerIds: picks, enteredAt: start - HOUR + p, score, rank: 0 });
    }
    for (const [i, e] of entries.sort((a, b) => b.score - a.score).entries()) e.rank = i + 1;
    winner.run(entries[0]!.playId, gameId);
    record.run(
      gameId,
      productId,
      JSON.stringify({
        version: 1,
        gameId,
        product: { id: productId, brand: 'Bench', model: 'YEAR', productType: 'book' },
        metricsSource: source,
        seed,
        seedHash,
        startTime: start,
        endTime: start + HOUR,
        settledAt: start + HOUR,
        requiredParticipants: PLAYERS_PER_GAME,
        influencers: influencerIds.map((id) => ({
          id,
          name: `I${id}`,
          handle: `@i${id}`,
          platforms: { instagram: '1M' },
          engagementRate: 3,
          points: 900 + id,
        })),
        plays: entries,
        winnerPlayId: entries[0]!.playId,
        winnerUsername: entries[0]!.username,
      }),
      start + HOUR,
    );
  }
  // Orders' charges make up the rest of a year's payments.
  for (let i = payments; i < 365_000; i++) payment.run(1 + (i % 2_000), 'order_charge', null, `year-o${i}`, now - DAY, now - DAY);
  // The feed's raw snapshots: the last ~60 days of 16 influencers on two platforms.
  const snapshot = sqlite.prepare(
    `insert into influencer_metrics (influencer_id, platform, minute_at, followers, engagement, growth, posts, points, source, taken_at) values (?, ?, ?, 1000000, 3, 0.1, 0, 3.5, 'feed', ?)`,
  );
  const perMinute = influencerIds.length * 2;
  const lastMinute = Math.floor(now / MINUTE) * MINUTE - MINUTE;
  for (let m = 0; m < SNAPSHOT_ROWS / perMinute; m++) {
    const minute = lastMinute - m * MINUTE;
    for (const id of influencerIds) {
      snapshot.run(id, 'instagram', minute, minute);
      snapshot.run(id, 'tiktok', minute, minute);
    }
  }
})();
// No ANALYZE: the store never runs it (docs/decisions.md), and without stat4 its averages
// would tell SQLite that a status lookup matches a third of the table.
const buildMs = performance.now() - t;

// A few live games, as on any afternoon.
const liveProduct = productIds[0]!;
sqlite.exec(`update products set quantity = 1000 where id = ${liveProduct}`);

const gateway = createTestGateway();
const deps: GameDeps = { db, clock, gateway, metrics: simulatedMetrics };
const images = imageStore(join(dir, 'uploads'));
const app = createApp({
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
  lifecycle: createLifecycle(),
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
