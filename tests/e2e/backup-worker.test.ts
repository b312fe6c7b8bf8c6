import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { projectRoot } from '../../src/runtime-files.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';

/*
 * issue 26 row 5: the hourly backup (BACKUP_DIR) runs on a worker thread, so the store answers
 * while `VACUUM INTO` and the integrity check run. The proof needs no timing: the copy is
 * written as `store-….db.partial` and renamed only after its integrity check, both in one
 * synchronous call on whichever thread runs it. A request sent while the `.partial` file exists
 * and answered while it still exists was served during the backup: impossible if the backup
 * ran on the serving thread. A store of ~60 MB makes a backup last long enough to see that.
 */

setDefaultTimeout(180_000);

const binary = join(projectRoot, 'dist', 'csa');
const cleanup: string[] = [];
const servers: RunningServer[] = [];
let bigStore: string;

beforeAll(async () => {
  if (!existsSync(binary)) {
    const build = Bun.spawnSync([process.execPath, 'run', 'build:binary'], { cwd: projectRoot, stdout: 'inherit', stderr: 'inherit' });
    expect(build.exitCode).toBe(0);
  }
  bigStore = mkdtempSync(join(tmpdir(), 'csa-big-store-'));
  cleanup.push(bigStore);
  mkdirSync(join(bigStore, 'data'));
  const db = await openMigratedDatabase(join(bigStore, 'data', 'store.db'));
  db.$client.exec('create table ballast (b blob)');
  const insert = db.$client.prepare('insert into ballast values (randomblob(100000))');
  db.$client.transaction(() => {
    for (let i = 0; i < 600; i++) insert.run();
  })();
  db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.$client.close();
});

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the big store in a folder of its own, and an empty backup folder. */
function bigStoreCopy() {
  const root = mkdtempSync(join(tmpdir(), 'csa-backup-worker-'));
  cleanup.push(root);
  cpSync(join(bigStore, 'data'), join(root, 'data'), { recursive: true });
  const backups = join(root, 'backups');
  mkdirSync(backups);
  return { root, backups };
}

/** The jobs' log line of the first backup run. */
const backupLine = (output: string) => JSON.parse(output.split('\n').find((text) => text.includes('"job":"backup"'))!);
const partialIn = (dir: string) => readdirSync(dir).some((name) => name.endsWith('.db.partial'));
const backupsIn = (dir: string) => readdirSync(dir).filter((name) => /^store-\d{8}T\d{6}Z\.db$/.test(name));

describe('the hourly backup runs off the serving thread', () => {
  test('from source: requests are answered while the copy is being written', async () => {
    const { root, backups } = bigStoreCopy();
    const server = await startServer({ dataDir: root, env: { BACKUP_DIR: backups, BACKUP_EVERY: '1h', CLOCK: 'manual', RATE_LIMIT: 'off' } });
    servers.push(server);
    await until(() => backupsIn(backups).length === 1, 'the start-up backup', 60_000);
    expect(backupLine(await server.outputContaining('"job":"backup"'))).toMatchObject({ ok: true, result: { thread: 'worker' } });

    let answeredDuringBackup = 0;
    for (let attempt = 1; answeredDuringBackup === 0 && attempt <= 10; attempt++) {
      // The backup is due again once the last one is gone; the manual clock's route runs the jobs now.
      for (const name of backupsIn(backups)) rmSync(join(backups, name));
      let tickDone = false;
      const tick = fetch(`${server.url}/api/test/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advanceMs":0}' }).then(
        (response) => {
          tickDone = true;
          return response.status;
        },
      );
      while (!tickDone) {
        const before = partialIn(backups);
        const ping = await fetch(`${server.url}/ping`);
        expect(ping.status).toBe(200);
        if (before && partialIn(backups)) answeredDuringBackup++;
      }
      expect(await tick).toBe(200);
      expect(backupsIn(backups)).toHaveLength(1);
    }
    expect(answeredDuringBackup).toBeGreaterThan(0);
    const copy = new Database(join(backups, backupsIn(backups)[0]!), { readonly: true });
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    expect(copy.query('select count(*) as n from ballast').get()).toEqual({ n: 600 });
    copy.close();
  });

  test('the compiled binary takes the backup on its worker thread too', async () => {
    const { root, backups } = bigStoreCopy();
    const cwd = mkdtempSync(join(tmpdir(), 'csa-binary-cwd-'));
    cleanup.push(cwd);
    const server = await startServer({ binary, cwd, dataDir: root, env: { BACKUP_DIR: backups, BACKUP_EVERY: '1h' } });
    servers.push(server);
    await until(() => backupsIn(backups).length === 1 && !partialIn(backups), 'the start-up backup', 60_000);
    expect(backupLine(await server.outputContaining('"job":"backup"'))).toMatchObject({ ok: true, result: { thread: 'worker', removed: [] } });
    const copy = new Database(join(backups, backupsIn(backups)[0]!), { readonly: true });
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    copy.close();
    expect((await fetch(`${server.url}/ping`)).status).toBe(200);
  });
});
