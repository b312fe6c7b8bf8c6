/**
 * What a request waits while the store does its own long work (issue 26 row 5): a store with a
 * synthetic year (bench/year-data.ts) and 400 games filled for the next hour, started as the
 * operator starts it (BACKUP_DIR, the real server process, from source). A probe sends GET /ping
 * every 5 ms and records each answer's wait:
 *   - idle, for a baseline;
 *   - while the jobs tick takes the hourly backup (`VACUUM INTO` + integrity check): the backup
 *     folder is emptied so the backup is due, then the manual clock's route runs the tick, as the
 *     minute timer would (three times);
 *   - while the tick at the top of the hour starts the 400 games, and an hour later settles them.
 * Figures: the longest, 99th percentile and median wait, the longest as a multiple of the idle
 * median, and how many probes waited over 50 ms. On a shared machine the idle line shows what
 * the scheduler alone costs: compare the others with it.
 * Usage: bun bench/backup-probe.ts   (BENCH_KEEP=1 keeps the folder)
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { ManualClock } from '../src/domain/clock.ts';
import { drawSeed } from '../src/domain/games/simulation.ts';
import { startServer } from '../tests/helpers/server.ts';
import { buildYear } from './year-data.ts';

const HOUR = 60 * 60 * 1000;
const FILLED_GAMES = 400;
const root = mkdtempSync(join(tmpdir(), 'csa-backup-probe-'));
const backups = join(root, 'backups');
mkdirSync(join(root, 'data'), { recursive: true });
mkdirSync(backups);

// ---------------------------------------------------------------- the year, and 400 games filled for the next hour
let t = performance.now();
const now = Date.now();
// The year is built once into year.db; BENCH_FROM=…/year.db (kept by BENCH_KEEP=1) starts from it again, to compare versions on one file.
const year = process.env.BENCH_FROM ?? join(root, 'year.db');
if (!process.env.BENCH_FROM) {
  const built = await openMigratedDatabase(year);
  seedIfEmpty(built, new ManualClock(now));
  buildYear(built, now);
  built.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  built.$client.close();
}
copyFileSync(year, join(root, 'data', 'store.db'));
const db = await openMigratedDatabase(join(root, 'data', 'store.db'));
const productIds = db.$client
  .query<{ id: number }, []>('select id from products where play_enabled = 1')
  .all()
  .map((p) => p.id);
const sqlite = db.$client;
const influencers = sqlite.query<{ id: number }, []>('select id from influencers order by id limit 5').all();
const picks = JSON.stringify(influencers.map((i) => String(i.id)));
sqlite.transaction(() => {
  const user = sqlite.prepare("insert into users (username, password_hash, created_at) values (?, 'x', ?)");
  const game = sqlite.prepare(
    "insert into games (product_id, status, required_participants, created_at, metrics_source, seed, seed_hash) values (?, 'waiting', 2, ?, 'simulated', ?, ?)",
  );
  const play = sqlite.prepare(
    "insert into plays (product_id, game_id, user_id, influencer_ids, status, entered_at, created_at) values (?, ?, ?, ?, 'entered', ?, ?)",
  );
  for (const id of productIds) sqlite.query('update products set quantity = quantity + ? where id = ?').run(FILLED_GAMES, id);
  for (const id of productIds)
    sqlite.query('update product_variants set quantity = quantity + ?, stocked = stocked + ? where product_id = ?').run(FILLED_GAMES, FILLED_GAMES, id);
  for (let g = 0; g < FILLED_GAMES; g++) {
    const productId = productIds[g % productIds.length]!;
    const { seed, seedHash } = drawSeed();
    const gameId = Number(game.run(productId, now - 60_000, seed, seedHash).lastInsertRowid);
    for (let p = 0; p < 2; p++) {
      const userId = Number(user.run(`filled${g}x${p}`, now).lastInsertRowid);
      play.run(productId, gameId, userId, picks, now - 60_000 + p, now - 60_000 + p);
    }
  }
})();
sqlite.exec('PRAGMA wal_checkpoint(TRUNCATE)');
sqlite.close();
const bytes = statSync(join(root, 'data', 'store.db')).size;
console.log(
  `synthetic year + ${FILLED_GAMES} filled games: ${(bytes / 1024 / 1024).toFixed(0)} MiB, built in ${((performance.now() - t) / 1000).toFixed(0)} s`,
);

// ---------------------------------------------------------------- the store, and the probe
const server = await startServer({ dataDir: root, env: { BACKUP_DIR: backups, BACKUP_EVERY: '1h', BACKUP_KEEP: '2', CLOCK: 'manual', RATE_LIMIT: 'off' } });
const backupFiles = () => readdirSync(backups).filter((name) => name.endsWith('.db'));
// The start-up tick takes the first backup; the probe starts once it is done.
for (t = performance.now(); backupFiles().length === 0 || readdirSync(backups).some((name) => name.endsWith('.partial')); ) {
  if (performance.now() - t > 300_000) throw new Error('no start-up backup within 5 minutes');
  await Bun.sleep(50);
}

interface Waits {
  /** When the longest wait began, from the start of the work: early is the serving thread's own share of the tick. */
  longestAt: number;
  longest: number;
  p99: number;
  median: number;
  count: number;
  over50: number;
}

