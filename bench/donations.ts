/**
 * Issue 29's figures for 'Buy to donate'. (1) Donations per second one server process takes
 * (POST /api/orders with donate: true, test gateway, each client its own shopper so no double
 * click is refused) against GET /ping in the same run with the same concurrency. (2) The admin's
 * Promotions tab (the donation list, newest 50 of purchases and prizes; the CSV up to 5,000) and its CSV, requests
 * per second on a store holding `donations` donation orders, `prizes` donated prizes and as many
 * ordinary orders, as a share of /ping. (3) The product page's weight with and without
 * 'Donate this': the button is a link, so it ships no JavaScript.
 * Usage: bun bench/donations.ts [seconds=5] [concurrency=8] [donations=10000] [prizes=1000]
 * The figures move with the machine's other load: compare the share, not the absolute numbers.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { Client, shopperWithCard } from '../tests/helpers/http-client.ts';
import { benchServer } from './wrk.ts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 8);
const donationCount = Number(process.argv[4] ?? 10_000);
const prizeCount = Number(process.argv[5] ?? 1_000);

async function during(ms: number, workers: number, work: (worker: number) => Promise<boolean>): Promise<{ done: number; ok: number }> {
  const until = performance.now() + ms;
  let done = 0;
  let ok = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (performance.now() < until) {
        if (await work(worker)) ok++;
        done++;
      }
    }),
  );
  return { done, ok };
}

const server = await benchServer({
  LOG_LEVEL: 'warn',
  CHARITY_NAME: 'Laguna Beach Giving Closet',
  CHARITY_ADDRESS: '380 Third Street, Laguna Beach, CA 92651',
});
const ms = seconds * 1000;
const rows: string[] = [];
let pingRate = 0;
const ping = async () => {
  const run = await during(ms, concurrency, async () => (await fetch(`${server.url}/ping`)).ok);
  return run.done / seconds;
};
const row = (what: string, run: { done: number; ok: number }) =>
  rows.push(`| ${what} | ${(run.done / seconds).toFixed(0)} | ${(run.ok / seconds).toFixed(0)} | ${((100 * run.done) / seconds / pingRate).toFixed(1)}% |`);
try {
  const file = new Database(join(server.dataDir, 'data', 'store.db'));
  file.exec('PRAGMA busy_timeout = 5000');
  const tee = file.query("select id, price_cents as price from products where brand = 'Patagonia' limit 1").get() as { id: number; price: number };
  const plain = file.query("select id from products where brand = 'Ray-Ban' limit 1").get() as { id: number };
  file.query('update products set quantity = 1000000 where id = ?').run(tee.id);
  file.query('update product_variants set quantity = 1000000, stocked = 1000000 where product_id = ?').run(tee.id);
  file.close();

  // ---------------------------------------------------------------- (1) donations/s vs /ping
  const givers = await Promise.all(Array.from({ length: concurrency }, (_, i) => shopperWithCard(server, `giver${i}`)));
  const tax = Math.round(tee.price * 0.08);
  const body = {
    productId: tee.id,
    quantity: 1,
    subtotal: tee.price / 100,
    shipping: 0,
    tax: tax / 100,
    total: (tee.price + tax) / 100,
    donate: true,
    customerInfo: { name: 'Bench Giver', email: 'giver@example.com', phone: '949-555-0100' },
  };
  const before = await ping();
  pingRate = before;
  const donations = await during(ms, concurrency, async (worker) => (await givers[worker]!.request('POST', '/api/orders', body)).status === 201);
  pingRate = (before + (await ping())) / 2;
  rows.push(`| GET /ping | ${pingRate.toFixed(0)} | | 100% |`);
  row('POST /api/orders, donate: true', donations);

  // ---------------------------------------------------------------- (2) the donation list on a big store
  const db = new Database(join(server.dataDir, 'data', 'store.db'));
  db.exec('PRAGMA busy_timeout = 5000');
  const userId = (db.query("select id from users where username = 'giver0'").get() as { id: number }).id;
  const now = Date.now();
  db.transaction(() => {
    const order = db.query(
      `insert into orders (user_id, order_date, total_cents, subtotal_cents, tax_cents, shipping_cents, status, customer_name, customer_email,
         shipping_address, payment_method, shipping_method, donation_to, updated_at)
       values (?, ?, 4860, 4500, 360, 0, 'processing', 'Bench Giver', 'giver@example.com', ?, 'square', 'local', ?, ?) returning id`,
    );
    const item = db.query(
      "insert into order_items (order_id, product_id, quantity, price_cents, purchase_type, product_label) values (?, ?, 1, 4500, 'buy_now', 'Bench tee')",
    );
    for (let i = 0; i < donationCount * 2; i++) {
      // Every other one an ordinary order: the list must find donations among them, not walk them all.
      const donation = i % 2 === 0;
      const { id } = order.get(userId, now - i * 1000, donation ? '380 Third Street' : '1 Coast Hwy', donation ? 'Laguna Beach Giving Closet' : null, now) as {
        id: number;
      };
      item.run(id, tee.id);
    }
    const game = db.query(
      "insert into games (product_id, status, required_participants, prize_outcome, created_at, settled_at) values (?, 'completed', 2, 'donated', ?, ?)",
    );
    for (let i = 0; i < prizeCount; i++) game.run(tee.id, now - i * 5000, now - i * 5000);
  })();
  db.close();
  const admin = new Client(server);
  await admin.ok('POST', '/api/login', { username: 'admin', password: 'bench-admin-pass' });
  await admin.ok('POST', '/api/admin/pin', { pin: '123456' });
  const settings = await during(ms, concurrency, async () => (await admin.request('GET', '/admin?tab=settings')).status === 200);
  const tab = await during(ms, concurrency, async () => (await admin.request('GET', '/admin?tab=promotions')).status === 200);
  const csv = await during(ms, concurrency, async () => (await admin.request('GET', '/admin/promotions/donations.csv')).status === 200);
  row('GET /admin?tab=settings (an admin page with no list, for comparison)', settings);
  row(`GET /admin?tab=promotions (${donationCount} donations, ${prizeCount} prizes)`, tab);
  row('GET /admin/promotions/donations.csv', csv);

  // ---------------------------------------------------------------- (3) the product page's weight
  const weigh = async (id: number) => {
    const html = await (await fetch(`${server.url}/product/${id}`)).text();
    return { bytes: html.length, scripts: (html.match(/<script[^>]+src=/g) ?? []).length, islands: (html.match(/data-island="/g) ?? []).length };
  };
  const withDonate = await weigh(tee.id);
  const without = await weigh(plain.id);

  console.log(`one server process, ${concurrency} clients at once, ${seconds} s each`);
  console.log('| what | answers/s | ok/s | share of /ping |');
  console.log('|---|---:|---:|---:|');
  for (const line of rows) console.log(line);
  console.log(
    `\nproduct page HTML: with 'Donate this' ${withDonate.bytes} bytes, ${withDonate.islands} islands, ${withDonate.scripts} scripts; without ${without.bytes} bytes, ${without.islands} islands, ${without.scripts} scripts`,
  );
} finally {
  await server.stop();
}
