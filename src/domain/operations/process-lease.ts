import { hostname } from 'node:os';
import type { Db } from '../../db/client.ts';
import { holdLease, releaseLease } from './job-lease.ts';

/*
 * Is a process still alive? Each process renews a liveness row (a lease in job_leases named
 * after it) while it runs; a request's idempotency key names the process running it
 * (payments/idempotency.ts), so another process can tell a request still running from one cut
 * off by a crash. Times are wall-clock time, never the game clock, which tests move or stop.
 */

/** A live process renews its row this often... */
export const PROCESS_HEARTBEAT_MS = 2_000;
/** ...and is taken for dead once the row has not been renewed for this long. */
export const PROCESS_LEASE_MS = 10_000;

const leaseName = (holder: string) => `process:${holder}`;

/** This process is alive for PROCESS_LEASE_MS more. */
export function renewProcessLease(db: Db, holder: string, now = Date.now()): void {
  holdLease(db, holder, now, PROCESS_LEASE_MS, leaseName(holder));
}

/** Renews the row until stopped; a clean stop removes it, so others know at once. */
export function startProcessHeartbeat(db: Db, holder: string): { stop: () => void } {
  renewProcessLease(db, holder);
  const timer = setInterval(() => {
    try {
      renewProcessLease(db, holder);
    } catch {
      // A busy database skips one beat; the lease outlasts several.
    }
  }, PROCESS_HEARTBEAT_MS);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      releaseLease(db, holder, leaseName(holder));
    },
  };
}

/** A process on this machine whose pid no longer exists (holder 'host:pid:random'). */
function exitedHere(holder: string): boolean {
  const [host, pid] = holder.split(':');
  if (host !== hostname() || !pid || !/^\d+$/.test(pid)) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    // EPERM: it exists under another user. Only "no such process" is proof of death.
    return (error as { code?: string }).code === 'ESRCH';
  }
}

/**
 * The process `holder` is gone: it exited on this machine (known at once), or its liveness row
 * is missing or has lapsed (another machine, or a pid taken again by another program).
 */
export function processGone(db: Db, holder: string, now = Date.now()): boolean {
  if (exitedHere(holder)) return true;
  const row = db.$client.query<{ expiresAt: number }, [string]>('select expires_at as expiresAt from job_leases where name = ?').get(leaseName(holder));
  return !row || row.expiresAt <= now;
}

/** Liveness rows of processes long gone (one per process start), for the retention job. */
export function pruneProcessLeases(db: Db, now = Date.now()): void {
  db.$client.query("delete from job_leases where name like 'process:%' and expires_at < ?").run(now - 24 * 60 * 60 * 1000);
}
