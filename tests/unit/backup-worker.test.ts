import { describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { backupInWorker, scheduledBackup } from '../../src/jobs/off-thread-backup.ts';

/* issue 26 row 5: the hourly backup on its worker thread, with its own connection to the live file. */

async function liveStore() {
  const dir = mkdtempSync(join(tmpdir(), 'csa-backup-worker-unit-'));
  const db = await openMigratedDatabase(join(dir, 'store.db'));
  db.$client.query("insert into users (username, password_hash, created_at) values ('kept', 'x', 1)").run();
  return { dir, db };
}

describe('the backup worker', () => {
  test('copies the live file while this thread keeps its connection open and writing', async () => {
    const { dir, db } = await liveStore();
    const backups = join(dir, 'backups');
    const made = await scheduledBackup(db, { dir: backups, keep: 2, uploadsDir: join(dir, 'uploads'), now: Date.UTC(2026, 10, 26, 3) });
    expect(made).toMatchObject({ thread: 'worker', removed: [] });
    db.$client.query("insert into users (username, password_hash, created_at) values ('after', 'x', 2)").run();
    expect(readdirSync(backups)).toEqual(['store-20261126T030000Z.db']);
    const copy = new Database(join(backups, 'store-20261126T030000Z.db'), { readonly: true });
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect(copy.query('select username from users order by id').all()).toEqual([{ username: 'kept' }]);
    copy.close();
  });

  test('a backup that fails rejects with one line and leaves nothing in the folder', async () => {
    const { dir } = await liveStore();
    writeFileSync(join(dir, 'a-file'), 'not a folder');
    const task = { database: join(dir, 'store.db'), dir: join(dir, 'a-file'), keep: 2, uploadsDir: join(dir, 'uploads'), now: Date.UTC(2026, 10, 26, 3) };
    const failed = await backupInWorker(task).catch((error: Error) => error.message);
    expect(failed).toContain('nothing was kept');
    expect(failed).not.toContain('\n');
    const missing = await backupInWorker({ ...task, database: join(dir, 'nowhere.db'), dir: join(dir, 'b') }).catch((error: Error) => error.message);
    expect(missing).toContain('Cannot open');
    expect(readdirSync(dir).sort()).toEqual(['a-file', 'store.db', 'store.db-shm', 'store.db-wal']);
  });
});
