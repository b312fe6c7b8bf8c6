import { describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { backupInWorker, scheduledBackup } from '../../src/jobs/off-thread-backup.ts';
import { storeJobs } from '../../src/jobs/index.ts';
import { startScheduler } from '../../src/jobs/scheduler.ts';
import { until } from '../helpers/until.ts';

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

  test('shutdown stops a running backup: the scheduler stops at once and nothing half written stays', async () => {
    const { dir, db } = await liveStore();
    // A store big enough that its copy is still running when the scheduler is stopped.
    db.$client.exec('create table ballast (b blob)');
    const insert = db.$client.prepare('insert into ballast values (randomblob(100000))');
    db.$client.transaction(() => {
      for (let i = 0; i < 500; i++) insert.run();
    })();
    const backups = join(dir, 'backups');
    const config = {
      retention: { notificationsDays: 90, expiredSessionsDays: 0, voidPlaysDays: 30, rateLimitHours: 24, mailDays: 30 },
      backup: { dir: backups, everyMs: 3_600_000, keep: 2 },
      uploadsDir: join(dir, 'uploads'),
    };
    const games = { db, clock: new ManualClock(), gateway: undefined as never, metrics: { collect: () => undefined } as never };
    const backup = storeJobs(db, games, config).find((job) => job.name === 'backup')!;
    const runs: string[] = [];
    // Only the backup job, as the jobs holder runs it: the lease is taken and the catch-up tick starts it.
    const scheduler = startScheduler(
      [
        {
          name: 'backup',
          run: async (now) =>
            runs.push(
              String(
                await Promise.resolve(backup.run(now)).then(
                  () => 'made',
                  (error: Error) => error.message,
                ),
              ),
            ),
          stop: backup.stop,
        },
      ],
      new ManualClock(),
      { lease: { db, holder: 'unit', leaseMs: 30_000 } },
    );
    await until(() => existsSync(backups) && readdirSync(backups).some((name) => name.endsWith('.partial')), 'the copy being written', 10_000);
    await scheduler.stop();
    expect(runs).toEqual(['stopped: the store is shutting down; the next start takes the backup']);
    await until(() => readdirSync(backups).length === 0, 'the half-written copy removed', 10_000);
    // After stop nothing starts a new copy.
    expect(await backup.run(Date.now())).toBeUndefined();
  });
});
