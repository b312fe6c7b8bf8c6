import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from './db/client.ts';
import { statementCounts } from './db/statement-count.ts';
import { storageFull } from './domain/operations/disk-state.ts';
import { JOBS_LEASE, leaseState } from './domain/operations/job-lease.ts';
import { pendingEmailCount } from './domain/mail/sender.ts';
import { requestMetrics } from './request-metrics.ts';
import { storeCounts } from './domain/operations/store-stats.ts';

/*
 * The process's Prometheus metrics (GET /metrics, docs/operations.md "What to alert on"), with
 * prom-client. Counters and histograms are fed where things happen (requests, the page cache,
 * job ticks, gateway calls); the row counts are read from the database at scrape time.
 */

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface PageCacheCounts {
  hits: number;
  misses: number;
}

export function createTelemetry(db: Db, options: { pageCache?: () => PageCacheCounts; processMetrics?: boolean } = {}) {
  const registry = new Registry();
  // Memory, CPU, event-loop lag: once per process (tests build many apps in one).
  if (options.processMetrics) {
    collectDefaultMetrics({ register: registry, prefix: 'csa_' });
    // Gauges named like counters (`promtool check metrics` refuses them), and always 0 under Bun.
    for (const name of ['active_handles_total', 'active_requests_total', 'active_resources_total']) registry.removeSingleMetric(`csa_nodejs_${name}`);
  }

  const observeRequest = requestMetrics(registry, LATENCY_BUCKETS);
  const jobDuration = new Histogram({
    name: 'csa_job_duration_seconds',
    help: 'Time one run of a job took, by job.',
    labelNames: ['job'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const jobFailures = new Counter({
    name: 'csa_job_failures_total',
    help: 'Job runs that threw, by job.',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const jobLastSuccess = new Gauge({
    name: 'csa_job_last_success_timestamp_seconds',
    help: 'When each job last finished without an error (Unix seconds).',
    labelNames: ['job'] as const,
    registers: [registry],
  });
  const jobsLeaseHeld = new Gauge({
    name: 'csa_jobs_lease_held',
    help: '1 when this process holds the jobs lease and runs the game jobs.',
    registers: [registry],
  });
  new Gauge({
    name: 'csa_jobs_heartbeat_age_seconds',
    help: 'Seconds since the jobs lease holder (any process: read from the shared database) last finished a tick. No sample while no process ever held the lease.',
    labelNames: ['lease'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const lease = leaseState(db);
      if (lease) this.set({ lease: JOBS_LEASE }, Math.max(0, Date.now() - (lease.tickedAt ?? lease.renewedAt)) / 1000);
    },
  });
  const gatewayCalls = new Counter({
    name: 'csa_gateway_calls_total',
    help: 'Payment gateway calls, by operation and outcome (ok, declined, failed, uncertain).',
    labelNames: ['operation', 'outcome'] as const,
    registers: [registry],
  });
  const gatewayDuration = new Histogram({
    name: 'csa_gateway_call_duration_seconds',
    help: 'Time a payment gateway call took, by operation.',
    labelNames: ['operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });

  const pageCache = options.pageCache;
  new Counter({
    name: 'csa_page_cache_lookups_total',
    help: 'Page cache lookups of visitor pages, by result (hit, miss).',
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      if (!pageCache) return;
      const counts = pageCache();
      this.reset();
      this.inc({ result: 'hit' }, counts.hits);
      this.inc({ result: 'miss' }, counts.misses);
    },
  });
  new Gauge({
    name: 'csa_page_cache_hit_ratio',
    help: 'Share of visitor page lookups answered from the page cache since the process started.',
    registers: [registry],
    collect() {
      const counts = pageCache?.() ?? { hits: 0, misses: 0 };
      const total = counts.hits + counts.misses;
      this.set(total === 0 ? 0 : counts.hits / total);
    },
  });

  // Counted as plain numbers where they run (db/statement-count.ts), handed over when scraped.
  const statements = statementCounts(db.$client);
  new Counter({
    name: 'csa_db_statements_total',
    help: 'SQL statements run on the database connection, by route pattern (job: the game jobs; other: outside requests and jobs).',
    labelNames: ['route'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [route, count] of statements.snapshot()) this.inc({ route }, count);
    },
  });

  // Row counts, read when Prometheus scrapes: every process reports the same shared numbers.
  let counts: ReturnType<typeof storeCounts> | undefined;
  const fresh = () => (counts ??= storeCounts(db));
  new Gauge({
    name: 'csa_orders',
    help: 'Orders by status.',
    labelNames: ['status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of fresh().ordersByStatus) this.set({ status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'csa_payments',
    help: 'Payment rows by kind and status.',
    labelNames: ['kind', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of fresh().paymentsByKindAndStatus) this.set({ kind: row.kind, status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'csa_games',
    help: 'Games by status.',
    labelNames: ['status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const row of fresh().gamesByStatus) this.set({ status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'csa_payments_reconciler_backlog',
    help: 'Payments in an in-between state (charging, authorizing, capturing, voiding, refunding) that the reconciler may have to resolve.',
    registers: [registry],
    collect() {
      this.set(fresh().reconcilerBacklog);
    },
  });
  const emails = new Counter({
    name: 'csa_emails_total',
    help: 'Outbox e-mails by outcome: sent, retry (a failed attempt that will be retried), failed (given up).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  new Gauge({
    name: 'csa_email_outbox_backlog',
    help: 'E-mails queued and not sent yet; growing means the SMTP server is refusing or unreachable.',
    registers: [registry],
    collect() {
      this.set(pendingEmailCount(db));
    },
  });

  new Gauge({
    name: 'csa_storage_full',
    help: '1 while this process cannot write to the database (disk full or failing): writes answer 503 and /readyz fails.',
    registers: [registry],
    collect() {
      this.set(storageFull(db) ? 1 : 0);
    },
  });

  return {
    registry,
    /** The text of GET /metrics; the row counts are read once per scrape. */
    async scrape(): Promise<string> {
      counts = undefined;
      try {
        return await registry.metrics();
      } finally {
        counts = undefined;
      }
    },
    observeRequest,
    observeJob(job: string, seconds: number, ok: boolean, finishedAt: number): void {
      jobDuration.observe({ job }, seconds);
      if (ok) jobLastSuccess.set({ job }, finishedAt / 1000);
      else jobFailures.inc({ job });
    },
    setLeaseHeld(held: boolean): void {
      jobsLeaseHeld.set(held ? 1 : 0);
    },
    observeEmail(outcome: 'sent' | 'retry' | 'failed'): void {
      emails.inc({ outcome });
    },
    observeGatewayCall(operation: string, outcome: string, seconds: number): void {
      gatewayCalls.inc({ operation, outcome });
      gatewayDuration.observe({ operation }, seconds);
    },
  };
}

export type Telemetry = ReturnType<typeof createTelemetry>;
