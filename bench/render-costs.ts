/**
 * What a page rendered for each request costs (issue 35 item 4), in process and serially: the
 * demo store (seed and live auctions as `SEED_DEMO=1` makes them) on an in-memory database,
 * each `?r=1` page requested N times with gzip, against a bare handler (`new Response('ok')`
 * read whole) timed in the same loop, round by round; the median round is shown. The SQL
 * statements one request runs are counted (statement-count.ts).
 * Usage: bun bench/render-costs.ts [requests per round=300] [rounds=5]
 * With CPU_PROF=1 only the pages are requested, for `bun --cpu-prof bench/render-costs.ts`;
 * with DUMP=dir each page's HTML is written there (to compare a change's pages with diff).
 * Run it with NODE_ENV=production (as the server runs): React and JSX pick their development
 * builds, several times slower, otherwise.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dlopen, FFIType, ptr } from 'bun:ffi';
import { createApp } from '../src/app.ts';
import { loadManifest } from '../src/assets.ts';
import { loadConfig } from '../src/config.ts';
import { openMigratedDatabase } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { createAccountLimits } from '../src/domain/accounts/account-limits.ts';
import { argon2idHasher, TEST_PASSWORD_COST } from '../src/domain/accounts/passwords.ts';
import { openDemoAuctions } from '../src/domain/auctions/demo-auctions.ts';
import { imageStore } from '../src/domain/catalog/images.ts';
import { shareCardStore } from '../src/domain/catalog/share-cards.ts';
import { storefrontVersion } from '../src/domain/catalog/storefront-version.ts';
import { systemClock } from '../src/domain/clock.ts';
import { simulatedMetrics } from '../src/domain/games/simulation.ts';
import { createTestGateway } from '../src/domain/payments/test-gateway.ts';
import { createLifecycle } from '../src/http/lifecycle.ts';
import { PageCache } from '../src/http/page-cache.ts';
import { log } from '../src/log.ts';
import { createTelemetry } from '../src/telemetry.ts';
import { statementCounts } from '../src/db/statement-count.ts';

if (process.env.NODE_ENV !== 'production') {
  console.error('Run as NODE_ENV=production bun bench/render-costs.ts: React renders with its development build otherwise.');
  process.exit(1);
}
log.level = 'warn';
const perRound = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 5);

const db = await openMigratedDatabase();
seedIfEmpty(db, systemClock, { demoProducts: true });
openDemoAuctions({ db, clock: systemClock });
const counted = () => [...statementCounts(db.$client).snapshot().values()].reduce((a, b) => a + b, 0);

const dataDir = mkdtempSync(join(tmpdir(), 'csa-render-costs-'));
const images = imageStore(join(dataDir, 'uploads'));
// A row marked 'after a change' moves the version the cache sees before each request, as a write
// would: what the page remembers per version is read again (kept fragments stay, as they do).
let moved = 0;
const pageCache = new PageCache(() => storefrontVersion(db) + moved);
const config = loadConfig({
  NODE_ENV: 'production',
  SEED_KEY: '5e'.repeat(32),
  PUBLIC_URL: 'http://localhost',
  DATA_DIR: dataDir,
  PAYMENTS: 'test',
  MAIL: 'off',
  RATE_LIMIT: 'off',
  ADMIN_PASSWORD: 'bench-admin-pass',
  ADMIN_PIN: '123456',
});
const app = createApp({
  db,
  lifecycle: createLifecycle(),
  config,
  clock: systemClock,
  manifest: await loadManifest(),
  adminPin: '123456',
  limits: createAccountLimits(db, systemClock, false),
  passwords: argon2idHasher(TEST_PASSWORD_COST),
  images,
  shareCards: shareCardStore(join(dataDir, 'share-cards'), images),
  pageCache,
  telemetry: createTelemetry(db, { pageCache: () => pageCache }),
  jobsHolder: 'bench',
  gateway: createTestGateway(),
  metrics: simulatedMetrics,
  runJobs: async () => {},
});

const { id } = db.$client.query('select id from products where archived_at is null order by quantity > 0 desc, id limit 1').get() as { id: number };
const headers = { 'accept-encoding': 'gzip' };
const bare = async () => void (await new Response('ok').arrayBuffer());
const get = (path: string) => async () => {
  const response = await app.request(`http://localhost${path}`, { headers });
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  await response.arrayBuffer();
};
const afterChange = (path: string) => {
  const run = get(path);
  return () => {
    moved++;
    pageCache.noteLocalWrite();
    return run();
  };
};
const targets: [string, () => Promise<void>][] = [
  ['bare handler', bare],
  ['/ping', get('/ping')],
  ['/?r=1', get('/?r=1')],
  ['/products?r=1', get('/products?r=1')],
  [`/product/${id}?r=1`, get(`/product/${id}?r=1`)],
  ['/ after a change', afterChange('/')],
  ['/products after a change', afterChange('/products')],
  [`/product/${id} after a change`, afterChange(`/product/${id}`)],
];

// This thread's CPU time (clock_gettime(CLOCK_THREAD_CPUTIME_ID), Linux): on a machine shared
// with other work, the wall clock counts the time others had the core; this counts ours alone
// (not the collector's and compiler's threads: their work shows in the wall time).
const libc = dlopen('libc.so.6', { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
const timespec = new BigInt64Array(2);
const CLOCK_THREAD_CPUTIME_ID = 3;
function threadMicros(): number {
  libc.symbols.clock_gettime(CLOCK_THREAD_CPUTIME_ID, ptr(timespec));
  return Number(timespec[0]!) * 1e6 + Number(timespec[1]!) / 1e3;
}

/** Microseconds a request, of this thread's CPU and of the wall clock. */
async function timed(run: () => Promise<void>, times: number): Promise<{ cpu: number; wall: number }> {
  const began = performance.now();
  const cpu = threadMicros();
  for (let i = 0; i < times; i++) await run();
  return { cpu: (threadMicros() - cpu) / times, wall: ((performance.now() - began) * 1000) / times };
}

