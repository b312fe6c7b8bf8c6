import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { LOGIN_FAILURES_PER_ADDRESS } from '../../src/domain/accounts/account-limits.ts';
import { buyNowBody, COMPLETE_PROFILE } from '../helpers/actors.ts';
import { Client } from '../helpers/http-client.ts';
import { readEvents } from '../helpers/sse.ts';
import { E2E_ADMIN, startServer, type RunningServer } from '../helpers/server.ts';

/*
 * Two real server processes on one DATA_DIR, as an operator runs them for zero-downtime
 * deploys (docs/operations.md): concurrent writes spread over both never answer 5xx, a change
 * on one reaches visitors of the other within a second, the limits are shared, and the game
 * jobs run on exactly one process and move to the other when it dies.
 */

const LEASE_MS = 3000;
const env = { TRUST_PROXY: 'loopback', JOBS_LEASE_MS: String(LEASE_MS) };
let a: RunningServer;
let b: RunningServer;

// Starting servers takes seconds on a busy machine: more than the hooks' default 5 s.
beforeAll(async () => {
  a = await startServer({ env });
  b = await startServer({ env, dataDir: a.dataDir });
}, 60_000);

afterAll(async () => {
  await b?.stop();
  await a?.stop();
}, 30_000);

/** A client of server A or B, seen by the store as coming from its own address. */
const clientOn = (server: RunningServer, n: number) => new Client(server, { 'x-forwarded-for': `10.1.${n >> 8}.${n & 255}` });

function storeDb(): Database {
  return new Database(join(a.dataDir, 'data', 'store.db'), { readonly: true });
}

function productIdNamed(name: string): number {
  const db = storeDb();
  try {
    return (db.query('select id from products where brand = ? or model = ?').get(name, name) as { id: number }).id;
  } finally {
    db.close();
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs: number): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return { value, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await Bun.sleep(50);
  }
}

async function readiness(server: RunningServer): Promise<{ status: string; jobs: { runner: string } }> {
  return (await fetch(`${server.url}/readyz`)).json() as Promise<{ status: string; jobs: { runner: string } }>;
}

