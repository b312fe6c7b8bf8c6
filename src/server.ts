import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createApp } from './app.ts';
import { verifyGameCommand } from './cli/verify-game.ts';
import { backupCommand, restoreCommand } from './cli/backups.ts';
import { loadManifest } from './assets.ts';
import { ConfigError, loadConfig } from './config.ts';
import { applyMigrations, openDatabase } from './db/client.ts';
import { ensureKeyPrefix } from './domain/payments/keys.ts';
import { seedIfEmpty } from './db/seed.ts';
import { createAccountLimits } from './domain/accounts.ts';
import { bootstrapAdmin } from './domain/bootstrap.ts';
import { ManualClock, systemClock } from './domain/clock.ts';
import { imageStore } from './domain/images.ts';
import { shareCardStore } from './domain/share-cards.ts';
import { gatewayFromConfig } from './domain/payments/index.ts';
import { metricsFromConfig } from './domain/games/metrics-source.ts';
import { PageCache } from './http/page-cache.ts';
import { gameDepsOf } from './http/domain-deps.ts';
import { errorFields, log, setLogLevel } from './log.ts';
import { createLifecycle } from './http/lifecycle.ts';
import { closingConnection, requestTracker, stopOnSignals } from './shutdown.ts';
import { createTelemetry } from './telemetry.ts';
import { leaseHolderId } from './domain/job-lease.ts';
import { observedGateway } from './domain/payments/observed-gateway.ts';
import { storefrontVersion } from './domain/storefront-version.ts';
import { storeJobs } from './jobs/index.ts';
import { startMailPump } from './domain/mail/sender.ts';
import { fileTransport, smtpTransport } from './domain/mail/transport.ts';
import { startScheduler } from './jobs/scheduler.ts';
import { argon2idHasher } from './domain/passwords.ts';

