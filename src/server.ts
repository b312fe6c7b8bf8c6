import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createApp } from './app.ts';
import { verifyGameCommand } from './cli/verify-game.ts';
import { loadManifest } from './assets.ts';
import { ConfigError, loadConfig } from './config.ts';
import { applyMigrations, openDatabase } from './db/client.ts';
import { seedIfEmpty } from './db/seed.ts';
import { createAccountLimits } from './domain/accounts.ts';
import { bootstrapAdmin } from './domain/bootstrap.ts';
import { ManualClock, systemClock } from './domain/clock.ts';
import { imageStore } from './domain/images.ts';
import { gatewayFromConfig } from './domain/payments/index.ts';
import { metricsFromConfig } from './domain/games/metrics-source.ts';
import { PageCache } from './http/page-cache.ts';
import { storefrontVersion } from './domain/storefront-version.ts';
import { storeJobs } from './jobs/index.ts';
import { startScheduler } from './jobs/scheduler.ts';

/** `csa --healthcheck`: for container health checks, where no curl is installed. */
async function healthcheck(): Promise<never> {
  const port = process.env.PORT || '3000';
  try {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2500) });
    process.exit(response.ok ? 0 : 1);
  } catch {
    process.exit(1);
  }
}

/** Process entry: configuration, database, migrations, seed, jobs, then Bun.serve. */
export async function main(): Promise<void> {
  if (process.argv.includes('--healthcheck')) await healthcheck();
  const verifyAt = process.argv.indexOf('verify-game');
  if (verifyAt > 0) process.exit(verifyGameCommand(process.argv.slice(verifyAt + 1)));
  const startedAt = performance.now();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'store.db'));
  await applyMigrations(db);

  const clock = config.clock === 'manual' ? new ManualClock() : systemClock;
  const { seeded } = seedIfEmpty(db, clock, { demoProducts: config.seedDemo });
  const { adminPin, generated } = await bootstrapAdmin(db, clock, config);
  const manifest = await loadManifest();

  const gateway = await gatewayFromConfig(config);
  const metrics = metricsFromConfig(db, config);
  const scheduler = startScheduler(storeJobs(db, { db, clock, gateway, metrics, dailyEntryLimit: config.dailyEntryLimit }), clock);
  const app = createApp({
    db,
    config,
    clock,
    manifest,
    adminPin,
    limits: createAccountLimits(db, clock, config.rateLimit),
    images: imageStore(join(dataDir, 'uploads')),
    pageCache: new PageCache(() => storefrontVersion(db)),
    gateway,
    metrics,
    runJobs: scheduler.tick,
  });
  // Requests in flight, so a shutdown can let them finish.
  let inFlight = 0;
  let onIdle: (() => void) | null = null;
  const server = Bun.serve({
    port: config.port,
    maxRequestBodySize: 16 * 1024 * 1024,
    async fetch(request, bunServer) {
      inFlight++;
      try {
        return await app.fetch(request, bunServer);
      } finally {
        if (--inFlight === 0) onIdle?.();
      }
    },
  });

  if (seeded)
    console.log(config.seedDemo ? `Seeded the demo store in ${dataDir}` : `Seeded the influencers in ${dataDir} (no demo products: SEED_DEMO=1 adds them)`);
  if (config.testModeBanner) console.log('PAYMENTS=test in production: no real payments are taken, and every page says so.');
  if (generated.adminPassword || generated.adminPin) {
    console.log('\n  First start: bootstrap admin created');
    if (generated.adminPassword) {
      console.log(`    username: ${generated.adminUsername}`);
      console.log(`    password: ${generated.adminPassword}`);
    }
    if (generated.adminPin) console.log(`    admin PIN: ${generated.adminPin}`);
    console.log('  Set ADMIN_PASSWORD and ADMIN_PIN to choose your own.\n');
  }
  console.log(`${config.siteName} store listening on http://localhost:${server.port} (${Math.round(performance.now() - startedAt)} ms to ready)`);

  /*
   * Graceful shutdown (SIGTERM from Docker or systemd, SIGINT from a terminal): stop accepting
   * connections, let the requests in flight and a running job tick finish (a charge waiting on
   * the gateway completes and is recorded), then close the database. A second signal, or the
   * deadline SHUTDOWN_GRACE_MS, ends it at once; whatever was cut is finished by the reconciler.
   */
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) {
      console.log(`shutdown: ${signal} again, exiting now`);
      process.exit(1);
    }
    shuttingDown = true;
    const deadline = Bun.sleep(config.shutdownGraceMs).then(() => 'deadline' as const);
    console.log(`shutdown: ${signal} received, draining ${inFlight} request${inFlight === 1 ? '' : 's'} (up to ${config.shutdownGraceMs} ms)`);
    void server.stop();
    console.log('shutdown: no longer accepting connections');
    const idle = inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (onIdle = resolve));
    const requests = await Promise.race([idle.then(() => 'done' as const), deadline]);
    console.log(requests === 'done' ? 'shutdown: requests drained' : `shutdown: deadline passed with ${inFlight} requests in flight`);
    const jobs = await Promise.race([scheduler.stop().then(() => 'done' as const), deadline]);
    console.log(jobs === 'done' ? 'shutdown: jobs finished' : 'shutdown: deadline passed while a job was running');
    db.$client.close();
    console.log('shutdown: database closed');
    process.exit(requests === 'done' && jobs === 'done' ? 0 : 1);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

if (import.meta.main) await main();
