import { afterAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedProducts } from '../../src/db/seed-products.ts';
import { projectRoot } from '../../src/runtime-files.ts';
import { Client } from '../helpers/http-client.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

/*
 * Several processes started at the same moment on one empty DATA_DIR (a deploy that starts
 * every replica at once, a supervisor restarting several workers): each of them migrates,
 * seeds and creates the bootstrap admin, and all of that happens once, with no process
 * crashing on another's half-done start.
 */

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function countsOf(dataDir: string) {
  const db = new Database(join(dataDir, 'data', 'store.db'), { readonly: true });
  try {
    const one = (sql: string) => (db.query(sql).get() as { n: number }).n;
    return {
      admins: one('select count(*) as n from users where is_admin = 1'),
      products: one('select count(*) as n from products'),
      influencers: one('select count(*) as n from influencers'),
      migrations: one('select count(*) as n from __drizzle_migrations'),
      pins: one("select count(*) as n from app_settings where key = 'admin_pin'"),
    };
  } finally {
    db.close();
  }
}

async function startAtOnce(
  count: number,
  env: Record<string, string>,
  binary?: string,
): Promise<{ dataDir: string; servers: RunningServer[]; failures: string[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'csa-concurrent-'));
  folders.push(dataDir);
  const started = await Promise.allSettled(Array.from({ length: count }, () => startServer({ dataDir, env, binary, cwd: binary ? dataDir : undefined })));
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  return { dataDir, servers, failures };
}

async function stopAll(servers: RunningServer[]): Promise<void> {
  await Promise.all(servers.map((server) => server.stop()));
}

describe('processes started at once on an empty DATA_DIR', () => {
  test('three processes, five rounds: all serve, and the store is migrated, seeded and given one admin once', async () => {
    for (let round = 0; round < 5; round++) {
      const { dataDir, servers, failures } = await startAtOnce(3, {});
      try {
        expect(failures).toEqual([]);
        expect(servers).toHaveLength(3);
        for (const server of servers) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
        const counts = countsOf(dataDir);
        expect(counts.admins).toBe(1);
        expect(counts.products).toBe(seedProducts.length);
        expect(counts.migrations).toBeGreaterThan(0);
        // Every migration once: as many rows as the journal has entries.
        const journal = (await Bun.file(join(import.meta.dir, '../../src/db/migrations/meta/_journal.json')).json()) as { entries: unknown[] };
        expect(counts.migrations).toBe(journal.entries.length);
      } finally {
        await stopAll(servers);
      }
    }
  }, 180_000);

  test('without ADMIN_PASSWORD and ADMIN_PIN: exactly one process prints the generated admin, and what it printed signs in', async () => {
    const { dataDir, servers, failures } = await startAtOnce(3, { ADMIN_PASSWORD: '', ADMIN_PIN: '' });
    try {
      expect(failures).toEqual([]);
      const printed = [];
      for (const server of servers) {
        const output = await server.outputContaining('listening');
        for (const line of output.split('\n')) {
          if (line.includes('"event":"bootstrap_admin"')) printed.push(JSON.parse(line) as { password?: string; adminPin?: string; username?: string });
        }
      }
      expect(printed).toHaveLength(1);
      expect(countsOf(dataDir).pins).toBe(1);
      const [first] = printed;
      const client = new Client(servers[0]!);
      const login = await client.request('POST', '/api/login', { username: first!.username, password: first!.password });
      expect(login.status).toBe(200);
      expect((await client.request('POST', '/api/admin/pin', { pin: first!.adminPin })).status).toBeLessThan(400);
    } finally {
      await stopAll(servers);
    }
  }, 60_000);

  test('the compiled binary, three at once from an empty folder: all serve, one admin, one seed', async () => {
    const binary = join(projectRoot, 'dist', 'csa');
    // `bun run test:all` builds it first; a bare `bun test` builds it here.
    if (!existsSync(binary)) {
      const build = Bun.spawnSync([process.execPath, 'run', 'build:binary'], { cwd: projectRoot, stdout: 'inherit', stderr: 'inherit' });
      expect(build.exitCode).toBe(0);
    }
    const { dataDir, servers, failures } = await startAtOnce(3, {}, binary);
    try {
      expect(failures).toEqual([]);
      for (const server of servers) expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      const counts = countsOf(dataDir);
      expect(counts.admins).toBe(1);
      expect(counts.products).toBe(seedProducts.length);
    } finally {
      await stopAll(servers);
    }
  }, 180_000);
});
