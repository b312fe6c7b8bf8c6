import { buyNowBody, COMPLETE_PROFILE } from '../helpers/actors.ts';
import { kill9, storeOnFakeSquare } from '../helpers/crash.ts';
import { donationBody } from '../helpers/donations.ts';
import { afterAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '../helpers/http-client.ts';
import { E2E_ADMIN, type RunningServer } from '../helpers/server.ts';
import { startFakeSquare, type FakeSquare, type RequestMatch } from '../helpers/fake-square.ts';

/*
 * Crash safety, tested by killing the real server (kill -9) in the middle of every money step
 * against the fake Square server, restarting it on the same data, letting the reconciler run,
 * and checking the invariants of issue 9 on the database and the fake:
 *
 * - every payment Square holds is matched by exactly one of our payment rows, in the final
 *   state that matches Square's (COMPLETED: captured or refunded; APPROVED: an entry's hold;
 *   CANCELED: voided or expired; FAILED: failed), and no row is left in between;
 * - no order is pending, a paid order has a captured charge, a failed one has none at Square;
 * - stock adds up: on the shelf + sold + reserved for games and live auctions = what the store started with;
 * - every paid or failed order and every started or settled game told its people, once.
 */

const ADMIN = E2E_ADMIN;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Server = RunningServer;

/** A fresh fake Square for each crash point, so the invariants see only that point's payments. */
let fake: FakeSquare;

/** The real server on `dataDir` (kept between a kill and the restart), paying through the fake Square. */
async function shopper(server: Server, username: string): Promise<Client> {
  const client = new Client(server);
  await client.ok('POST', '/api/register', { username, password: 'secret-pass' });
  await client.ok('POST', '/api/user/play-consent', { adult: true, acceptRules: true });
  await client.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
  return client;
}

async function admin(server: Server): Promise<Client> {
  const client = new Client(server);
  await client.ok('POST', '/api/login', { username: ADMIN.username, password: ADMIN.password });
  await client.ok('POST', '/api/admin/pin', { pin: ADMIN.pin });
  return client;
}

/** Moves the server's manual clock (and runs every due job, the reconciler included). */
async function setClock(server: Server, now: number): Promise<number> {
  const answer = await new Client(server).ok('POST', '/api/test/clock', { now });
  return answer.now;
}

async function clockNow(server: Server): Promise<number> {
  return (await new Client(server).ok('POST', '/api/test/clock', { advanceMs: 0 })).now;
}

function openDb(dataDir: string): Database {
  return new Database(join(dataDir, 'data', 'store.db'), { readonly: true });
}

type Row = Record<string, any>;

/** Checks issue 9's invariants; returns the list of mismatches (empty when all hold). */
function mismatches(dataDir: string, initialStock: Map<number, number>): string[] {
  const db = openDb(dataDir);
  const problems: string[] = [];
  try {
    const rows = db.query('select * from payments').all() as Row[];
    const inBetween = rows.filter((r) => ['charging', 'authorizing', 'capturing', 'voiding', 'refunding'].includes(r.status));
    for (const r of inBetween) problems.push(`payment #${r.id} (${r.kind}) left ${r.status}`);

    // Every payment at Square: exactly one row, in the matching state.
    for (const p of fake.payments()) {
      if (!p.reference_id) continue;
      const ours = rows.filter((r) => r.kind !== 'refund' && (r.idempotency_key === p.reference_id || r.gateway_payment_id === p.id));
      if (ours.length !== 1) {
        problems.push(`Square payment ${p.id} (${p.reference_id}, ${p.status}) has ${ours.length} rows`);
        continue;
      }
      const row = ours[0]!;
      const expected: Record<string, string[]> = {
        COMPLETED: ['captured', 'refunded'],
        APPROVED: ['authorized'],
        CANCELED: ['voided', 'expired'],
        FAILED: ['failed'],
      };
      if (!expected[p.status]?.includes(row.status)) problems.push(`Square ${p.status} but row #${row.id} is ${row.status}`);
      if (p.status !== 'FAILED' && row.gateway_payment_id !== p.id) problems.push(`row #${row.id} does not name Square payment ${p.id}`);
    }
    // Every captured or authorized row is backed by Square.
    for (const r of rows.filter((r) => ['captured', 'authorized'].includes(r.status))) {
      const there = fake.payments().find((p) => p.id === r.gateway_payment_id);
      if (!there) problems.push(`row #${r.id} is ${r.status} but Square has no payment ${r.gateway_payment_id}`);
    }
    // Refunds: each refunded charge has exactly one refund at Square.
    for (const r of rows.filter((r) => r.kind === 'refund' && r.status === 'refunded')) {
      const charge = rows.find((c) => c.order_id === r.order_id && c.kind === 'order_charge');
      const atSquare = fake.refunds().filter((f) => f.payment_id === charge?.gateway_payment_id);
      if (atSquare.length !== 1) problems.push(`order #${r.order_id} refunded ${atSquare.length} times at Square`);
    }

    const orders = db.query('select * from orders').all() as Row[];
    for (const o of orders) {
      const charge = rows.find((r) => r.order_id === o.id && r.kind === 'order_charge');
      if (o.status === 'pending') problems.push(`order #${o.id} still pending`);
      if (o.payment_method !== 'cod' && ['processing', 'completed'].includes(o.status) && charge?.status !== 'captured')
        problems.push(`order #${o.id} is ${o.status} but its charge is ${charge?.status}`);
      if (o.status === 'failed' && fake.payments().some((p) => p.reference_id === charge?.idempotency_key && p.status === 'COMPLETED'))
        problems.push(`order #${o.id} failed but Square took the money`);
      const told = (type: string) =>
        (db.query('select count(*) as n from notifications where user_id = ? and type = ? and message like ?').get(o.user_id, type, `%order #${o.id}%`) as Row)
          .n;
      if (['processing', 'completed'].includes(o.status) && o.payment_method !== 'cod' && told('payment_success') !== 1)
        problems.push(`order #${o.id} paid: ${told('payment_success')} payment_success`);
      if (o.status === 'failed' && told('payment_failed') !== 1) problems.push(`order #${o.id} failed: ${told('payment_failed')} payment_failed`);
    }

    // Stock adds up.
    for (const [productId, initial] of initialStock) {
      const shelf = (db.query('select quantity from products where id = ?').get(productId) as Row).quantity as number;
      const sold = (
        db
          .query(
            `select coalesce(sum(i.quantity), 0) as n from order_items i join orders o on o.id = i.order_id where i.product_id = ? and i.purchase_type in ('buy_now', 'auction') and o.status in ('pending', 'processing', 'completed')`,
          )
          .get(productId) as Row
      ).n as number;
      // Reserved: a started game's unit, and the unit a live auction holds (the demo store opens auctions).
      const reserved = (
        db
          .query(
            `select (select count(*) from games where product_id = $id and status in ('active', 'completed'))
                  + (select count(*) from auctions where product_id = $id and stock_reserved = 1 and status in ('scheduled', 'running', 'awaiting_payment', 'second_chance')) as n`,
          )
          .get({ $id: productId }) as Row
      ).n as number;
      if (shelf + sold + reserved !== initial)
        problems.push(`product #${productId}: ${shelf} on the shelf + ${sold} sold + ${reserved} reserved != ${initial}`);
    }

    // Games told their players, once.
    for (const g of db.query(`select * from games where status in ('active', 'completed')`).all() as Row[]) {
      const players = db.query(`select user_id from plays where game_id = ? and status = 'entered'`).all(g.id) as Row[];
      for (const { user_id } of players) {
        const count = (type: string) =>
          (db.query('select count(*) as n from notifications where user_id = ? and game_id = ? and type = ?').get(user_id, g.id, type) as Row).n;
        if (count('game_started') !== 1) problems.push(`game #${g.id}: player ${user_id} got ${count('game_started')} game_started`);
        if (g.status === 'completed') {
          if (count('game_ended') !== 1) problems.push(`game #${g.id}: player ${user_id} got ${count('game_ended')} game_ended`);
          if (count('game_won') + count('game_lost') !== 1) problems.push(`game #${g.id}: player ${user_id} got no single result`);
        }
      }
    }
    // An entered play has an authorized or captured hold; a voided game's holds are released.
    for (const p of db.query(`select * from plays where status = 'entered'`).all() as Row[]) {
      const hold = rows.find((r) => r.play_id === p.id && ['authorized', 'captured', 'expired', 'capture_failed'].includes(r.status));
      if (!hold) problems.push(`entered play #${p.id} has no hold`);
    }
  } finally {
    db.close();
  }
  return problems;
}

function stockSnapshot(dataDir: string): Map<number, number> {
  const db = openDb(dataDir);
  try {
    // What the store holds: the shelf and the units its live auctions hold (counted as reserved above).
    const held = `select count(*) from auctions a where a.product_id = p.id and a.stock_reserved = 1 and a.status in ('scheduled', 'running', 'awaiting_payment', 'second_chance')`;
    return new Map((db.query(`select p.id, p.quantity + (${held}) as units from products p`).all() as Row[]).map((p) => [p.id as number, p.units as number]));
  } finally {
    db.close();
  }
}

function productId(dataDir: string, brand: string): number {
  const db = openDb(dataDir);
  try {
    return (db.query('select id from products where brand = ?').get(brand) as Row).id;
  } finally {
    db.close();
  }
}

function priceOf(dataDir: string, id: number): number {
  const db = openDb(dataDir);
  try {
    return (db.query('select price_cents from products where id = ?').get(id) as Row).price_cents;
  } finally {
    db.close();
  }
}

async function influencerPicks(server: Server): Promise<string[]> {
  const list = (await (await fetch(`${server.url}/api/influencers`)).json()) as { id: number }[];
  return list.slice(0, 5).map((i) => String(i.id));
}

type When = 'before' | 'after';
type Scenario = {
  name: string;
  /** Builds the state, then starts the step that the crash interrupts (not awaited). */
  run: (ctx: { server: Server; dataDir: string; clock: { now: number } }) => Promise<void>;
  /** The gateway request the crash waits for. */
  match: RequestMatch;
  when: When | { afterMs: number };
  /** Which matching request (1st, 2nd...) to crash on. */
  count?: number;
  /** The request is lost on its way: Square never processes it. */
  lostOnTheWay?: boolean;
};

async function enterBookGame(server: Server, dataDir: string, players: number): Promise<{ clients: Client[]; book: number }> {
  const book = productId(dataDir, 'The Old Man and the Sea');
  const picks = await influencerPicks(server);
  const clients: Client[] = [];
  for (let i = 0; i < players; i++) {
    const client = await shopper(server, `player${i}-${crypto.randomUUID().slice(0, 6)}`);
    await client.ok('POST', '/api/plays', { productId: book, influencerIds: picks });
    await client.ok('POST', '/api/payments', { productId: book, amount: 1, type: 'play' });
    clients.push(client);
  }
  return { clients, book };
}

/** Fire a request without waiting for it (the crash will cut it). */
function fire(client: Client, method: string, path: string, json?: unknown): void {
  client.request(method, path, json).catch(() => undefined);
}

const scenarios: Scenario[] = [];
for (const when of ['before', 'after'] as const) {
  scenarios.push({
    name: `buy-now charge, killed ${when} Square processed it`,
    match: { method: 'POST', path: '/v2/payments' },
    when,
    run: async ({ server, dataDir }) => {
      const client = await shopper(server, 'buyer');
      const id = productId(dataDir, 'Ray-Ban');
      fire(client, 'POST', '/api/orders', buyNowBody(id, priceOf(dataDir, id)));
    },
  });
  scenarios.push({
    // Issue 29: a donation is a buy-now to the charity partner, on the same engine.
    name: `donation charge, killed ${when} Square processed it`,
    match: { method: 'POST', path: '/v2/payments' },
    when,
    run: async ({ server, dataDir }) => {
      const client = await shopper(server, 'giver');
      const id = productId(dataDir, 'Patagonia');
      fire(client, 'POST', '/api/orders', { ...donationBody(id, priceOf(dataDir, id)), paymentToken: undefined });
    },
  });
  scenarios.push({
    name: `cart checkout charge, killed ${when} Square processed it`,
    match: { method: 'POST', path: '/v2/payments' },
    when,
    run: async ({ server, dataDir }) => {
      const client = await shopper(server, 'carter');
      const id = productId(dataDir, 'Ray-Ban');
      await client.ok('POST', '/api/cart', { productId: id, quantity: 2 });
      const price = priceOf(dataDir, id) * 2;
      const tax = Math.round(price * 0.08);
      const cart = (await client.ok('GET', '/api/cart')) as { id: number; productId: number; quantity: number; price: number; type: string }[];
      fire(client, 'POST', '/api/checkout', {
        paymentMethod: 'square',
        paymentToken: 'cnon:card-nonce-ok',
        items: cart,
        shipping: { method: 'standard', cost: 5.99 },
        summary: { subtotal: price / 100, shipping: 5.99, tax: tax / 100, total: (price + tax + 599) / 100 },
      });
    },
  });
  scenarios.push({
    name: `$1 entry hold, killed ${when} Square processed it`,
    match: { method: 'POST', path: '/v2/payments' },
    when,
    count: 2,
    run: async ({ server, dataDir }) => {
      const { book } = await enterBookGame(server, dataDir, 1);
      const second = await shopper(server, 'second-player');
      await second.ok('POST', '/api/plays', { productId: book, influencerIds: await influencerPicks(server) });
      fire(second, 'POST', '/api/payments', { productId: book, amount: 1, type: 'play' });
    },
  });
  for (const count of [1, 2]) {
    scenarios.push({
      name: `settlement capture #${count}, killed ${when} Square processed it`,
      match: { method: 'POST', path: /\/complete$/ },
      when,
      count,
      run: async ({ server, dataDir, clock }) => {
        await enterBookGame(server, dataDir, 2);
        clock.now += 3 * HOUR;
        void setClock(server, clock.now).catch(() => undefined);
      },
    });
  }
  scenarios.push({
    name: `expiry of an unfilled game, void killed ${when} Square processed it`,
    match: { method: 'POST', path: /\/cancel$/ },
    when,
    run: async ({ server, dataDir, clock }) => {
      await enterBookGame(server, dataDir, 1);
      clock.now += 7 * 24 * HOUR;
      void setClock(server, clock.now).catch(() => undefined);
    },
  });
  scenarios.push({
    name: `admin cancel & refund, killed ${when} Square processed the refund`,
    match: { method: 'POST', path: '/v2/refunds' },
    when,
    run: async ({ server, dataDir }) => {
      const client = await shopper(server, 'refundee');
      const id = productId(dataDir, 'Ray-Ban');
      const order = await client.ok('POST', '/api/orders', buyNowBody(id, priceOf(dataDir, id)));
      const boss = await admin(server);
      fire(boss, 'POST', `/api/admin/orders/${order.id}/status`, { status: 'canceled' });
    },
  });
}
// The request never reaches Square: the reconciler must call the charge "never taken".
for (const flow of ['buy-now', 'cart checkout'] as const) {
  const base = scenarios.find((x) => x.name.startsWith(flow) && x.when === 'before')!;
  scenarios.push({ ...base, name: `${flow} charge lost on its way to Square, then killed`, lostOnTheWay: true });
}
// Kills at arbitrary moments of a buy-now in flight, whatever the request is doing.
for (const afterMs of [0, 40, 120, 220, 290, 320, 400, 560]) {
  scenarios.push({
    name: `buy-now, killed ${afterMs} ms after the charge reached Square`,
    match: { method: 'POST', path: '/v2/payments' },
    when: { afterMs },
    run: async ({ server, dataDir }) => {
      const client = await shopper(server, 'random');
      const id = productId(dataDir, 'Ray-Ban');
      fire(client, 'POST', '/api/orders', buyNowBody(id, priceOf(dataDir, id)));
    },
  });
}

const results: { name: string; outcome: string; mismatches: number }[] = [];

describe('kill -9 at every money step, restart, reconcile: the invariants hold', () => {
  test('at least 20 crash points', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(20);
  });

  for (const scenario of scenarios) {
    test(scenario.name, async () => {
      fake = await startFakeSquare();
      const dataDir = mkdtempSync(join(tmpdir(), 'csa-crash-'));
      try {
        let server = await storeOnFakeSquare(dataDir, fake);
        const initialStock = stockSnapshot(dataDir);
        const clock = { now: await clockNow(server) };
        const seen = fake.requests.filter((r) => matches(scenario.match, r)).length;
        if (typeof scenario.when === 'object') {
          // Half the delay before Square processes, half after: a kill lands on either side.
          fake.setLatency(300, { ...scenario.match, phase: 'before' });
          fake.setLatency(300, { ...scenario.match, phase: 'after' });
        } else fake.setLatency(1500, { ...scenario.match, phase: scenario.when });
        if (scenario.lostOnTheWay) fake.failNext({ hang: true }, scenario.match);
        const target = seen + (scenario.count ?? 1);
        const setup = scenario.run({ server, dataDir, clock });
        if (scenario.when === 'after') await fake.waitForProcessed(scenario.match, { count: target, timeoutMs: 20_000 });
        else await fake.waitForRequest(scenario.match, { count: target, timeoutMs: 20_000 });
        if (typeof scenario.when === 'object') await Bun.sleep(scenario.when.afterMs);
        await kill9(server);
        await setup.catch(() => undefined);
        // The restarted store's clock jumps 10 minutes at once; in real time Square would have
        // finished what it had in hand long before. Let the fake finish it too (a request lost on
        // the way never arrives, and is its own scenario).
        if (scenario.when === 'before' && !scenario.lostOnTheWay) await fake.waitForProcessed(scenario.match, { count: target, timeoutMs: 20_000 });
        fake.reset();

        server = await storeOnFakeSquare(dataDir, fake);
        // Past every lease and the "never taken" window, twice, so backoffs come due too.
        await setClock(server, clock.now + 10 * MINUTE);
        await setClock(server, clock.now + 30 * MINUTE);
        const found = mismatches(dataDir, initialStock);
        const db = openDb(dataDir);
        const orders = db.query('select status from orders').all() as Row[];
        const pays = db.query('select kind, status from payments').all() as Row[];
        db.close();
        results.push({
          name: scenario.name,
          outcome: [...orders.map((o) => `order ${o.status}`), ...pays.map((p) => `${p.kind} ${p.status}`)].join(', ') || 'nothing',
          mismatches: found.length,
        });
        await kill9(server);
        expect(found).toEqual([]);
      } finally {
        fake.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 60_000);
  }

  afterAll(() => {
    // The crash table for the closing note (printed, not asserted).
    console.log('\ncrash point | outcome after restart | mismatches');
    for (const r of results) console.log(`${r.name} | ${r.outcome} | ${r.mismatches}`);
  });
});

function matches(match: RequestMatch, r: { method: string; path: string }): boolean {
  if (match.method && match.method !== r.method) return false;
  if (match.path === undefined) return true;
  return typeof match.path === 'string' ? match.path === r.path : match.path.test(r.path);
}
