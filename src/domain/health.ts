import { sql, TransactionRollbackError } from 'drizzle-orm';
import type { Db, Queryable } from '../db/client.ts';
import journal from '../db/migrations/meta/_journal.json' with { type: 'json' };
import { storageWritable } from './disk-state.ts';
import { leaseState } from './job-lease.ts';

/** The jobs heartbeat /readyz accepts: a tick finished within two minutes (ticks run each minute). */
export const JOBS_HEARTBEAT_MAX_AGE_MS = 2 * 60_000;

/** /healthz: the database answers a query; throws with the reason when it does not. */
export function checkDatabase(db: Queryable): void {
  db.get(sql`select 1`);
}

export interface Readiness {
  ready: boolean;
  database: 'writable' | string;
  migrations: { applied: number; expected: number; ok: boolean };
  jobs: { runner: 'this process' | 'another process' | 'nobody'; heartbeatAgeMs: number | null; ok: boolean };
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
 * /readyz: the database takes writes, every migration this build knows is applied, and the game
 * jobs have a heartbeat: the process holding the jobs lease finished a tick within two minutes.
 */
export function checkReadiness(db: Db, holder: string, now: number): Readiness {
  // A rolled-back write cannot see a full disk; a write that failed for lack of space can.
  const database = storageWritable(db, now) ? databaseWritable(db) : 'full: the last writes failed for lack of disk space';
  const expected = journal.entries.length;
  const latest = journal.entries.at(-1)?.when ?? 0;
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
  const lease = leaseState(db);
  const heartbeat = lease ? (lease.tickedAt ?? lease.renewedAt) : null;
  const heartbeatAgeMs = heartbeat === null ? null : Math.max(0, now - heartbeat);
  const live = lease !== undefined && lease.expiresAt > now;
  const jobsOk = live && heartbeatAgeMs !== null && heartbeatAgeMs <= JOBS_HEARTBEAT_MAX_AGE_MS;
  return {
    ready: database === 'writable' && migrationsOk && jobsOk,
    database,
    migrations: { applied, expected, ok: migrationsOk },
    jobs: { runner: !live ? 'nobody' : lease.holder === holder ? 'this process' : 'another process', heartbeatAgeMs, ok: jobsOk },
  };
}
