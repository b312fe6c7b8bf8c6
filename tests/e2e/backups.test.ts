import { afterAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';
import { buyNowBody, COMPLETE_PROFILE } from '../helpers/actors.ts';
import { FAKE_SQUARE_LOCATION, FAKE_SQUARE_TOKEN, startFakeSquare, type FakeSquare } from '../helpers/fake-square.ts';
import { Client } from '../helpers/http-client.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';

/* Backups as an operator takes them: from the command line while the store writes, restored into an empty folder. */

const cleanup: string[] = [];
const servers: RunningServer[] = [];
const fakes: FakeSquare[] = [];

afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const fake of fakes) fake.stop();
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
    await until(() => answered.length >= 12, '12 registrations answered', 30_000);
    const backups = mkdtempSync(join(tmpdir(), 'csa-backups-'));
    cleanup.push(backups);
    // The event this test needs is a registration answered while a backup ran. On a busy machine a
    // backup may finish before the next answer, so backups are taken (each to its own file) until
    // one overlaps an answer: waited for, not timed.
    let before: string[] = [];
    let file = '';
    let made = { code: -1, out: '' };
    let overlapped = false;
    for (let attempt = 1; !overlapped && attempt <= 20; attempt++) {
      before = [...answered];
      file = join(backups, `under-load-${attempt}.db`);
      made = await cli(['backup', '--', file], join(server.dataDir, 'data'));
      expect(made.out).toContain('integrity ok');
      expect(made.code).toBe(0);
      overlapped = answered.length > before.length;
    }
    writing = false;
    await Promise.all(writers);
    expect(overlapped).toBe(true);

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
    // The backup is done once both the file and the uploads beside it are there (the file comes first).
    await until(() => readdirSync(backups).some((name) => name.endsWith('.db')) && existsSync(join(backups, 'uploads')), 'the rotating backup', 20_000);
    const files = readdirSync(backups).filter((name) => /^store-\d{8}T\d{6}Z\.db$/.test(name));
    expect(files).toHaveLength(1);
    expect(existsSync(join(backups, 'uploads'))).toBe(true);
    expect(await server.outputContaining('"job":"backup"')).toContain('"job":"backup"');
  }, 30_000);

  test('issue 25: after a restore, the same order placed again is not confirmed by the payment Square took after the backup (its id and key are new)', async () => {
    const fake = await startFakeSquare();
    fakes.push(fake);
    const env = {
      RATE_LIMIT: 'off',
      PAYMENTS: 'square',
      SQUARE_ACCESS_TOKEN: FAKE_SQUARE_TOKEN,
      SQUARE_LOCATION_ID: FAKE_SQUARE_LOCATION,
      SQUARE_BASE_URL: fake.url,
      PAYMENT_TIMEOUT_MS: '3000',
    };
    const first = await startServer({ env });
    servers.push(first);
    const dataDir = join(first.dataDir, 'data');
    const shopper = new Client(first);
    await shopper.ok('POST', '/api/register', { username: 'returning', password: 'secret-pass' });
    await shopper.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
    const store = new Database(join(dataDir, 'store.db'), { readonly: true });
    const product = store.query("select id, price_cents as priceCents from products where model = 'RB3025-L0205'").get() as { id: number; priceCents: number };
    const body = buyNowBody(product.id, product.priceCents);

    const backups = mkdtempSync(join(tmpdir(), 'csa-backup-keys-'));
    cleanup.push(backups);
    const file = join(backups, 'before-the-order.db');
    expect((await cli(['backup', file], dataDir)).code).toBe(0);
    // After the backup: an order paid at Square. Restoring the backup forgets it, but Square does not.
    const paid = (await shopper.ok('POST', '/api/orders', body)) as { orderId: number };
    const keyOf = (db: Database, orderId: number) =>
      (db.query("select idempotency_key as key from payments where order_id = ? and kind = 'order_charge'").get(orderId) as { key: string }).key;
    const oldKey = keyOf(store, paid.orderId);
    store.close();
    expect(fake.payments().map((p) => [p.reference_id, p.status])).toEqual([[oldKey, 'COMPLETED']]);
    await first.stop();

    const restoredDir = mkdtempSync(join(tmpdir(), 'csa-restored-keys-'));
    cleanup.push(restoredDir);
    const restored = await cli(['restore', file], join(restoredDir, 'data'));
    expect(restored.code).toBe(0);
    const second = await startServer({ dataDir: restoredDir, env });
    servers.push(second);
    const back = new Client(second);
    await back.ok('POST', '/api/login', { username: 'returning', password: 'secret-pass' });
    // The same order again: its id continues above any the store gave after the backup (issue 36), and its key has the new prefix; its charge never reaches Square (both SDK tries fail), so the store asks Square what it holds under the key.
    const lookupsBefore = fake.requests.filter((r) => r.method === 'GET' && r.path === '/v2/payments').length;
    fake.failNext({ status: 500 }, { method: 'POST', path: '/v2/payments' });
    fake.failNext({ status: 500 }, { method: 'POST', path: '/v2/payments' });
    const answer = await back.request('POST', '/api/orders', body);
    const answered = await answer.json();
    expect(answered.orderId).toBeGreaterThan(paid.orderId);
    expect(answer.status).toBe(502);
    expect(fake.requests.filter((r) => r.method === 'GET' && r.path === '/v2/payments').length).toBeGreaterThan(lookupsBefore);

    const after = new Database(join(restoredDir, 'data', 'store.db'), { readonly: true });
    const newKey = keyOf(after, answered.orderId);
    const order = after.query('select status, payment_id as paymentId from orders where id = ?').get(answered.orderId);
    after.close();
    expect(order).toEqual({ status: 'pending', paymentId: null });
    expect(newKey.split('-')[0]).not.toBe(oldKey.split('-')[0]);
    expect(newKey.split('-')[1]).toBe(oldKey.split('-')[1]);
    expect(fake.payments()).toHaveLength(1);
  }, 90_000);
});
