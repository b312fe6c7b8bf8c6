import { hostname } from 'node:os';
import type { Db } from '../../db/client.ts';

/*
 * One process at a time runs the game jobs (docs/operations.md, "Several processes"). The
 * holder renews a lease row well before it expires; when the holder dies, the lease runs out
 * and the next process to ask takes it. Lease times are wall-clock time, never the game clock,
 * which tests may move.
 */

export const JOBS_LEASE = 'jobs';

export interface LeaseRow {
  holder: string;
  expiresAt: number;
  renewedAt: number;
  tickedAt: number | null;
}

/** This process's name in the lease row: host, pid and a random part (a pid can come back after a restart). */
export function leaseHolderId(): string {
  return `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
}

/**
 * Takes or renews the lease in one statement (an atomic upsert): it succeeds when nobody holds
 * it, when `holder` already does, or when the holder's lease has run out. True when `holder`
 * holds it now.
 */
export function holdLease(db: Db, holder: string, now: number, leaseMs: number, name = JOBS_LEASE): boolean {
  const row = db.$client
    .query<{ holder: string }, [string, string, number, number]>(
      `insert into job_leases (name, holder, expires_at, renewed_at) values (?1, ?2, ?3, ?4)
       on conflict (name) do update set
         holder = excluded.holder,
         expires_at = excluded.expires_at,
         renewed_at = excluded.renewed_at,
         ticked_at = case when job_leases.holder = excluded.holder then job_leases.ticked_at else null end
       where job_leases.holder = excluded.holder or job_leases.expires_at <= excluded.renewed_at
       returning holder`,
    )
    .get(name, holder, now + leaseMs, now);
  return row?.holder === holder;
}

/** Gives the lease up (a clean shutdown), so another process takes over at once. */
export function releaseLease(db: Db, holder: string, name = JOBS_LEASE): void {
  db.$client.query('delete from job_leases where name = ? and holder = ?').run(name, holder);
}

/** The holder finished a tick of every job: the heartbeat /readyz reads. */
export function recordTick(db: Db, holder: string, now: number, name = JOBS_LEASE): void {
  db.$client.query('update job_leases set ticked_at = ? where name = ? and holder = ?').run(now, name, holder);
}

export function leaseState(db: Db, name = JOBS_LEASE): LeaseRow | undefined {
  return (
    db.$client
      .query<LeaseRow, [string]>('select holder, expires_at as expiresAt, renewed_at as renewedAt, ticked_at as tickedAt from job_leases where name = ?')
      .get(name) ?? undefined
  );
}
