import { describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { BackupError, backupDatabase, backupName, isBackupDue, listBackups, runScheduledBackup } from '../../src/domain/operations/backups.ts';
import { restoreStore } from '../../src/flows/restore-store.ts';

const HOUR = 60 * 60 * 1000;

async function storeWithData() {
  const dir = mkdtempSync(join(tmpdir(), 'csa-backup-'));
  const dataDir = join(dir, 'data');
  mkdirSync(join(dataDir, 'uploads'), { recursive: true });
  writeFileSync(join(dataDir, 'uploads', 'a1.png'), 'png bytes');
  const db = await openMigratedDatabase(join(dataDir, 'store.db'));
  db.$client.query("insert into users (username, password_hash, created_at) values ('kept', 'x', 1)").run();
  return { dir, dataDir, db };
}

describe('backups', () => {
  test('a backup opens, passes the integrity check, holds the rows and carries the uploads beside it', async () => {
    const { dir, dataDir, db } = await storeWithData();
    const file = join(dir, 'backups', 'nightly.db');
    const made = backupDatabase(db, file, join(dataDir, 'uploads'));
    expect(made.uploadsCopied).toBe(1);
    const copy = new Database(file, { readonly: true });
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect(copy.query('select username from users where username = ?').get('kept')).toEqual({ username: 'kept' });
    copy.close();
    expect(readdirSync(join(dir, 'backups', 'uploads'))).toEqual(['a1.png']);
    expect(() => backupDatabase(db, file, join(dataDir, 'uploads'))).toThrow(BackupError);
  });

  test('rotation keeps the newest BACKUP_KEEP, and the names say when the next one is due', async () => {
    const { dir, dataDir, db } = await storeWithData();
    const backups = join(dir, 'rotating');
    const t0 = Date.UTC(2026, 10, 24, 1, 0, 0);
    expect(isBackupDue(backups, HOUR, t0)).toBe(true);
    // What a process killed during a backup left goes with the next one.
    mkdirSync(backups);
    writeFileSync(join(backups, 'store-20261124T000000Z.db.partial'), 'half a copy');
    writeFileSync(join(backups, 'store-20261124T000000Z.db.partial-journal'), 'its journal');
    for (let i = 0; i < 4; i++) runScheduledBackup(db, { dir: backups, keep: 3, uploadsDir: join(dataDir, 'uploads'), now: t0 + i * HOUR });
    expect(listBackups(backups).map((b) => b.at)).toEqual([t0 + HOUR, t0 + 2 * HOUR, t0 + 3 * HOUR]);
    expect(readdirSync(backups).filter((name) => name.includes('partial'))).toEqual([]);
    expect(backupName(t0)).toBe('store-20261124T010000Z.db');
    expect(isBackupDue(backups, HOUR, t0 + 3 * HOUR + 59 * 60_000)).toBe(false);
    expect(isBackupDue(backups, HOUR, t0 + 4 * HOUR)).toBe(true);
  });

  test('restore goes only into an empty data folder, and brings back the rows and the images', async () => {
    const { dir, dataDir, db } = await storeWithData();
    const file = join(dir, 'b', 'store.db');
    backupDatabase(db, file, join(dataDir, 'uploads'));
    expect(() => restoreStore(file, dataDir)).toThrow('already holds a store');
    expect(() => restoreStore(join(dir, 'nothing.db'), join(dir, 'fresh'))).toThrow('No backup at');
    const target = join(dir, 'fresh');
    restoreStore(file, target);
    const restored = new Database(join(target, 'store.db'), { readonly: true });
    expect(restored.query("select count(*) as n from users where username = 'kept'").get()).toEqual({ n: 1 });
    restored.close();
    expect(existsSync(join(target, 'uploads', 'a1.png'))).toBe(true);
  });

  test('a damaged file is refused before anything is restored', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'csa-backup-'));
    writeFileSync(join(dir, 'broken.db'), 'SQLite format 3\0 but not really a database file at all');
    expect(() => restoreStore(join(dir, 'broken.db'), join(dir, 'data'))).toThrow();
    expect(existsSync(join(dir, 'data', 'store.db'))).toBe(false);
  });
});