describe('two processes on one database', () => {
  test('100 concurrent registrations, plays and cart writes spread over both: no 5xx', async () => {
    const users = Array.from({ length: 100 }, (_, i) => clientOn(i % 2 ? b : a, i));
    const statuses: number[] = [];
    const record = (response: Response) => {
      statuses.push(response.status);
      return response;
    };
    const registered = await Promise.all(
      users.map((user, i) =>
        user.request('POST', '/api/register', { username: `pair${i}-${crypto.randomUUID().slice(0, 6)}`, password: 'secret-pass' }).then(record),
      ),
    );
    expect(registered.map((r) => r.status).filter((s) => s !== 201)).toEqual([]);
    await Promise.all(
      users.map(async (user) => {
        record(await user.request('POST', '/api/user/play-consent', { adult: true, acceptRules: true }));
        record(await user.request('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } }));
      }),
    );
    const influencers = (await (await fetch(`${a.url}/api/influencers`)).json()) as { id: number }[];
    const picks = influencers.slice(0, 5).map((i) => String(i.id));
    const db = storeDb();
    const playable = (db.query('select id from products where play_enabled = 1 and quantity > 0').all() as { id: number }[]).map((row) => row.id);
    db.close();
    const shoe = productIdNamed('Nike');
    const plays = await Promise.all(
      users.map(async (user, i) => {
        const productId = playable[i % playable.length]!;
        const play = record(await user.request('POST', '/api/plays', { productId, influencerIds: picks }));
        if (play.status !== 201) return `play ${play.status} ${await play.text()}`;
        const hold = record(await user.request('POST', '/api/payments', { productId, amount: 1, type: 'play' }));
        return hold.ok ? 'entered' : `hold ${hold.status} ${await hold.text()}`;
      }),
    );
    const carts = await Promise.all(users.map(async (user) => record(await user.request('POST', '/api/cart', { productId: shoe, quantity: 1 })).status));
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // A refusal is the game's own rule (a full game, every unit promised), said clearly: never a crash.
    expect(plays.filter((p) => p !== 'entered' && !/^(play|hold) 409 \{"message":"[^"]+/.test(p))).toEqual([]);
    expect(carts.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    const after = storeDb();
    try {
      const entered = after.query("select count(*) as n from plays where status = 'entered'").get() as { n: number };
      expect(entered.n).toBe(plays.filter((p) => p === 'entered').length);
      expect(entered.n).toBeGreaterThan(playable.length);
    } finally {
      after.close();
    }
  }, 120_000);

  test('a price change and a sale on A reach visitors of B within a second', async () => {
    const admin = clientOn(a, 900);
    await admin.ok('POST', '/api/login', { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
    await admin.ok('POST', '/api/admin/pin', { pin: E2E_ADMIN.pin });
    const id = productIdNamed('RB3025-L0205');
    const visitor = `${b.url}/product/${id}`;
    const before = await (await fetch(visitor)).text();
    expect(await (await fetch(visitor)).text()).toBe(before);

    const product = await admin.ok('GET', `/api/products/${id}`);
    const changed = await admin.request('PUT', `/api/products/${id}`, { price: 123.45, quantity: 1 });
    expect(changed.status).toBe(200);
    const priced = await until('the new price on B', async () => (await (await fetch(visitor)).text()).includes('$123.45'), 1000);
    expect(priced.ms).toBeLessThan(1000);
    expect(product.price).not.toBe(123.45);
    expect(await (await fetch(visitor)).text()).toContain('1 left');

    const buyer = clientOn(a, 901);
    await buyer.ok('POST', '/api/register', { username: `buyer-${crypto.randomUUID().slice(0, 6)}`, password: 'secret-pass' });
    await buyer.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
    const order = await buyer.request('POST', '/api/orders', buyNowBody(id, 12345));
    expect(order.status).toBe(201);
    const soldOut = await until('sold out on B', async () => (await (await fetch(visitor)).text()).includes('Sold out for now'), 1000);
    expect(soldOut.ms).toBeLessThan(1000);
  }, 60_000);

  test('a change made on A reaches a live stream open on B within 2 s', async () => {
    const products = (await (await fetch(`${a.url}/api/products`)).json()) as { id: number; playEnabled: boolean; quantity: number; price: number }[];
    const bookId = products.filter((p) => p.playEnabled && p.quantity > 2).sort((x, y) => y.quantity - x.quantity)[0]!.id;
    const watcher = await fetch(`${b.url}/api/events?product=${bookId}`);
    expect(watcher.status).toBe(200);
    const events = readEvents(watcher);
    expect((await events.next())?.event).toBe('ready');
    await events.drain(400);

    const player = clientOn(a, 900);
    await player.ok('POST', '/api/register', { username: 'live_two', password: 'live-two-pass' });
    await player.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } });
    await player.ok('POST', '/api/user/play-consent', { adult: true, acceptRules: true });
    const influencers = ((await player.ok('GET', '/api/influencers')) as { id: string }[]).map((i) => i.id);
    const started = Date.now();
    await player.ok('POST', '/api/plays', { productId: bookId, influencerIds: influencers.slice(5, 10) });
    await player.ok('POST', '/api/payments', { productId: bookId, amount: 1, type: 'play' });
    let arrived = false;
    while (!arrived && Date.now() - started < 2000) {
      const message = await events.next(2000);
      // The product's state after the entry (the entry may open the next game if this one is full).
      arrived = message?.event === 'competition' && JSON.parse(message.data).productId === bookId;
    }
    expect(arrived).toBe(true);
    await events.close();
  });

  test('the login limit holds across both processes, per client address', async () => {
    const attacker = (server: RunningServer) => new Client(server, { 'x-forwarded-for': '203.0.113.7' });
    const answers: number[] = [];
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS + 2; i++) {
      answers.push((await attacker(i % 2 ? b : a).request('POST', '/api/login', { username: `nobody${i}`, password: 'wrong-pass' })).status);
    }
    expect(answers.slice(0, LOGIN_FAILURES_PER_ADDRESS).every((s) => s === 401)).toBe(true);
    expect(answers.slice(LOGIN_FAILURES_PER_ADDRESS)).toEqual([429, 429]);
    // Another customer behind the same proxy is not locked out.
    const other = await new Client(b, { 'x-forwarded-for': '198.51.100.20' }).request('POST', '/api/login', { username: 'nobody', password: 'wrong-pass' });
    expect(other.status).toBe(401);
  }, 60_000);

  test('the jobs run on exactly one process and move to the other when it is killed', async () => {
    const runners = await until(
      'one jobs runner',
      async () => {
        const both = [(await readiness(a)).jobs.runner, (await readiness(b)).jobs.runner];
        return both.includes('this process') ? both : undefined;
      },
      LEASE_MS * 3,
    );
    expect(runners.value.filter((r) => r === 'this process')).toHaveLength(1);
    expect(runners.value.filter((r) => r === 'another process')).toHaveLength(1);
    const [holder, standby] = runners.value[0] === 'this process' ? [a, b] : [b, a];
    expect(await holder.outputContaining('"event":"job_run"')).toContain('"event":"job_run"');
    const standbyRunsBefore = standby.output().split('"event":"job_run"').length;

    holder.child.kill('SIGKILL');
    await holder.child.exited;
    const takeover = await until('the standby takes the jobs over', async () => (await readiness(standby)).jobs.runner === 'this process', LEASE_MS * 3);
    expect(takeover.ms).toBeLessThan(LEASE_MS * 2);
    await until('the new holder runs the jobs', async () => standby.output().split('"event":"job_run"').length > standbyRunsBefore, 5000);
    expect((await readiness(standby)).status).toBe('ready');
    // The killed one is restarted on the same data, as a deploy would: it stands by.
    const restarted = await startServer({ env, dataDir: a.dataDir });
    try {
      expect((await readiness(restarted)).jobs.runner).toBe('another process');
    } finally {
      await restarted.stop();
    }
  }, 60_000);
});
