import type { Db } from '../db/client.ts';
import type { Clock } from '../domain/clock.ts';
import { holdLease, recordTick, releaseLease } from '../domain/operations/job-lease.ts';
import { noteStorageFailure } from '../domain/operations/disk-state.ts';
import { errorFields, log } from '../log.ts';

export interface Job {
  name: string;
  /** Must be idempotent: it runs at start-up to catch up, then on every tick. What it returns is logged. */
  run(now: number): unknown | Promise<unknown>;
  /** Cuts short a run that would hold shutdown up for long (the backup); it runs again at the next start. */
  stop?(): void;
}

export interface SchedulerOptions {
  /** The jobs lease: only its holder runs the ticks (docs/operations.md, "Several processes"). */
  lease: { db: Db; holder: string; leaseMs: number };
  /** Told about every job run and whether this process holds the lease (the metrics). */
  observe?: { job(name: string, seconds: number, ok: boolean, finishedAt: number): void; leaseHeld(held: boolean): void };
  intervalMs?: number;
}

const jobsLog = log.child({ component: 'jobs' });

/**
 * Runs every job on the minute (Bun's timers) in the one process that holds the jobs lease.
 * Every process asks for the lease three times per lease length; the holder renews it, and when
 * the holder dies another takes it once it runs out and ticks at once to catch up. A job that
 * throws is logged and retried on the next tick; ticks never overlap.
 */
export function startScheduler(jobs: Job[], clock: Clock, options: SchedulerOptions) {
  const { db, holder, leaseMs } = options.lease;
  const intervalMs = options.intervalMs ?? 60_000;
  let held = false;
  let stopped = false;
  let tickTimer: ReturnType<typeof setTimeout> | undefined;
  let leaseTimer: ReturnType<typeof setInterval> | undefined;
  // Ticks run one after another: a tick asked for while one runs waits for it, then runs,
  // so whoever asks (the manual clock's route) sees every job that was due at that moment.
  let chain: Promise<void> = Promise.resolve();

  async function runAll(): Promise<void> {
    for (const job of jobs) {
      const started = performance.now();
      try {
        const result = await job.run(clock.now());
        const ms = performance.now() - started;
        options.observe?.job(job.name, ms / 1000, true, Date.now());
        jobsLog.info(
          { event: 'job_run', job: job.name, ms: Math.round(ms * 10) / 10, ok: true, ...(result && typeof result === 'object' ? { result } : {}) },
          `job ${job.name} ran`,
        );
      } catch (error) {
        const ms = performance.now() - started;
        options.observe?.job(job.name, ms / 1000, false, Date.now());
        // A full disk is logged once per episode (disk-state.ts); each job's failure is one short line, not a stack a minute.
        if (noteStorageFailure(db, error))
          jobsLog.warn({ event: 'job_run', job: job.name, ms: Math.round(ms), ok: false, storage: 'full' }, `job ${job.name} could not write`);
        else jobsLog.error({ event: 'job_run', job: job.name, ms: Math.round(ms), ok: false, ...errorFields(error) }, `job ${job.name} failed`);
      }
    }
    if (held) recordTick(db, holder, Date.now());
  }

  function tick(): Promise<void> {
    chain = chain.then(runAll);
    return chain;
  }

  /** Takes or renews the lease; a process that just took it catches up at once. */
  function checkLease(): void {
    if (stopped) return;
    let now: boolean;
    try {
      now = holdLease(db, holder, Date.now(), leaseMs);
    } catch (error) {
      // The database is busy or gone: act as a standby until it answers again.
      jobsLog.warn({ event: 'lease_error', ...errorFields(error) }, 'jobs lease could not be checked');
      now = false;
    }
    if (now !== held) {
      held = now;
      options.observe?.leaseHeld(held);
      jobsLog.info({ event: held ? 'lease_taken' : 'lease_lost', holder }, held ? 'this process runs the jobs now' : 'another process runs the jobs now');
      if (held) void tick();
    }
  }

  function scheduleNext(): void {
    if (stopped) return;
    const wait = intervalMs - (Date.now() % intervalMs) + 5;
    tickTimer = setTimeout(async () => {
      checkLease();
      if (held) await tick();
      scheduleNext();
    }, wait);
  }

  options.observe?.leaseHeld(false);
  checkLease();
  leaseTimer = setInterval(checkLease, Math.max(250, Math.floor(leaseMs / 3)));
  scheduleNext();
  return {
    /** No more ticks; resolves once the tick that may be running has finished, and gives the lease up. */
    async stop() {
      stopped = true;
      if (tickTimer) clearTimeout(tickTimer);
      if (leaseTimer) clearInterval(leaseTimer);
      for (const job of jobs) job.stop?.();
      await chain;
      if (held) releaseLease(db, holder);
      held = false;
    },
    /** Runs every job now, lease or not (the manual clock's test route; transitions are claimed, so a second runner is harmless). */
    tick,
    holdsLease: () => held,
  };
}

export type Scheduler = ReturnType<typeof startScheduler>;
