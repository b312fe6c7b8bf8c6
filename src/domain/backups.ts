import { Database } from 'bun:sqlite';
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Db } from '../db/client.ts';
import { replaceKeyPrefix } from './payments/keys.ts';

/*
 * Online backups (docs/operations.md, "Backups"): `VACUUM INTO` writes a consistent copy of the
 * database from one read transaction while the store keeps serving and writing (WAL mode lets
 * writers go on). Uploaded images go beside the copy in `uploads/`; their names are generated
 * and never reused, so copying the ones missing there is enough.
 */

export class BackupError extends Error {}

const BACKUP_NAME = /^store-(\d{8}T\d{6}Z)\.db$/;

/** 'store-20261124T013000Z.db' for a time. */
export function backupName(at: number): string {
  return `store-${new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}.db`;
}

function integrityOf(file: string): string {
  const copy = new Database(file, { readonly: true });
  try {
    return (copy.query('PRAGMA integrity_check').get() as { integrity_check: string }).integrity_check;
  } finally {
    copy.close();
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
    copyFileSync(join(from, name), `${target}.partial`);
    renameSync(`${target}.partial`, target);
    copied++;
  }
  return copied;
}

/**
 * Writes a consistent copy of the live database to `file` (refused when it exists), checks it
 * with `PRAGMA integrity_check`, and copies the uploads into `uploads/` beside it. A half-written
 * copy never carries the final name.
 */
export function backupDatabase(db: Db, file: string, uploadsDir: string): { file: string; bytes: number; ms: number; uploadsCopied: number } {
  if (existsSync(file)) throw new BackupError(`${file} already exists; choose a new name (a backup never overwrites one).`);
  mkdirSync(dirname(file), { recursive: true });
  const started = performance.now();
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  db.$client.query('VACUUM INTO ?').run(partial);
  const integrity = integrityOf(partial);
  if (integrity !== 'ok') {
    rmSync(partial, { force: true });
    throw new BackupError(`The copy failed its integrity check (${integrity}); nothing was kept.`);
  }
  renameSync(partial, file);
  const uploadsCopied = copyUploads(uploadsDir, join(dirname(file), 'uploads'));
  return { file, bytes: statSync(file).size, ms: Math.round(performance.now() - started), uploadsCopied };
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
export function runScheduledBackup(db: Db, options: { dir: string; keep: number; uploadsDir: string; now: number }) {
  const made = backupDatabase(db, join(options.dir, backupName(options.now)), options.uploadsDir);
  const all = listBackups(options.dir);
  const removed = all.slice(0, Math.max(0, all.length - options.keep)).map((old) => {
    rmSync(old.file, { force: true });
    return basename(old.file);
  });
  return { ...made, removed };
}

/**
 * Gives the restored copy a new gateway key prefix (payments/keys.ts): the keys the store made
 * after the backup was taken are known to the gateway, and the restored ids would make them again.
 */
function renewKeyPrefix(file: string): string {
  const copy = new Database(file, { strict: true });
  try {
    // No -wal file beside the copy, which the rename would leave behind: the server turns WAL on again.
    copy.exec('PRAGMA journal_mode = DELETE;');
    return replaceKeyPrefix(copy);
  } finally {
    copy.close();
  }
}

/**
 * Restores a backup into an empty data folder: refuses when the folder already holds a store,
 * checks the copy first, gives it a new gateway key prefix, then puts it in place as store.db
 * with the uploads beside it.
 */
export function restoreBackup(file: string, dataDir: string): { database: string; uploadsCopied: number; keyPrefix: string } {
  if (!existsSync(file)) throw new BackupError(`No backup at ${file}.`);
  const database = join(dataDir, 'store.db');
  for (const existing of [database, `${database}-wal`]) {
    if (existsSync(existing)) throw new BackupError(`${dataDir} already holds a store (${basename(existing)}); restore only into an empty data folder.`);
  }
  const integrity = integrityOf(file);
  if (integrity !== 'ok') throw new BackupError(`${file} failed its integrity check (${integrity}); nothing was restored.`);
  mkdirSync(dataDir, { recursive: true });
  const partial = `${database}.partial`;
  copyFileSync(file, partial);
  const keyPrefix = renewKeyPrefix(partial);
  renameSync(partial, database);
  const uploadsCopied = copyUploads(join(dirname(file), 'uploads'), join(dataDir, 'uploads'));
  return { database, uploadsCopied, keyPrefix };
}
