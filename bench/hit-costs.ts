/**
 * What a cache hit costs the process, in microseconds, measured in-process so other load on a
 * shared machine disturbs it little (issue 35): the demo store built as src/server.ts builds it
 * (production config, demo seed and auctions, no jobs), its fetch called directly with a fresh
 * Request each time, and the answer's body read, N serial requests (timed by this process's CPU time, which other load disturbs far less than the clock) of each kind interleaved
 * round by round with a bare handler (`new Response('ok')`). Reports the median of the rounds
 * and each kind's ratio to bare. `--busy` adds what page-shares.ts adds (a year of games, 120
 * open games, 40 more live auctions) before measuring; `--http` sends the requests over a local
 * Bun.serve instead (the same process is then client and server: ratios only).
 * Usage: bun bench/hit-costs.ts [requests=2000] [rounds=5] [--busy] [--http]    ONLY=signed-in: those rows (and bare)
 * Server side under wrk: WRK='/ping' bun --cpu-prof --cpu-prof-dir=/tmp/prof bench/hit-costs.ts 1 1 --http
 * Profile: bun --cpu-prof --cpu-prof-dir=/tmp/prof bench/hit-costs.ts 20000 1
 */
import { dlopen, FFIType, ptr } from 'bun:ffi';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import '../src/flows/payment-purposes.ts';
import { loadManifest } from '../src/assets.ts';
import { loadConfig } from '../src/config.ts';
import { applyMigrations, openDatabase } from '../src/db/client.ts';
import { seedIfEmpty } from '../src/db/seed.ts';
import { createAccountLimits } from '../src/domain/accounts/account-limits.ts';
import { bootstrapAdmin } from '../src/domain/accounts/bootstrap-admin.ts';
import { argon2idHasher, TEST_PASSWORD_COST } from '../src/domain/accounts/passwords.ts';
import { openDemoAuctions } from '../src/domain/auctions/demo-auctions.ts';
import { imageStore } from '../src/domain/catalog/images.ts';
import { shareCardStore } from '../src/domain/catalog/share-cards.ts';
import { storefrontVersion } from '../src/domain/catalog/storefront-version.ts';
import { systemClock } from '../src/domain/clock.ts';
import { simulatedMetrics } from '../src/domain/games/simulation.ts';
import { ensureKeyPrefix } from '../src/domain/payments/keys.ts';
import { createTestGateway } from '../src/domain/payments/test-gateway.ts';
import { createLifecycle } from '../src/http/lifecycle.ts';
import { PageCache } from '../src/http/page-cache.ts';
import { setLogLevel } from '../src/log.ts';
import { createTelemetry } from '../src/telemetry.ts';
import { COMPLETE_PROFILE } from '../tests/helpers/actors.ts';
import { buildYear } from './year-data.ts';

const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const [requests = 2000, rounds = 5] = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--'))
  .map(Number);
const busy = flags.includes('--busy');
const overHttp = flags.includes('--http');

const env = {
  NODE_ENV: 'production',
  SEED_KEY: '5e'.repeat(32),
  MAIL: 'off',
  SEED_DEMO: '1',
  PAYMENTS: 'test',
  RATE_LIMIT: 'off',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  ADMIN_PASSWORD: 'bench-admin-pass',
  ADMIN_PIN: '123456',
  PUBLIC_URL: 'http://localhost',
};
const config = loadConfig(env);
setLogLevel(config.logLevel);
const dataDir = mkdtempSync(join(tmpdir(), 'csa-hits-'));
const db = openDatabase(join(dataDir, 'store.db'));
await applyMigrations(db);
ensureKeyPrefix(db.$client);
seedIfEmpty(db, systemClock, { demoProducts: true });
openDemoAuctions({ db, clock: systemClock });
const passwords = argon2idHasher(TEST_PASSWORD_COST);
const { adminPin } = await bootstrapAdmin({ db, clock: systemClock, config, passwords });
const pageCache = new PageCache(() => storefrontVersion(db));
const images = imageStore(join(dataDir, 'uploads'));
const app = createApp({
  db,
  config,
  clock: systemClock,
  manifest: await loadManifest(),
  adminPin,
  limits: createAccountLimits(db, systemClock, config.rateLimit),
  passwords,
  images,
  shareCards: shareCardStore(join(dataDir, 'share-cards'), images),
  pageCache,
  telemetry: createTelemetry(db, { pageCache: () => pageCache }),
  jobsHolder: 'bench',
  lifecycle: createLifecycle(),
  gateway: createTestGateway(),
  metrics: simulatedMetrics,
  runJobs: async () => {},
});

