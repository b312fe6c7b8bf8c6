import { Database } from 'bun:sqlite';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/*
 * Online backups (docs/operations.md, "Backups"): `VACUUM INTO` writes a consistent copy of the
 * database from one read transaction while the store keeps serving and writing (WAL mode lets
 * writers go on). Uploaded images go beside the copy in `uploads/`; their names are generated
 * and never reused, so copying the ones missing there is enough.
 */

export class BackupError extends Error {}

/** The live database as the store opens it (`Db`), or a bare connection (the backup worker's). */
type Source = Database | { $client: Database };

/**
 * A connection for taking a backup of the live file: no pragmas that write, no migrations;
 * it waits for a writer like the store does. Used by the worker and the command line.
 */
export function openForBackup(file: string): Database {
  let sqlite: Database;
  try {
    sqlite = new Database(file, { readwrite: true, create: false });
    sqlite.exec('PRAGMA busy_timeout = 5000;');
  } catch (error) {
    throw new BackupError(`Cannot open ${file}: ${reasonOf(error)}.`);
  }
  return sqlite;
}

/** One line an operator can act on, for what the file system or SQLite said. */
export function reasonOf(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const text = String(message ?? error).split('\n')[0]!;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || /disk is full|no space left/i.test(text)) return 'the disk is full';
  if (code === 'EFBIG' || code === 'SQLITE_IOERR_WRITE' || code === 'SQLITE_IOERR') return `the disk refused the write (${text})`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_CANTOPEN' || code === 'EROFS') return `no permission to write there (${text})`;
  if (code === 'ENOTDIR' || code === 'EEXIST') return `a part of the path is a file, not a folder (${text})`;
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') return `it is not a store database (${text})`;
  return text;
}

/** A half-written copy and what SQLite keeps beside one: nothing of a failed run stays. */
export function removeWithSidecars(file: string): void {
  for (const path of [file, `${file}-journal`, `${file}-wal`, `${file}-shm`]) {
    try {
      rmSync(path, { force: true });
    } catch {
      // Its folder cannot be read or is no folder: then nothing was written there either.
    }
  }
}

function clientOf(source: Source): Database {
  return source instanceof Database ? source : source.$client;
}

const BACKUP_NAME = /^store-(\d{8}T\d{6}Z)\.db$/;

/** 'store-20261124T013000Z.db' for a time. */
export function backupName(at: number): string {
  return `store-${new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}.db`;
}

/** 'ok', or what is wrong with the file (a file that is no database at all says so too). */
function integrityOf(file: string): string {
  let copy: Database | undefined;
  try {
    copy = new Database(file, { readonly: true });
    const rows = copy.query('PRAGMA integrity_check').all() as { integrity_check: string }[];
    return rows
      .map((row) => row.integrity_check)
      .join('; ')
      .slice(0, 300);
  } catch (error) {
    return reasonOf(error);
  } finally {
    copy?.close();
  }
}

/** Copies the image files that `to` does not have yet; returns how many it copied. */
export function copyUploads(from: string, to: string): number {
  if (!existsSync(from)) return 0;
  mkdirSync(to, { recursive: true });
  let copied = 0;
  for (const name of readdirSync(from)) {
    const target = join(to, name);
    if (existsSync(target) || !statSync(join(from, name)).isFile()) continue;
    try {
      copyFileSync(join(from, name), `${target}.partial`);
      renameSync(`${target}.partial`, target);
    } catch (error) {
      rmSync(`${target}.partial`, { force: true });
      throw error;
    }
    copied++;
  }
  return copied;
}

/**
 * Writes a consistent copy of the live database to `file` (refused when it exists), checks it
 * with `PRAGMA integrity_check`, and copies the uploads into `uploads/` beside it. A half-written
 * copy never carries the final name.
 */
