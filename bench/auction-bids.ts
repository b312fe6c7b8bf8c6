/**
 * Issue 28's figures for one hot auction. (1) Bids per second one server process accepts on one
 * auction, every bid a new maximum above the last (so each one takes the write lock and most are
 * accepted), against GET /ping in the same run with the same concurrency: bids as a share of
 * /ping. (2) The cost of the close job per auction: in process, the test gateway, auctions with
 * two bidders each, the winner charged.
 * Usage: bun bench/auction-bids.ts [seconds=5] [concurrency=16] [auctions=200]
 * The figures move with the machine's other load: compare the share, not the absolute numbers.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { openMigratedDatabase } from '../src/db/client.ts';
import { auctions, products, users } from '../src/db/schema.ts';
import { setUpAuction } from '../src/domain/auctions/admin.ts';
import { bid } from '../src/domain/auctions/bidding.ts';
import { closeDueAuctions } from '../src/domain/auctions/close.ts';
import { ManualClock } from '../src/domain/clock.ts';
import { createTestGateway } from '../src/domain/payments/test-gateway.ts';
import { completeProfile } from '../tests/helpers/actors.ts';
import { Client, shopperWithCard } from '../tests/helpers/http-client.ts';
import { benchServer } from './wrk.ts';

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 16);
const auctionCount = Number(process.argv[4] ?? 200);

async function during(ms: number, workers: number, work: () => Promise<boolean>): Promise<{ done: number; ok: number }> {
  const until = performance.now() + ms;
  let done = 0;
  let ok = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < until) {
        if (await work()) ok++;
        done++;
      }
    }),
  );
  return { done, ok };
}

// ------------------------------------------------------------------ (1) bids/s on one hot auction vs /ping
const ADMIN = { password: 'bench-admin-pass', pin: '123456' };
const server = await benchServer({ LOG_LEVEL: 'warn' });
try {
  const file = new Database(join(server.dataDir, 'data', 'store.db'));
  const { id: productId } = file.query('select id from products order by id limit 1').get() as { id: number };
  file.query('update products set bid_enabled = 1, quantity = 1 where id = ?').run(productId);
  file.close();
  const admin = new Client(server);
  await admin.ok('POST', '/api/login', { username: 'admin', password: ADMIN.password });
  await admin.ok('POST', '/api/admin/pin', { pin: ADMIN.pin });
  await admin.ok('PUT', `/api/admin/products/${productId}/auction`, { startingBid: 1, increment: 1 });
  const bidders = await Promise.all(Array.from({ length: 20 }, (_, i) => shopperWithCard(server, `bench${i}`)));

  let next = 2;
  let turn = 0;
  const ms = seconds * 1000;
  const ping = await during(ms, concurrency, async () => (await fetch(`${server.url}/ping`)).ok);
  const bids = await during(ms, concurrency, async () => {
    const client = bidders[turn++ % bidders.length]!;
    const response = await client.request('POST', `/api/products/${productId}/bids`, { maxAmount: next++ });
    return response.status === 201;
  });
  const ping2 = await during(ms, concurrency, async () => (await fetch(`${server.url}/ping`)).ok);
  const pingRate = (ping.done + ping2.done) / 2 / seconds;
  console.log(`one server process, ${concurrency} clients at once, ${seconds} s each (ping, bids, ping)`);
  console.log(`| what | answers/s | accepted/s | share of /ping |`);
  console.log(`|---|---:|---:|---:|`);
  console.log(`| GET /ping | ${pingRate.toFixed(0)} | | 100% |`);
  console.log(
    `| POST bids, one hot auction | ${(bids.done / seconds).toFixed(0)} | ${(bids.ok / seconds).toFixed(0)} | ${((100 * bids.done) / seconds / pingRate).toFixed(1)}% |`,
  );
} finally {
  await server.stop();
}

// ------------------------------------------------------------------ (2) the close job's cost per auction
const db = await openMigratedDatabase();
const clock = new ManualClock(Date.UTC(2026, 10, 21, 18, 0, 0));
const deps = { db, clock, gateway: createTestGateway() };
const people = [0, 1].map(
  (i) =>
    db
      .insert(users)
      .values({ username: `closer${i}`, passwordHash: 'x', createdAt: clock.now() })
      .returning()
      .get().id,
);
for (const id of people) completeProfile({ db, clock }, id);
for (let i = 0; i < auctionCount; i++) {
  const product = db
    .insert(products)
    .values({ brand: 'Bench', model: `B-${i}`, quantity: 1, priceCents: 10_000, bidEnabled: true, createdAt: clock.now() })
    .returning()
    .get();
  setUpAuction(deps, product.id, { startingBid: 10, endsAt: new Date(clock.now() + 60 * 60_000).toISOString() });
  bid(deps, { id: people[0]!, isAdmin: false }, product.id, 30);
  bid(deps, { id: people[1]!, isAdmin: false }, product.id, 20);
}
clock.advance(60 * 60_000);
// One run of the job closes at most its batch: run it until nothing more ends.
let closedMs = 0;
let closed = 0;
while (closed < auctionCount) {
  const started = performance.now();
  await closeDueAuctions(deps);
  closedMs += performance.now() - started;
  const ended = db.select({ id: auctions.id }).from(auctions).where(eq(auctions.status, 'ended')).all().length;
  if (ended === closed) break;
  closed = ended;
  clock.advance(16 * 60_000);
}
console.log(
  `\nclose job: ${closed} of ${auctionCount} auctions closed and charged (test gateway) in ${closedMs.toFixed(0)} ms: ${(closedMs / Math.max(1, closed)).toFixed(2)} ms each`,
);
