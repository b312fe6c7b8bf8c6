import { countedAs } from './db/statement-count.ts';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'bun';
// What each kind of payment row means, registered once with the money engine before anything runs.
import './flows/payment-purposes.ts';
import { join, resolve } from 'node:path';
import { createApp } from './app.ts';
import { verifyGameCommand } from './cli/verify-game.ts';
import { verifyDrawCommand } from './cli/verify-draw.ts';
import { backupCommand, restoreCommand } from './cli/backups.ts';
import { loadManifest } from './assets.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { applyMigrations, openDatabase } from './db/client.ts';
import { ensureKeyPrefix } from './domain/payments/keys.ts';
import { loadSeedKey, setSeedKey } from './domain/operations/sealed-seeds.ts';
import { checkSeedKey, recommitAfterRestore, sealPlainSeeds } from './flows/recommit-seeds.ts';
import { seedIfEmpty } from './db/seed.ts';
import { openDemoAuctions } from './domain/auctions/demo-auctions.ts';
import { createAccountLimits } from './domain/accounts/account-limits.ts';
import { bootstrapAdmin } from './domain/accounts/bootstrap-admin.ts';
import { ManualClock, systemClock } from './domain/clock.ts';
import { imageStore } from './domain/catalog/images.ts';
import { shareCardStore } from './domain/catalog/share-cards.ts';
import { gatewayFromConfig } from './domain/payments/index.ts';
import { metricsFromConfig } from './domain/games/metrics-source.ts';
import { PageCache } from './http/page-cache.ts';
import { createLifecycle, type Lifecycle } from './http/lifecycle.ts';
import { isEmbedded } from './runtime-files.ts';
import { gameDepsOf } from './http/domain-deps.ts';
import { errorFields, flushLogs, log, setLogLevel } from './log.ts';
import { closingConnection, requestTracker, stopOnSignals } from './shutdown.ts';
import { createTelemetry } from './telemetry.ts';
import { leaseHolderId } from './domain/operations/job-lease.ts';
import { startProcessHeartbeat } from './domain/operations/process-lease.ts';
import { observedGateway } from './domain/payments/observed-gateway.ts';
import { storefrontVersion } from './domain/catalog/storefront-version.ts';
import { storeJobs } from './jobs/index.ts';
import { startMailPump } from './domain/mail/sender.ts';
import { fileTransport, smtpTransport } from './domain/mail/transport.ts';
import { startScheduler } from './jobs/scheduler.ts';
import { argon2idHasher } from './domain/accounts/passwords.ts';

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

/** Process entry: configuration, the port, DATA_DIR, then database, migrations, seed, jobs and the app. */
export async function main(): Promise<void> {
  if (process.argv.includes('--healthcheck')) await healthcheck();
  const verifyAt = process.argv.indexOf('verify-game');
  if (verifyAt > 0) process.exit(verifyGameCommand(process.argv.slice(verifyAt + 1)));
  const drawAt = process.argv.indexOf('verify-draw');
  if (drawAt > 0) process.exit(verifyDrawCommand(process.argv.slice(drawAt + 1)));
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
    if (error instanceof ConfigError) refuseToStart(error.message);
    throw error;
  }
  setLogLevel(config.logLevel);

  /*
   * Every refusal comes before anything is written or any lease taken: the port is claimed
   * first (a second start on a taken port must not migrate, seed and take the jobs lease of
   * the store it cannot serve), then DATA_DIR is checked. Requests that come while the store
   * gets ready wait for it; /readyz says 'starting'.
   */
  const lifecycle = createLifecycle();
  let app: ReturnType<typeof createApp> | undefined;
  let appReady: (ready: ReturnType<typeof createApp>) => void = () => {};
  const appWhenReady = new Promise<ReturnType<typeof createApp>>((resolve) => (appReady = resolve));
  // Requests in flight, so a shutdown can let them finish.
  const requests = requestTracker();
  const answered = (response: Response) => {
    requests.finished();
    return lifecycle.draining() ? closingConnection(response) : response;
  };
  const broke = (error: unknown) => {
    requests.finished();
    throw error;
  };
  const whileStarting = async (request: Request, bunServer: Server<undefined>) => {
    if (new URL(request.url).pathname === '/readyz') return Response.json({ status: 'starting' }, { status: 503, headers: { 'Cache-Control': 'no-store' } });
    return (await appWhenReady).fetch(request, bunServer);
  };
  // No async function of its own: an answer the app gives at once goes back at once.
  const server = listenOrRefuse(config, (request, bunServer) => {
    requests.started();
    let answer: Response | Promise<Response>;
    try {
      answer = app ? app.fetch(request, bunServer) : whileStarting(request, bunServer);
    } catch (error) {
      return broke(error);
    }
    return answer instanceof Promise ? answer.then(answered, broke) : answered(answer);
  });
  const dataDir = resolve(config.dataDir);
  const unwritable = dataDirProblem(dataDir);
  if (unwritable) refuseToStart(unwritable);
  if (config.envDefaulted) {
    // Development generates an admin password, seeds demo products and writes e-mails to files.
    const warning =
      'NODE_ENV is not set: running in DEVELOPMENT (generated admin password, demo products, e-mails as files). Set NODE_ENV=production for a real store.';
    log.warn({ event: 'development_mode' }, warning);
    if (isEmbedded()) console.error(warning);
  }

  let store: Awaited<ReturnType<typeof startStore>>;
  try {
    store = await startStore(config, dataDir, lifecycle);
  } catch (error) {
    log.fatal({ event: 'start_failed', ...errorFields(error) }, 'start-up failed');
    await flushLogs();
    refuseToStart(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const { db, scheduler, mailPump, seeded, generated, mailDir, jobsHolder, heartbeat } = store;
  app = store.app;
  appReady(store.app);
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
    stopJobs: () => Promise.all([scheduler.stop(), mailPump.stop()]).finally(heartbeat.stop),
    closeDatabase: () => db.$client.close(),
  });
  process.on('unhandledRejection', (error) => log.error({ event: 'unhandled_rejection', ...errorFields(error) }, 'unhandled promise rejection'));
}

