import { afterAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';
import { Client } from '../helpers/http-client.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

/* Backups as an operator takes them: from the command line while the store writes, restored into an empty folder. */

const cleanup: string[] = [];
const servers: RunningServer[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

/** The command in its own process, while this one keeps the write load going. */
async function cli(args: string[], dataDir: string) {
  const run = Bun.spawn([process.execPath, join(projectRoot, 'src/cli/backups.ts'), ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err, code] = await Promise.all([new Response(run.stdout).text(), new Response(run.stderr).text(), run.exited]);
  return { code, out: out + err };
}

describe('backup and restore', () => {
  test('a backup taken under a write load holds every registration answered before it started; restored, it serves the store', async () => {
    const server = await startServer({ env: { RATE_LIMIT: 'off' } });
    servers.push(server);
    const answered: string[] = [];
    let writing = true;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; writing; i++) {
        const username = `load${w}x${i}-${crypto.randomUUID().slice(0, 4)}`;
        const response = await new Client(server).request('POST', '/api/register', { username, password: 'secret-pass' });
        if (response.status === 201) answered.push(username);
        else throw new Error(`register answered ${response.status}`);
      }
    });
    while (answered.length < 12) await Bun.sleep(20);
    const before = [...answered];
    const backups = mkdtempSync(join(tmpdir(), 'csa-backups-'));
    cleanup.push(backups);
    const file = join(backups, 'under-load.db');
    const made = await cli(['backup', '--', file], join(server.dataDir, 'data'));
    const afterCount = answered.length;
    writing = false;
    await Promise.all(writers);
    expect(made.out).toContain('integrity ok');
    expect(made.code).toBe(0);
    expect(afterCount).toBeGreaterThan(before.length);

    const copy = new Database(file, { readonly: true });
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    const names = new Set((copy.query('select username from users').all() as { username: string }[]).map((row) => row.username));
    copy.close();
    expect(before.filter((name) => !names.has(name))).toEqual([]);

    // The same command again refuses to overwrite it.
    expect((await cli(['backup', file], join(server.dataDir, 'data'))).code).toBe(1);

    const fresh = mkdtempSync(join(tmpdir(), 'csa-restored-'));
    cleanup.push(fresh);
    const restored = await cli(['restore', file], join(fresh, 'data'));
    expect(restored.out).toContain('Restored');
    expect(restored.code).toBe(0);
    expect((await cli(['restore', file], join(fresh, 'data'))).out).toContain('already holds a store');
    const second = await startServer({ dataDir: fresh });
    servers.push(second);
    expect((await fetch(`${second.url}/products`)).status).toBe(200);
    const user = new Client(second);
    expect((await user.request('POST', '/api/login', { username: before[0], password: 'secret-pass' })).status).toBe(200);
  }, 60_000);

  test('BACKUP_DIR: the jobs holder takes a rotating backup with the uploads beside it', async () => {
    const backups = mkdtempSync(join(tmpdir(), 'csa-rotating-'));
    cleanup.push(backups);
    const server = await startServer({ env: { BACKUP_DIR: backups, BACKUP_EVERY: '1h', BACKUP_KEEP: '3' } });
    servers.push(server);
    for (let i = 0; i < 100 && !readdirSync(backups).some((name) => name.endsWith('.db')); i++) await Bun.sleep(50);
    const files = readdirSync(backups).filter((name) => /^store-\d{8}T\d{6}Z\.db$/.test(name));
    expect(files).toHaveLength(1);
    expect(existsSync(join(backups, 'uploads'))).toBe(true);
    expect(await server.outputContaining('"job":"backup"')).toContain('"job":"backup"');
  }, 30_000);
});