const bare = () => new Response('ok');
const appServer = overHttp ? Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request, server) => app.fetch(request, server) }) : null;
const bareServer = overHttp ? Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: bare }) : null;
const base = appServer ? `http://127.0.0.1:${appServer.port}` : 'http://localhost';

async function call(handler: 'app' | 'bare', path: string, headers: Record<string, string>): Promise<Response> {
  if (overHttp) return fetch(`${handler === 'app' ? base : `http://127.0.0.1:${bareServer!.port}`}${path}`, { headers, decompress: false });
  // A Host header as every HTTP/1.1 request has (without one, the Host check parses each URL).
  const request = new Request(`${base}${path}`, { headers: { host: 'localhost', ...headers } });
  return handler === 'app' ? app.fetch(request) : bare();
}

const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((line) => line.startsWith('csa_session='))
    ?.split(';')[0];

async function post(path: string, json: unknown, cookie?: string, method = 'POST'): Promise<Response> {
  const headers: Record<string, string> = { origin: 'http://localhost', 'content-type': 'application/json', ...(cookie ? { cookie } : {}) };
  return app.fetch(new Request(`http://localhost${path}`, { method, headers, body: JSON.stringify(json) }));
}

async function apiSession(path: string, json: unknown): Promise<string> {
  const response = await post(path, json);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return cookieOf(response)!;
}

/** A shopper with a complete profile and a card, signed in through the API as page-shares.ts does. */
async function signedInCookie(): Promise<string> {
  const cookie = await apiSession('/api/register', { username: 'hitcosts', password: 'secret-pass' });
  const profile = await post('/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } }, cookie, 'PATCH');
  if (!profile.ok) throw new Error(`profile: ${profile.status} ${await profile.text()}`);
  return cookie;
}

const cookie = await signedInCookie();
if (busy) {
  buildYear(db, Date.now(), { games: 18_000, openGames: 120, snapshotRows: 50_000 });
  const now = Date.now();
  // Opened as page-shares.ts opens them: by the admin, through the API.
  const admin = await apiSession('/api/login', { username: 'admin', password: env.ADMIN_PASSWORD });
  const pinned = await post('/api/admin/pin', { pin: env.ADMIN_PIN }, admin);
  const adminCookie = cookieOf(pinned) ?? admin;
  for (let i = 0; i < 40; i++) {
    const { id } = db.$client
      .query<{ id: number }, [string, number]>(
        `insert into products (product_type, brand, model, quantity, price_cents, buy_now_enabled, bid_enabled, created_at) values ('sunglasses', 'Bench', ?, 1, 9000, 1, 1, ?) returning id`,
      )
      .get(`Auction ${i}`, now)!;
    const opened = await post(`/api/admin/products/${id}/auction`, { startingBid: 10, increment: 1 }, adminCookie, 'PUT');
    if (!opened.ok) throw new Error(`auction: ${opened.status} ${await opened.text()}`);
  }
  pageCache.noteLocalWrite();
}
const { id: productId } = db.$client
  .query<{ id: number }, []>('select id from products where archived_at is null order by quantity > 0 desc, id limit 1')
  .get()!;

const gzip = { 'accept-encoding': 'gzip' };
interface Kind {
  what: string;
  handler: 'app' | 'bare';
  path: string;
  headers: Record<string, string>;
}
const allKinds: Kind[] = [
  { what: 'bare "ok"', handler: 'bare', path: '/', headers: gzip },
  { what: '/ping', handler: 'app', path: '/ping', headers: gzip },
  { what: 'visitor /', handler: 'app', path: '/', headers: gzip },
  { what: 'visitor /products', handler: 'app', path: '/products', headers: gzip },
  { what: 'visitor product page', handler: 'app', path: `/product/${productId}`, headers: gzip },
  { what: 'signed-in /', handler: 'app', path: '/', headers: { ...gzip, cookie } },
  { what: 'signed-in product page', handler: 'app', path: `/product/${productId}`, headers: { ...gzip, cookie } },
  // Not a hit: the home page rendered for each request (page-shares' `/?r=1` row), to profile a render.
  { what: 'rendered /?r=1', handler: 'app', path: '/?r=1', headers: gzip },
];
const kinds = allKinds.filter((kind, index) => index === 0 || !process.env.ONLY || kind.what.includes(process.env.ONLY));

// WRK=/ping (with --http): wrk loads that row for 5 s and the script ends, for `bun --cpu-prof` to see the server's side.
if (overHttp && process.env.WRK) {
  const kind = kinds.find((one) => one.what === process.env.WRK)!;
  const headers = Object.entries(kind.headers).flatMap(([name, value]) => ['-H', `${name}: ${value}`]);
  const child = Bun.spawn(['wrk', '-t1', '-c32', '-d5s', ...headers, `${base}${kind.path}`], { stdout: 'inherit' });
  await child.exited;
  process.exit(0);
}

const bytes = kinds.map(() => 0);
for (const [index, kind] of kinds.entries()) {
  // Fill the caches (a page is kept for visitors on its second answer) and warm the JIT.
  for (let i = 0; i < 200; i++) {
    const response = await call(kind.handler, kind.path, kind.headers);
    if (response.status !== 200) throw new Error(`${kind.what}: ${response.status}`);
    bytes[index] = (await response.arrayBuffer()).byteLength;
    if (process.env.SHOW_HEADERS && i === 199) console.log(kind.what, [...response.headers]);
  }
}

// This thread's CPU time too (clock_gettime(CLOCK_THREAD_CPUTIME_ID), Linux, as render-costs.ts):
// the process's CPU time also counts the collector's and compiler's threads, which vary a lot
// from run to run on a loaded machine.
const libc = dlopen('libc.so.6', { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
const timespec = new BigInt64Array(2);
function threadMicros(): number {
  libc.symbols.clock_gettime(3, ptr(timespec));
  return Number(timespec[0]!) * 1e6 + Number(timespec[1]!) / 1e3;
}
const perRound = kinds.map(() => [] as number[]);
const threadPerRound = kinds.map(() => [] as number[]);
/** Of the last round's requests, the share answered from a kept answer (a page's hit). */
const hitShare = kinds.map(() => 0);
for (let round = 0; round < rounds; round++) {
  for (const [index, kind] of kinds.entries()) {
    // CPU time, not wall time: other processes on a shared machine take turns on the cores, not this process's work.
    const hitsBefore = pageCache.hits;
    const started = process.cpuUsage();
    const threadStarted = threadMicros();
    for (let i = 0; i < requests; i++) {
      const response = await call(kind.handler, kind.path, kind.headers);
      if (!process.env.NOBODY) await response.arrayBuffer();
    }
    const used = process.cpuUsage(started);
    perRound[index]!.push((used.user + used.system) / requests);
    threadPerRound[index]!.push((threadMicros() - threadStarted) / requests);
    hitShare[index] = (pageCache.hits - hitsBefore) / requests;
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const bareMicros = median(perRound[0]!);
console.log(
  `${overHttp ? 'over a local Bun.serve' : 'app.fetch called directly'}, ${requests} serial requests a row, median of ${rounds} interleaved rounds${busy ? ', busy store' : ''}\n`,
);
console.log('| kind | CPU µs per request | bare / kind | this thread µs | bare / kind | thread, least round | body bytes | kept answers |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
const bareThread = median(threadPerRound[0]!);
for (const [index, kind] of kinds.entries()) {
  const micros = median(perRound[index]!);
  const thread = median(threadPerRound[index]!);
  console.log(
    `| ${kind.what} | ${micros.toFixed(1)} | ${((bareMicros / micros) * 100).toFixed(1)}% | ${thread.toFixed(1)} | ${((bareThread / thread) * 100).toFixed(1)}% | ${Math.min(...threadPerRound[index]!).toFixed(1)} | ${bytes[index]} | ${(hitShare[index]! * 100).toFixed(0)}% |`,
  );
}
appServer?.stop(true);
bareServer?.stop(true);
db.$client.close();
