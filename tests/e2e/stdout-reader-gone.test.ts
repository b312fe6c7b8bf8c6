import { afterEach, describe, expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';
import { E2E_ADMIN, freePort } from '../helpers/server.ts';

/*
 * A store whose stdout goes to a log reader that stopped reading (a stuck shipper: the pipe
 * fills and stays full) or went away (the pipe's read end is closed), stopped with SIGTERM:
 * it is gone within SHUTDOWN_GRACE_MS. The last log flush used to be a synchronous write to
 * the full pipe, asleep in the kernel for ever (stores stayed up for more than an hour, and a
 * second SIGTERM did nothing).
 */

const GRACE_MS = 3000;
let dir = '';
const children: { kill(signal?: number | NodeJS.Signals): void }[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A log reader on a FIFO that opens it and never reads; the store writes its stdout into it. */
async function storeWritingToAStuckReader() {
  dir = mkdtempSync(join(tmpdir(), 'csa-stdout-'));
  const fifo = join(dir, 'stdout.fifo');
  execFileSync('mkfifo', [fifo]);
  const reader = Bun.spawn(['sh', '-c', `exec 3<'${fifo}'; exec sleep 600`], { stdio: ['ignore', 'ignore', 'ignore'] });
  children.push(reader);
  const port = freePort();
  const url = `http://localhost:${port}`;
  const store = Bun.spawn([process.execPath, join(projectRoot, 'src/server.ts')], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: join(dir, 'data'),
      ADMIN_PASSWORD: E2E_ADMIN.password,
      ADMIN_PIN: E2E_ADMIN.pin,
      // A line per request (/ping logs at debug), so a few hundred requests fill the pipe.
      LOG_LEVEL: 'debug',
      SHUTDOWN_DRAIN_MS: '0',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
    },
    stdout: Bun.file(fifo),
    stderr: 'pipe',
  });
  children.push(store);
  for (const started = Date.now(); ; ) {
    if (store.exitCode !== null) throw new Error(`store exited ${store.exitCode}: ${await new Response(store.stderr).text()}`);
    if (
      await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() - started > 30_000) throw new Error('store did not answer within 30 s');
    await Bun.sleep(50);
  }
  // Far more than a pipe holds (64 KiB): every later line waits on the reader.
  for (let i = 0; i < 40; i++) await Promise.all(Array.from({ length: 25 }, () => fetch(`${url}/ping`)));
  return { store, reader, url };
}

/** Resolves with the exit code, or 'still running' once `withinMs` has passed. */
function exitWithin(child: { exited: Promise<number> }, withinMs: number): Promise<number | 'still running'> {
  return Promise.race([child.exited, Bun.sleep(withinMs).then(() => 'still running' as const)]);
}

describe('a stdout nobody reads', () => {
  test('the reader stopped reading (the pipe is full): SIGTERM ends the store within SHUTDOWN_GRACE_MS', async () => {
    const { store, url } = await storeWritingToAStuckReader();
    // Still serving while its log lines wait: a full stdout never blocks a request.
    expect((await fetch(`${url}/ping`)).status).toBe(200);
    const signalled = Date.now();
    store.kill('SIGTERM');
    expect(await exitWithin(store, GRACE_MS + 1000)).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(GRACE_MS + 1000);
  }, 60_000);

  test('the reader went away (the pipe is closed): SIGTERM ends the store at once', async () => {
    const { store, reader } = await storeWritingToAStuckReader();
    reader.kill('SIGKILL');
    await reader.exited;
    store.kill('SIGTERM');
    expect(await exitWithin(store, GRACE_MS + 1000)).toBe(0);
  }, 60_000);
});
