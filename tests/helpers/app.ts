import { createApp } from '../../src/app.ts';
import { loadManifest, type AssetManifest } from '../../src/assets.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { createAccountLimits } from '../../src/domain/accounts/account-limits.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { build } from '../../scripts/build.ts';
import { projectFile } from '../../src/runtime-files.ts';
import { imageStore } from '../../src/domain/catalog/images.ts';
import { shareCardStore } from '../../src/domain/catalog/share-cards.ts';
import { createTelemetry } from '../../src/telemetry.ts';
import { PageCache, type PageCacheOptions } from '../../src/http/page-cache.ts';
import { createLifecycle } from '../../src/http/lifecycle.ts';
import { storefrontVersion } from '../../src/domain/catalog/storefront-version.ts';
import { createTestGateway } from '../../src/domain/payments/test-gateway.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { argon2idHasher, TEST_PASSWORD_COST } from '../../src/domain/accounts/passwords.ts';
import { openSeededDatabase } from './seeded-db.ts';

export const TEST_ORIGIN = 'http://localhost';
export const TEST_PIN = '246810';

let manifest: Promise<AssetManifest> | undefined;

/** The client build's manifest; builds once when a test run starts without `bun run build`. */
export function testManifest(): Promise<AssetManifest> {
  manifest ??= projectFile('dist/manifest.json') ? loadManifest() : build();
  return manifest;
}

export const TEST_START = Date.UTC(2026, 10, 21, 18, 0, 0);

/*
 * The configuration of an environment, checked once per worker (zod's parse was a tenth of an
 * app's set-up); each app gets its own copy, since a test may change a setting of its app.
 */
const configs = new Map<string, Config>();
function testConfig(env: Record<string, string>): Config {
  const key = JSON.stringify(env);
  let config = configs.get(key);
  if (config === undefined) {
    config = loadConfig(env);
    configs.set(key, config);
  }
  return { ...config };
}

/**
 * A fresh app on an in-memory database with a manual clock, and a cookie-keeping client.
 * With `seededAt`, the clock starts there and the store holds the seed catalogue seedIfEmpty
 * writes at that time (a copy of one seeded per worker: see seeded-db.ts). The page cache reads
 * the storefront version on every lookup unless `pageCache` says otherwise.
 */
export async function testApp(env: Record<string, string> = {}, options: { seededAt?: number; pageCache?: PageCacheOptions } = {}) {
  const { seededAt } = options;
  const db = seededAt === undefined ? await openMigratedDatabase() : await openSeededDatabase(seededAt);
  const clock = new ManualClock(seededAt ?? TEST_START);
  const config = testConfig({ NODE_ENV: 'test', PUBLIC_URL: TEST_ORIGIN, ADMIN_PASSWORD: 'admin-secret', ADMIN_PIN: TEST_PIN, ...env });
  const uploadsDir = mkdtempSync(join(tmpdir(), 'csa-uploads-'));
  const images = imageStore(uploadsDir);
  const pageCache = new PageCache(() => storefrontVersion(db), options.pageCache ?? { recheckMs: 0 });
  const gateway = createTestGateway();
  const passwords = argon2idHasher(TEST_PASSWORD_COST);
  const lifecycle = createLifecycle();
  const app = createApp({
    db,
    config,
    clock,
    manifest: await testManifest(),
    adminPin: TEST_PIN,
    limits: createAccountLimits(db, clock, config.rateLimit),
    passwords,
    images,
    shareCards: shareCardStore(join(uploadsDir, 'share-cards'), images),
    pageCache,
    telemetry: createTelemetry(db, { pageCache: () => pageCache }),
    jobsHolder: 'test',
    lifecycle,
    gateway,
    metrics: simulatedMetrics,
    runJobs: async () => void (await runGameJobs({ db, clock, gateway, metrics: simulatedMetrics })),
  });
  return { app, db, clock, config, images, uploadsDir, pageCache, gateway, passwords, lifecycle, client: () => new TestClient(app) };
}

/** What testApp gives a test: the app, its database, clock and stores, and a client maker. */
export type TestApp = Awaited<ReturnType<typeof testApp>>;

/** testApp with the seed catalogue in place: seven products of each type. */
export function seededApp(env: Record<string, string> = {}): Promise<TestApp> {
  return testApp(env, { seededAt: TEST_START });
}

type AppLike = { request: (input: string, init?: RequestInit) => Response | Promise<Response> };

interface RequestOptions {
  json?: unknown;
  form?: Record<string, string>;
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** Sends requests through app.request() and keeps cookies between them, as a browser would. */
export class TestClient {
  readonly cookies = new Map<string, string>();

  constructor(private readonly app: AppLike) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    let body: BodyInit | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(options.json);
    }
    if (options.form) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    // Browsers send Origin with every POST; a test that wants none passes origin: ''.
    if (method !== 'GET' && method !== 'HEAD') headers.origin ??= TEST_ORIGIN;
    if (headers.origin === '') delete headers.origin;
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await this.app.request(`${TEST_ORIGIN}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      const expired = /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line);
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, options);
  }

  post(path: string, options?: RequestOptions) {
    return this.request('POST', path, options);
  }

  patch(path: string, options?: RequestOptions) {
    return this.request('PATCH', path, options);
  }
}