export function backupDatabase(
  source: Source,
  file: string,
  uploadsDir: string,
  now = Date.now(),
): { file: string; bytes: number; ms: number; uploadsCopied: number } {
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose a new name (a backup never overwrites one).`);
  const started = performance.now();
  const partial = `${file}.partial`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    removeWithSidecars(partial);
    clientOf(source).query('VACUUM INTO ?').run(partial);
    stampTakenAt(partial, now);
    const integrity = integrityOf(partial);
    if (integrity !== 'ok') throw new BackupError(`The copy failed its integrity check: ${integrity}; nothing was kept.`);
    renameSync(partial, file);
  } catch (error) {
    removeWithSidecars(partial);
    if (error instanceof BackupError) throw error;
    throw new BackupError(`Backup to ${file} failed: ${reasonOf(error)}; nothing was kept.`);
  }
  let uploadsCopied: number;
  try {
    uploadsCopied = copyUploads(uploadsDir, join(dirname(file), 'uploads'));
  } catch (error) {
    throw new BackupError(`${file} was written, but copying the images beside it failed: ${reasonOf(error)}.`);
  }
  return { file, bytes: statSync(file).size, ms: Math.round(performance.now() - started), uploadsCopied };
}

/** app_settings key of when a backup was taken, written into the copy: `restore` reckons from it what the store may have done since. */
export const BACKUP_TAKEN_AT_SETTING = 'backup_taken_at';

function stampTakenAt(copy: string, now: number): void {
  const db = new Database(copy);
  try {
    db.exec('PRAGMA journal_mode = DELETE;');
    db.query(
      'insert into app_settings (key, value, updated_at) values (?, ?, ?) on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at',
    ).run(BACKUP_TAKEN_AT_SETTING, String(now), now);
  } finally {
    db.close();
  }
}

/** The backups in `dir`, oldest first, with their times. */
export function listBackups(dir: string): { file: string; at: number }[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .map((name) => ({ name, match: BACKUP_NAME.exec(name) }))
    .filter((entry) => entry.match)
    .map(({ name, match }) => {
      const t = match![1]!;
      const at = Date.UTC(+t.slice(0, 4), +t.slice(4, 6) - 1, +t.slice(6, 8), +t.slice(9, 11), +t.slice(11, 13), +t.slice(13, 15));
      return { file: join(dir, name), at };
    })
    .sort((a, b) => a.at - b.at);
}

/** True when the newest backup in `dir` is at least `everyMs` old (or there is none): read from the names, so a restart or a second process does not back up again early. */
export function isBackupDue(dir: string, everyMs: number, now: number): boolean {
  const newest = listBackups(dir).at(-1);
  return !newest || now - newest.at >= everyMs;
}

/** One rotating backup into `dir`, then the oldest beyond `keep` go. */
export function runScheduledBackup(db: Source, options: { dir: string; keep: number; uploadsDir: string; now: number }) {
  // What a process killed in the middle of a backup left: only the jobs holder writes here, one backup at a time.
  const leftovers = existsSync(options.dir) && statSync(options.dir).isDirectory() ? readdirSync(options.dir) : [];
  for (const name of leftovers) if (/^store-\d{8}T\d{6}Z\.db\.partial/.test(name)) rmSync(join(options.dir, name), { force: true });
  const made = backupDatabase(db, join(options.dir, backupName(options.now)), options.uploadsDir, options.now);
  const all = listBackups(options.dir);
  const removed = all.slice(0, Math.max(0, all.length - options.keep)).map((old) => {
    rmSync(old.file, { force: true });
    return basename(old.file);
  });
  return { ...made, removed };
}

/**
 * What a restored copy must change before it serves, given by the caller (src/flows/restore-store.ts
 * gives it a new gateway key prefix): operations sits below payments and does not know its keys.
 */
export type RenewCopy = (copy: Database) => string;

function renewCopy(file: string, renew: RenewCopy): string {
  const copy = new Database(file, { strict: true });
  try {
    // No -wal file beside the copy, which the rename would leave behind: the server turns WAL on again.
    copy.exec('PRAGMA journal_mode = DELETE;');
    return renew(copy);
  } finally {
    copy.close();
  }
}

/**
 * Restores a backup into an empty data folder: refuses when the folder already holds a store,
 * checks the copy first, renews it (`renew`: a new gateway key prefix), then puts it in place as
 * store.db with the uploads beside it.
 */
export function restoreBackup(file: string, dataDir: string, renew: RenewCopy): { database: string; uploadsCopied: number; keyPrefix: string } {
  if (!existsSync(file)) throw new BackupError(`No backup at ${file}.`);
  const database = join(dataDir, 'store.db');
  for (const existing of [database, `${database}-wal`]) {
    if (existsSync(existing)) throw new BackupError(`${dataDir} already holds a store (${basename(existing)}); restore only into an empty data folder.`);
  }
  const integrity = integrityOf(file);
  if (integrity !== 'ok') throw new BackupError(`${file} failed its integrity check: ${integrity}; nothing was restored.`);
  const partial = `${database}.partial`;
  let keyPrefix: string;
  try {
    mkdirSync(dataDir, { recursive: true });
    copyFileSync(file, partial);
    keyPrefix = renewCopy(partial, renew);
    renameSync(partial, database);
  } catch (error) {
    removeWithSidecars(partial);
    throw new BackupError(`Restore into ${dataDir} failed: ${reasonOf(error)}; nothing was restored.`);
  }
  let uploadsCopied: number;
  try {
    uploadsCopied = copyUploads(join(dirname(file), 'uploads'), join(dataDir, 'uploads'));
  } catch (error) {
    throw new BackupError(`${database} was restored, but copying the images failed: ${reasonOf(error)}; copy uploads/ by hand.`);
  }
  return { database, uploadsCopied, keyPrefix };
}