if (process.env.DUMP) {
  mkdirSync(process.env.DUMP, { recursive: true });
  for (const [what] of targets.slice(2, 5)) {
    const response = await app.request(`http://localhost${what}`);
    writeFileSync(join(process.env.DUMP, `${what.replaceAll(/[/?=]/g, '_')}.html`), await response.text());
  }
  process.exit(0);
}
if (process.env.CPU_PROF) {
  // CPU_PROF=/products?r=1: that page alone.
  for (const [what, run] of targets.slice(2)) if (process.env.CPU_PROF === '1' || process.env.CPU_PROF === what) await timed(run, perRound * rounds);
  process.exit(0);
}

for (const [, run] of targets) await timed(run, 50); // warm the JIT and the fragments
const runs = targets.map(() => [] as { cpu: number; wall: number }[]);
for (let round = 0; round < rounds; round++) for (const [index, [, run]] of targets.entries()) runs[index]!.push(await timed(run, perRound));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cpuOf = (index: number) => median(runs[index]!.map((run) => run.cpu));
const wallOf = (index: number) => median(runs[index]!.map((run) => run.wall));
console.log(`${perRound} serial requests a row, median of ${rounds} interleaved rounds, in process (gzip); CPU = this thread's\n`);
console.log('| request | CPU µs each | bare / this (CPU) | /ping / this (CPU) | wall µs each | statements |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const [index, [what, run]] of targets.entries()) {
  await run(); // the version the rounds left read again, as on any first request after a change
  const before = counted();
  await run();
  const statements = counted() - before;
  const cpu = cpuOf(index);
  const share = (of: number) => `${((of / cpu) * 100).toFixed(2)}%`;
  console.log(`| ${what} | ${cpu.toFixed(1)} | ${share(cpuOf(0))} | ${share(cpuOf(1))} | ${wallOf(index).toFixed(1)} | ${statements} |`);
}