/** `csa --healthcheck`: for container health checks, where no curl is installed. */
async function healthcheck(): Promise<never> {
  const port = process.env.PORT || '3000';
  // Bound to every interface: ask over loopback; bound to one address: ask there.
  const bound = process.env.HOST || '127.0.0.1';
  const host = bound === '0.0.0.0' ? '127.0.0.1' : bound === '::' ? '[::1]' : bound.includes(':') ? `[${bound}]` : bound;
  try {
    const response = await fetch(`http://${host}:${port}/healthz`, { signal: AbortSignal.timeout(2500) });
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
  // `csa backup FILE` / `csa restore FILE` (the compiled binary's subcommands).
  const subcommand = process.argv.findIndex((arg) => arg === 'backup' || arg === 'restore');
  if (subcommand > 0) {
    const args = process.argv.slice(subcommand + 1);
    process.exit(process.argv[subcommand] === 'backup' ? backupCommand(args) : restoreCommand(args));
  }
  const startedAt = performance.now();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // Before anything runs, in the operator's words on stderr: the one line that is not JSON.
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  setLogLevel(config.logLevel);

  const dataDir = resolve(config.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'store.db'));
  await applyMigrations(db);
  // The gateway key prefix exists before the first request (any number of processes may start at once).
  ensureKeyPrefix(db.$client);

  const clock = config.clock === 'manual' ? new ManualClock() : systemClock;
  const { seeded } = seedIfEmpty(db, clock, { demoProducts: config.seedDemo });
  const passwords = argon2idHasher();
  const { adminPin, generated } = await bootstrapAdmin({ db, clock, config, passwords });
  const manifest = await loadManifest();

  const pageCache = new PageCache(() => storefrontVersion(db));
  const telemetry = createTelemetry(db, { pageCache: () => pageCache, processMetrics: true });
  const gateway = observedGateway(
    await gatewayFromConfig(config),
    (operation, outcome, seconds) => telemetry.observeGatewayCall(operation, outcome, seconds),
    db,
  );
  const metrics = metricsFromConfig(db, config);
  const jobsHolder = leaseHolderId();
  const scheduler = startScheduler(
    storeJobs(db, gameDepsOf({ db, clock, gateway, metrics, config }), { ...config, uploadsDir: join(dataDir, 'uploads') }),
    clock,
    {
      lease: { db, holder: jobsHolder, leaseMs: config.jobsLeaseMs },
      observe: {
        job: (name, seconds, ok, finishedAt) => {
          // A job may have changed what visitors see (a game started, a sale settled).
          pageCache.noteLocalWrite();
          telemetry.observeJob(name, seconds, ok, finishedAt);
        },
        leaseHeld: telemetry.setLeaseHeld,
      },
    },
  );
  // E-mail leaves from the process that runs the jobs, a couple of seconds after it is queued.
  const mailDir = join(dataDir, 'mail');
  const mailPump = startMailPump({
    db,
    clock,
    publicUrl: config.publicUrl,
    // MAIL=off: no transport, the pump settles what is queued as never to be sent.
    transport:
      config.mail.mode === 'off'
        ? null
        : config.mail.mode === 'smtp' && config.mail.smtpUrl
          ? smtpTransport(config.mail.smtpUrl, config.mail.from)
          : fileTransport(mailDir, config.mail.from),
    active: scheduler.holdsLease,
    observe: telemetry.observeEmail,
  });
  const images = imageStore(join(dataDir, 'uploads'));
  const lifecycle = createLifecycle();
  const app = createApp({
    db,
    config,
    clock,
    manifest,
    adminPin,
    limits: createAccountLimits(db, clock, config.rateLimit),
    passwords,
    images,
    shareCards: shareCardStore(join(dataDir, 'share-cards'), images),
    pageCache,
    gateway,
    metrics,
    runJobs: scheduler.tick,
    telemetry,
    jobsHolder,
    lifecycle,
  });
  const requests = requestTracker();
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    maxRequestBodySize: 16 * 1024 * 1024,
    async fetch(request, bunServer) {
      requests.started();
      try {
        const response = await app.fetch(request, bunServer);
        return lifecycle.draining() ? closingConnection(response) : response;
      } finally {
        requests.finished();
      }
    },
  });

  if (seeded)
    log.info(
      { event: 'seeded', dataDir, demoProducts: config.seedDemo },
      config.seedDemo ? `Seeded the demo store in ${dataDir}` : `Seeded the influencers in ${dataDir} (no demo products: SEED_DEMO=1 adds them)`,
    );
  if (config.mail.mode === 'file') log.info({ event: 'mail_to_files', dir: mailDir }, `No SMTP_URL: e-mails are written as .eml files to ${mailDir}`);
  if (config.mail.mode === 'off') log.warn({ event: 'mail_off' }, 'MAIL=off: no e-mail is sent (queued messages are kept as mail_off, never sent later).');
  if (config.env === 'production' && /^https:/i.test(config.publicUrl) && config.trustProxy.kind === 'off') {
    // https means a proxy in front, and without TRUST_PROXY every shopper has its address.
    log.warn(
      { event: 'trust_proxy_off' },
      'PUBLIC_URL is https but TRUST_PROXY is off: every shopper shares the proxy address and its sign-in limits. Set TRUST_PROXY to the proxy address (loopback for one on this machine).',
    );
  }
  if (config.testModeBanner) log.warn({ event: 'test_payments' }, 'PAYMENTS=test in production: no real payments are taken, and every page says so.');
  if (generated.adminPassword || generated.adminPin) {
    // Development only (production requires both): shown once, so the operator can sign in.
    log.warn(
      {
        event: 'bootstrap_admin',
        username: generated.adminPassword ? generated.adminUsername : undefined,
        password: generated.adminPassword,
        adminPin: generated.adminPin,
      },
      'First start: bootstrap admin created. Set ADMIN_PASSWORD and ADMIN_PIN to choose your own.',
    );
  }
  const readyMs = Math.round(performance.now() - startedAt);
  log.info(
    { event: 'listening', host: config.host, port: server.port, readyMs, jobsHolder },
    `${config.siteName} store listening on http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${server.port} (${readyMs} ms to ready)`,
  );

  // Graceful shutdown: src/shutdown.ts.
  stopOnSignals({
    config,
    lifecycle,
    server,
    requests,
    stopJobs: () => Promise.all([scheduler.stop(), mailPump.stop()]),
    closeDatabase: () => db.$client.close(),
  });
  process.on('unhandledRejection', (error) => log.error({ event: 'unhandled_rejection', ...errorFields(error) }, 'unhandled promise rejection'));
}

if (import.meta.main) await main();
