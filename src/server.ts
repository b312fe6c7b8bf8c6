import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createApp } from './app.ts';
import { loadManifest } from './assets.ts';
import { ConfigError, loadConfig } from './config.ts';
import { applyMigrations, openDatabase } from './db/client.ts';
import { seedIfEmpty } from './db/seed.ts';
import { createAccountLimits } from './domain/accounts.ts';
import { bootstrapAdmin } from './domain/bootstrap.ts';
import { ManualClock, systemClock } from './domain/clock.ts';
import { imageStore } from './domain/images.ts';
import { gatewayFromConfig } from './domain/payments/index.ts';
import { simulatedMetrics } from './domain/metrics.ts';
import { PageCache } from './http/page-cache.ts';
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
  const startedAt = performance.now();
  let config;
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
  const { seeded } = seedIfEmpty(db, clock);
  const { adminPin, generated } = await bootstrapAdmin(db, clock, config);
  const manifest = await loadManifest();

  const gateway = await gatewayFromConfig(config);
  const metrics = simulatedMetrics;
  const scheduler = startScheduler(storeJobs(db, { db, clock, gateway, metrics }), clock);
  const app = createApp({
    db,
    config,
    clock,
    manifest,
    adminPin,
    limits: createAccountLimits(clock, config.rateLimit),
    images: imageStore(join(dataDir, 'uploads')),
    pageCache: new PageCache(),
    gateway,
    metrics,
    runJobs: scheduler.tick,
  });
  const server = Bun.serve({ port: config.port, fetch: app.fetch, maxRequestBodySize: 16 * 1024 * 1024 });

  if (seeded) console.log(`Seeded the demo store in ${dataDir}`);
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

  const shutdown = () => {
    scheduler.stop();
    void server.stop();
    db.$client.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

if (import.meta.main) await main();
