/**
 * Issue 29's figures for mystery boxes. (1) One server process (the demo store, production mode,
 * test payments): box purchases per second (each a full order: claim with the draw, the charge,
 * the confirmation) and the box list (GET /api/mystery-boxes) per second, against GET /ping in
 * the same run with the same concurrency, as shares of /ping. (2) In process: the draw alone
 * (HMAC, exact ticket, walk) over a box of 100 products, and the box list's reads.
 * Usage: bun bench/box-draw.ts [seconds=5] [concurrency=16]
 * The figures move with the machine's other load: compare the shares, not the absolute numbers.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { openMigratedDatabase } from '../src/db/client.ts';
import { products, users } from '../src/db/schema.ts';
import { ManualClock } from '../src/domain/clock.ts';
import { boxesApiView, setBoxPrice } from '../src/domain/promotions/mystery-boxes.ts';
import { type BoxStock, drawProduct, newBoxSeed } from '../src/domain/promotions/mystery-draw.ts';
import { shopperWithCard } from '../tests/helpers/http-client.ts';
import { benchServer } from './wrk.ts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 16);

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

// ------------------------------------------------------------------ (1) purchases and the list vs /ping
const server = await benchServer({ LOG_LEVEL: 'warn' });
try {
  const file = new Database(join(server.dataDir, 'data', 'store.db'));
  // Enough units that no box runs out during the run.
  file.query('update products set quantity = 1000000 where mystery_box_enabled = 1').run();
  file
    .query('update product_variants set quantity = 1000000, stocked = 1000000 where product_id in (select id from products where mystery_box_enabled = 1)')
    .run();
  file.close();
  const buyers = await Promise.all(Array.from({ length: concurrency }, (_, i) => shopperWithCard(server, `boxbench${i}`)));
  const types = ['sunglasses', 'shoe'];
  let turn = 0;
  const ms = seconds * 1000;
  const ping = await during(ms, concurrency, async () => (await fetch(`${server.url}/ping`)).ok);
  const list = await during(ms, concurrency, async () => (await fetch(`${server.url}/api/mystery-boxes`)).ok);
  // One worker, one buyer: each buyer has one purchase at a time (the checkout lock), as a shopper would.
  const buys = await during(ms, concurrency, async (worker) => {
    const response = await buyers[worker]!.request('POST', `/api/mystery-boxes/${types[turn++ % 2]}/orders`, {}, { 'idempotency-key': crypto.randomUUID() });
    return response.status === 201;
  });
  const ping2 = await during(ms, concurrency, async () => (await fetch(`${server.url}/ping`)).ok);
  const pingRate = (ping.done + ping2.done) / 2 / seconds;
  const share = (done: number) => `${((100 * done) / seconds / pingRate).toFixed(1)}%`;
  console.log(`one server process, ${concurrency} clients at once, ${seconds} s each (ping, list, purchases, ping)`);
  console.log('| what | answers/s | succeeded/s | share of /ping |');
  console.log('|---|---:|---:|---:|');
  console.log(`| GET /ping | ${pingRate.toFixed(0)} | | 100% |`);
  console.log(`| GET /api/mystery-boxes (2 boxes, 6 items) | ${(list.done / seconds).toFixed(0)} | ${(list.ok / seconds).toFixed(0)} | ${share(list.done)} |`);
  console.log(
    `| POST /api/mystery-boxes/{type}/orders (draw + charge) | ${(buys.done / seconds).toFixed(0)} | ${(buys.ok / seconds).toFixed(0)} | ${share(buys.done)} |`,
  );
} finally {
  await server.stop();
}

// ------------------------------------------------------------------ (2) the draw and the list in process
const stock: BoxStock = Array.from({ length: 100 }, (_, i) => [i + 1, 1 + ((i * 37) % 50)]);
const { seed } = newBoxSeed();
const draws = 100_000;
let started = performance.now();
for (let orderId = 1; orderId <= draws; orderId++) drawProduct(seed, orderId, stock);
const perDraw = ((performance.now() - started) * 1000) / draws;

const db = await openMigratedDatabase();
const clock = new ManualClock(Date.UTC(2026, 10, 21, 18, 0, 0));
const admin = db.insert(users).values({ username: 'admin', passwordHash: 'x', isAdmin: true, createdAt: clock.now() }).returning().get().id;
for (const [id, units] of stock) {
  db.insert(products)
    .values({
      id,
      productType: 'book',
      brand: `Book ${id}`,
      model: `BK-${id}`,
      quantity: units,
      priceCents: 1_000 + id,
      mysteryBoxEnabled: true,
      createdAt: clock.now(),
    })
    .run();
}
setBoxPrice({ db, clock }, admin, 'book', 900);
const lists = 2_000;
started = performance.now();
for (let i = 0; i < lists; i++) boxesApiView(db);
const perList = ((performance.now() - started) * 1000) / lists;
console.log(`\nin process: one draw over 100 products ${perDraw.toFixed(1)} µs; the box list with a 100-item box ${perList.toFixed(0)} µs`);
