import type { Database } from 'bun:sqlite';
import type { Db } from '../../db/client.ts';
import { log } from '../../log.ts';

/*
 * A full disk (or one failing to write) as the store lives it: every write fails with
 * SQLITE_FULL / SQLITE_IOERR while reads still work, so /healthz stays green. Once a write has
 * failed that way the process says so: one log line, writes answer 503 (app.ts), and /readyz
 * fails until a real write goes through again. The readiness check's own write is rolled back
 * and writes nothing, so it cannot see a full disk by itself.
 */

export const STORAGE_FULL_MESSAGE = 'The store cannot save anything right now; please try again shortly.';
/** While full, /readyz tries a real write at most this often. */
const PROBE_EVERY_MS = 1_000;
/** The probe's size: enough to need fresh pages, like a real order would. */
const PROBE_BYTES = 32 * 1024;

interface StorageState {
  fullSince: number | null;
  probedAt: number;
}

const states = new WeakMap<Database, StorageState>();

function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_')) return code;
  }
  return undefined;
}

/** SQLite could not write to the disk: it is full, or failing. */
export function isStorageFailure(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'SQLITE_FULL' || (code?.startsWith('SQLITE_IOERR') ?? false);
}

/**
 * Called with a request's error: true when it is a storage failure (the caller answers 503).
 * The first one of an episode is logged; the rest are the same news.
 */
export function noteStorageFailure(db: Db, error: unknown, now = Date.now()): boolean {
  if (!isStorageFailure(error)) return false;
  const state = states.get(db.$client) ?? { fullSince: null, probedAt: 0 };
  states.set(db.$client, state);
  state.probedAt = now;
  if (state.fullSince === null) {
    state.fullSince = now;
    log.error(
      { event: 'storage_full', code: codeOf(error), error: error instanceof Error ? error.message : String(error) },
      'The database cannot write (disk full or failing): writes answer 503 and /readyz fails until a write goes through again.',
    );
  }
  return true;
}

/** A committed write that needs fresh pages, undone in the same transaction. */
function probeWrite(db: Db): void {
  const sqlite = db.$client;
  sqlite
    .transaction(() => {
      sqlite
        .query("insert or replace into app_settings (key, value, updated_at) values ('storage_probe', hex(zeroblob(?)), ?)")
        .run(PROBE_BYTES / 2, Date.now());
      sqlite.query("delete from app_settings where key = 'storage_probe'").run();
    })
    .immediate();
}

/** Whether this process's last writes failed for lack of disk and no probe has written since (the csa_storage_full gauge). */
export function storageFull(db: Db): boolean {
  return (states.get(db.$client)?.fullSince ?? null) !== null;
}

/** For /readyz: false while writes fail for lack of disk; once a probe write goes through, true again (and logged). */
export function storageWritable(db: Db, now = Date.now()): boolean {
  const state = states.get(db.$client);
  if (!state || state.fullSince === null) return true;
  if (now - state.probedAt < PROBE_EVERY_MS) return false;
  state.probedAt = now;
  try {
    probeWrite(db);
  } catch {
    // Still full, or busy right now: ask again at the next probe.
    return false;
  }
  log.info({ event: 'storage_ok', fullForMs: now - state.fullSince }, 'The database writes again.');
  state.fullSince = null;
  return true;
}