/** One line on stderr and exit 1: how every start-up refusal ends, before anything is written. */
function refuseToStart(message: string): never {
  console.error(message);
  process.exit(1);
}

/** Claims the port before anything else happens; a taken port or a bad address is one line and exit 1. */
function listenOrRefuse(config: Config, fetch: (request: Request, server: Server<undefined>) => Response | Promise<Response>): Server<undefined> {
  try {
    return Bun.serve({ hostname: config.host, port: config.port, maxRequestBodySize: 16 * 1024 * 1024, fetch });
  } catch (error) {
    const code = (error as { code?: string }).code;
    const reason =
      code === 'EADDRINUSE' ? 'the port is in use (another store or program listens there)' : error instanceof Error ? error.message : String(error);
    refuseToStart(`Cannot listen on ${config.host}:${config.port}: ${reason}. Nothing was started.`);
  }
}

/** Why DATA_DIR cannot hold the store, or null: made when missing, and written to. */
function dataDirProblem(dataDir: string): string | null {
  try {
    mkdirSync(dataDir, { recursive: true });
    accessSync(dataDir, constants.W_OK);
    const database = join(dataDir, 'store.db');
    if (existsSync(database)) accessSync(database, constants.R_OK | constants.W_OK);
    return null;
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
    return `DATA_DIR ${dataDir} is not a folder this process can write (${code}): make it writable by this user or set DATA_DIR elsewhere.`;
  }
}

/** Database, migrations, seed, jobs and the app: the store behind the port already claimed. */
async function startStore(config: Config, dataDir: string, lifecycle: Lifecycle) {
  const db = openDatabase(join(dataDir, 'store.db'));
  await applyMigrations(db);
  // The gateway key prefix exists before the first request (any number of processes may start at once).
  ensureKeyPrefix(db.$client);
  // Unrevealed seeds are sealed under SEED_KEY (DATA_DIR/seed.key in development), never readable from the file alone.
  setSeedKey(loadSeedKey({ seedKey: config.seedKey, dataDir }));
  checkSeedKey(db);
  sealPlainSeeds(db);

  const clock = config.clock === 'manual' ? new ManualClock() : systemClock;
  const { seeded } = seedIfEmpty(db, clock, { demoProducts: config.seedDemo });
  if (seeded && config.seedDemo) openDemoAuctions({ db, clock });
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
  // A restored store re-commits its draws before it serves a request or runs a job (flows/recommit-seeds.ts).
  const recommitted = await recommitAfterRestore(gameDepsOf({ db, clock, gateway, metrics, config }));
  if (recommitted)
    log.warn(
      { event: 'restore_recommitted', ...recommitted },
      'Restored store: new seeds committed for every mystery box and waiting game; games live at the backup voided.',
    );
  const jobsHolder = leaseHolderId();
  // Requests' idempotency keys name this process; the heartbeat tells others it still runs them.
  const heartbeat = startProcessHeartbeat(db, jobsHolder);
  const scheduler = startScheduler(
    // Their statements count as 'job' in csa_db_statements_total.
    storeJobs(db, gameDepsOf({ db, clock, gateway, metrics, config }), { ...config, uploadsDir: join(dataDir, 'uploads') }).map((job) => ({
      ...job,
      run: (now: number) => countedAs(db.$client, 'job', () => job.run(now)),
    })),
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
          ? smtpTransport(config.mail.smtpUrl, config.mail.from, config.supportEmail)
          : fileTransport(mailDir, config.mail.from, config.supportEmail),
    active: scheduler.holdsLease,
    observe: telemetry.observeEmail,
  });
  const images = imageStore(join(dataDir, 'uploads'));
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
  return { app, db, scheduler, mailPump, seeded, generated, mailDir, jobsHolder, heartbeat };
}

if (import.meta.main) await main();
