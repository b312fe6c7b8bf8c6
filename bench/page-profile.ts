/**
 * In-process timings of single page renders against a store file (one kept by
 * `BENCH_KEEP=1 bun bench/scoreboard-year.ts`): where a page's time goes, with SQL counted.
 * Usage: bun bench/page-profile.ts DATA_DIR [path...]
 */
import { join } from 'node:path';
import { createApp } from '../src/app.ts';
import { loadManifest } from '../src/assets.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { createAccountLimits } from '../src/domain/accounts/account-limits.ts';
import { systemClock } from '../src/domain/clock.ts';
import { simulatedMetrics } from '../src/domain/games/simulation.ts';
import { imageStore } from '../src/domain/catalog/images.ts';
import { argon2idHasher, TEST_PASSWORD_COST } from '../src/domain/accounts/passwords.ts';
import { createTestGateway } from '../src/domain/payments/test-gateway.ts';
import { shareCardStore } from '../src/domain/catalog/share-cards.ts';
import { storefrontVersion } from '../src/domain/catalog/storefront-version.ts';
import { createLifecycle } from '../src/http/lifecycle.ts';
import { PageCache } from '../src/http/page-cache.ts';
import { log } from '../src/log.ts';
import { createTelemetry } from '../src/telemetry.ts';

log.level = 'warn';
const dataDir = process.argv[2]!;
const paths = process.argv.slice(3);
const db = openDatabase(join(dataDir, 'store.db'));
let statements = 0;
const prepare = db.$client.prepare.bind(db.$client);
const query = db.$client.query.bind(db.$client);
db.$client.prepare = ((sql: string, ...rest: unknown[]) => {
  statements++;
  return (prepare as (...a: unknown[]) => unknown)(sql, ...rest);
}) as typeof db.$client.prepare;
db.$client.query = ((sql: string) => {
  statements++;
  return query(sql);
}) as typeof db.$client.query;
const images = imageStore(join(dataDir, 'uploads'));
const pageCache = new PageCache(() => storefrontVersion(db));
const app = createApp({
  db,
  lifecycle: createLifecycle(),
  config: loadConfig({ NODE_ENV: 'test', ADMIN_PASSWORD: 'admin-secret', ADMIN_PIN: '246810' }),
  clock: systemClock,
  manifest: await loadManifest(),
  adminPin: '246810',
  limits: createAccountLimits(db, systemClock, false),
  passwords: argon2idHasher(TEST_PASSWORD_COST),
  images,
  shareCards: shareCardStore(join(dataDir, 'share-cards'), images),
  pageCache,
  telemetry: createTelemetry(db),
  jobsHolder: 'test',
  gateway: createTestGateway(),
  metrics: simulatedMetrics,
  runJobs: async () => {},
});
// ADMIN=1: signed in as the admin (ADMIN_PASSWORD, default admin-secret) past the PIN; USER_NAME=name: as that player (a session made directly).
let cookie = process.env.COOKIE;
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((line) => line.startsWith('csa_session='))
    ?.split(';')[0];
if (process.env.ADMIN) {
  const origin = { origin: 'http://localhost', 'content-type': 'application/json' };
  const login = await app.request('/api/login', {
    method: 'POST',
    headers: origin,
    body: JSON.stringify({ username: 'admin', password: process.env.ADMIN_PASSWORD ?? 'admin-secret' }),
  });
  cookie = cookieOf(login);
  const pin = await app.request('/api/admin/pin', { method: 'POST', headers: { ...origin, cookie: cookie! }, body: JSON.stringify({ pin: '246810' }) });
  cookie = cookieOf(pin) ?? cookie;
}
if (process.env.USER_NAME) {
  const { createSession, generateSessionToken } = await import('../src/domain/accounts/sessions.ts');
  const user = db.$client.query('select id from users where username = ?').get(process.env.USER_NAME) as { id: number };
  const token = generateSessionToken();
  createSession(db, systemClock, token, user.id);
  cookie = `csa_session=${token}`;
}
for (const path of paths) {
  for (let i = 0; i < 3; i++) {
    // NOCACHE=1: every render as after a storefront change (the pages' cost, not the cache's).
    if (process.env.NOCACHE) pageCache.clear();
    statements = 0;
    const began = performance.now();
    const response = await app.request(path, { headers: cookie ? { cookie } : {} });
    const body = await response.text();
    console.log(`${path} #${i}: ${response.status} ${(performance.now() - began).toFixed(1)} ms, ${statements} statements, ${body.length} chars`);
  }
}
