import { sql, TransactionRollbackError } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { migrationJournal } from '../../runtime-files.ts';
import { storageWritable } from './disk-state.ts';
import { leaseState } from './job-lease.ts';

/** /healthz: the database answers a query; throws with the reason when it does not. */
export function checkDatabase(db: Queryable): void {
  db.get(sql`select 1`);
}

export interface Readiness {
  ready: boolean;
  database: 'writable' | string;
  migrations: { applied: number; expected: number; ok: boolean };
  /** For the operator only: which process runs the jobs and how fresh their heartbeat is. Never makes this process unready. */
  jobs: JobsHeartbeat;
}

export interface JobsHeartbeat {
  runner: 'this process' | 'another process' | 'nobody';
  /** Since the lease holder last finished a tick (or took the lease); null when nobody ever held it. */
  heartbeatAgeMs: number | null;
}

/** Takes the write lock and writes inside a transaction that is rolled back: the file accepts writes. */
function databaseWritable(db: Queryable): string {
  try {
    db.transaction((tx) => {
      tx.run(sql`update change_counters set value = value where name = 'storefront'`);
      tx.rollback();
    });
    return 'writable';
  } catch (error) {
    if (error instanceof TransactionRollbackError) return 'writable';
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The jobs' heartbeat as the shared database sees it: the same on every process. A late or
 * orphaned lease is the jobs' trouble (the csa_jobs_heartbeat_age_seconds alert), not a reason
 * to take every process out of the balancer.
 */
export function jobsHeartbeat(db: Db, holder: string, now: number): JobsHeartbeat {
  const lease = leaseState(db);
  const heartbeat = lease ? (lease.tickedAt ?? lease.renewedAt) : null;
  const live = lease !== undefined && lease.expiresAt > now;
  return {
    runner: !live ? 'nobody' : lease.holder === holder ? 'this process' : 'another process',
    heartbeatAgeMs: heartbeat === null ? null : Math.max(0, now - heartbeat),
  };
}

/**
 * /readyz, for this process only: its database takes writes and every migration this build
 * knows is applied. (Draining is the route's: it needs no database.)
 */
export function checkReadiness(db: Db, holder: string, now: number): Readiness {
  // A rolled-back write cannot see a full disk; a write that failed for lack of space can.
  const database = storageWritable(db, now) ? databaseWritable(db) : 'full: the last writes failed for lack of disk space';
  const { entries } = migrationJournal();
  const expected = entries.length;
  const latest = entries.at(-1)?.when ?? 0;
  let applied = 0;
  let newest = 0;
  try {
    const row = db.$client.query<{ n: number; newest: number | null }, []>('select count(*) as n, max(created_at) as newest from __drizzle_migrations').get();
    applied = row?.n ?? 0;
    newest = row?.newest ?? 0;
  } catch {
    // No migrations table: nothing applied.
  }
  const migrationsOk = newest >= latest && applied >= expected;
  return {
    ready: database === 'writable' && migrationsOk,
    database,
    migrations: { applied, expected, ok: migrationsOk },
    jobs: jobsHeartbeat(db, holder, now),
  };
}
