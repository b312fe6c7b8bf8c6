import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { projectRoot } from '../../src/runtime-files.ts';

/*
 * issue 26 row 9: `backup` and `restore` fail as an operator can read it (one line on stderr,
 * exit 1) and leave nothing half written, from source and in the compiled binary. A full disk
 * is simulated without root: the command runs under a file-size limit (`ulimit -f` in a
 * spawned bash), so its writes past the limit fail (EFBIG) as they would with ENOSPC. Bun
 * ignores the SIGXFSZ that comes with it; the shell ignores it too (`trap '' XFSZ`, inherited
 * across exec), so the test does not depend on that.
 */

setDefaultTimeout(120_000);

const binary = join(projectRoot, 'dist', 'csa');
const cleanup: string[] = [];
let store: string;

beforeAll(async () => {
  if (!existsSync(binary)) {
    const build = Bun.spawnSync([process.execPath, 'run', 'build:binary'], { cwd: projectRoot, stdout: 'inherit', stderr: 'inherit' });
    expect(build.exitCode).toBe(0);
  }
  // A store of about 3 MB: bigger than the file-size limit below.
  store = mkdtempSync(join(tmpdir(), 'csa-backup-fail-'));
  cleanup.push(store);
  mkdirSync(join(store, 'data'));
  const db = await openMigratedDatabase(join(store, 'data', 'store.db'));
  db.$client.exec('create table ballast (b blob)');
  const insert = db.$client.prepare('insert into ballast values (randomblob(100000))');
  for (let i = 0; i < 30; i++) insert.run();
  db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.$client.close();
});

afterAll(() => {
  for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
});

const commands = {
  source: (args: string[]) => [process.execPath, join(projectRoot, 'src/cli/backups.ts'), ...args],
  binary: (args: string[]) => [binary, ...args],
};

/** Runs the command (in a bash with a file-size limit of `limitKiB`, when given) from an empty folder. */
async function run(how: keyof typeof commands, args: string[], dataDir: string, limitKiB?: number) {
  const argv = commands[how](args);
  const quoted = argv.map((arg) => `'${arg}'`).join(' ');
  const command = limitKiB ? ['bash', '-c', `trap '' XFSZ; ulimit -f ${limitKiB}; exec ${quoted}`] : argv;
  const cwd = mkdtempSync(join(tmpdir(), 'csa-backup-cwd-'));
  cleanup.push(cwd);
  const child = Bun.spawn(command, { cwd, env: { ...process.env, DATA_DIR: dataDir }, stdout: 'pipe', stderr: 'pipe' });
  const [out, err, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { code, out, err };
}

function expectOneLine(result: { code: number; out: string; err: string }, words: string) {
  expect(result.err).not.toContain('    at ');
  expect(result.err.trim().split('\n')).toHaveLength(1);
  expect(result.err).toContain(words);
  expect(result.code).toBe(1);
}

function folder() {
  const dir = mkdtempSync(join(tmpdir(), 'csa-backup-target-'));
  cleanup.push(dir);
  return dir;
}

describe.each(['source', 'binary'] as const)('backup and restore failures (%s)', (how) => {
  test('restore of a corrupt or truncated file: one line, exit 1, the data folder left empty', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'garbage.db'), 'SQLite format 3\0 but not really a database file at all');
    const garbage = await run(how, ['restore', join(dir, 'garbage.db')], join(dir, 'data'));
    expectOneLine(garbage, 'nothing was restored');
    // A real backup cut in half (a copy interrupted on its way off the machine).
    const whole = readFileSync(join(store, 'data', 'store.db'));
    writeFileSync(join(dir, 'cut.db'), whole.subarray(0, Math.floor(whole.length / 2)));
    const cut = await run(how, ['restore', join(dir, 'cut.db')], join(dir, 'data'));
    expectOneLine(cut, 'nothing was restored');
    expect(existsSync(join(dir, 'data')) ? readdirSync(join(dir, 'data')) : []).toEqual([]);
  });

  test('backup to a place that cannot be written: one line, exit 1, nothing left', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'a-file'), 'not a folder');
    const result = await run(how, ['backup', join(dir, 'a-file', 'store.db')], join(store, 'data'));
    expectOneLine(result, 'nothing was kept');
    expect(readdirSync(dir)).toEqual(['a-file']);
  });

  test('backup onto a full disk: one line, exit 1, no .partial and no journal left', async () => {
    const dir = folder();
    const result = await run(how, ['backup', join(dir, 'store.db')], join(store, 'data'), 1000);
    expectOneLine(result, 'nothing was kept');
    expect(readdirSync(dir)).toEqual([]);
  });

  test('restore onto a full disk: one line, exit 1, no store.db and no .partial left', async () => {
    const dir = folder();
    const made = await run(how, ['backup', join(dir, 'good.db')], join(store, 'data'));
    expect(made.code).toBe(0);
    const copy = new Database(join(dir, 'good.db'), { readonly: true });
    expect(copy.query('PRAGMA integrity_check').get()).toEqual({ integrity_check: 'ok' });
    copy.close();
    mkdirSync(join(dir, 'data'));
    const result = await run(how, ['restore', join(dir, 'good.db')], join(dir, 'data'), 1000);
    expectOneLine(result, 'nothing was restored');
    expect(readdirSync(join(dir, 'data'))).toEqual([]);
  });
});