/** GET /ping every 5 ms until `work` settles; every answer's wait. */
async function probe(work: Promise<unknown>): Promise<Waits> {
  let done = false;
  void work.finally(() => {
    done = true;
  });
  const waits: number[] = [];
  const from = performance.now();
  let longestAt = 0;
  while (!done) {
    const began = performance.now();
    const response = await fetch(`${server.url}/ping`);
    await response.text();
    const wait = performance.now() - began;
    if (wait > Math.max(0, ...waits)) longestAt = began - from;
    waits.push(wait);
    await Bun.sleep(5);
  }
  await work;
  const sorted = [...waits].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
  return { longestAt, longest: sorted.at(-1) ?? 0, p99: at(0.99), median: at(0.5), count: waits.length, over50: waits.filter((w) => w > 50).length };
}

async function clock(body: object): Promise<void> {
  const response = await fetch(`${server.url}/api/test/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (response.status !== 200) throw new Error(`test clock: ${response.status} ${await response.text()}`);
}

/** The jobs' log lines for `job` so far, as objects. */
function jobRuns(job: string): { ms: number; result?: Record<string, unknown> }[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.includes(`"job":"${job}"`))
    .map((line) => JSON.parse(line));
}

/** The log is written in batches (src/log.ts): waits until `job` has logged more than `count` runs. */
async function loggedRuns(job: string, count: number) {
  for (const began = performance.now(); jobRuns(job).length <= count; ) {
    if (performance.now() - began > 10_000) break;
    await Bun.sleep(20);
  }
  return jobRuns(job).slice(count);
}

/** Every job of the last tick with its time on the serving thread: what a long wait comes from. */
function lastTick(): string {
  const lines = server
    .output()
    .split('\n')
    .filter((text) => text.includes('"event":"job_run"'))
    .map((text) => JSON.parse(text) as { job: string; ms: number });
  const lastMetrics = lines.map((l) => l.job).lastIndexOf('metrics');
  return lines
    .slice(lastMetrics)
    .map((l) => `${l.job} ${l.ms} ms`)
    .join(', ');
}

const idle = await probe(Bun.sleep(3000));
const line = (what: string, w: Waits) =>
  console.log(
    `${what}: longest wait ${w.longest.toFixed(1)} ms at +${w.longestAt.toFixed(0)} ms (${(w.longest / idle.median).toFixed(0)}× the idle /ping median), p99 ${w.p99.toFixed(1)} ms, median ${w.median.toFixed(2)} ms, ${w.over50} of ${w.count} probes over 50 ms`,
  );
line('idle', idle);

for (let run = 1; run <= 3; run++) {
  // The backup is due again once the newest one is gone.
  for (const name of backupFiles()) rmSync(join(backups, name));
  const before = jobRuns('backup').length;
  const during = await probe(clock({ advanceMs: 0 }));
  const made = await loggedRuns('backup', before);
  const result = made.at(-1)?.result ?? {};
  line(`hourly backup ${run} (${result.ms ?? '?'} ms of copy + check on the ${result.thread ?? 'main'} thread)`, during);
  console.log(`  the tick: ${lastTick()}`);
}

// The top of the next hour: the tick starts the filled games.
const topOfHour = Math.ceil((now + 1) / HOUR) * HOUR;
const gamesBefore = jobRuns('games').length;
const starting = await probe(clock({ now: topOfHour }));
const gamesRun = (await loggedRuns('games', gamesBefore)).at(-1);
const started = Array.isArray(gamesRun?.result?.started) ? gamesRun.result.started.length : '?';
line(`top of the hour (${started} games started)`, starting);
await loggedRuns('backup', jobRuns('backup').length - 1);
console.log(`  the tick: ${lastTick()}`);

// An hour later the same games end together: the tick settles them (scores, records, prizes, notes).
const settlingBefore = jobRuns('games').length;
const settling = await probe(clock({ now: topOfHour + HOUR + 60_000 }));
const settledRun = (await loggedRuns('games', settlingBefore)).at(-1);
const settled = Array.isArray(settledRun?.result?.settled) ? settledRun.result.settled.length : '?';
line(`end of their hour (${settled} games settled)`, settling);
await loggedRuns('backup', jobRuns('backup').length - 1);
console.log(`  the tick: ${lastTick()}`);

await server.stop();
if (process.env.BENCH_KEEP) console.log(`kept ${root}; BENCH_FROM=${year} starts from the same year`);
else rmSync(root, { recursive: true, force: true });
