/**
 * Issue 28: what a bid costs on an auction that already has many bids. (1) Over HTTP, one server
 * process: bids per second on a fresh auction and on one with DEEP prior bids, with GET /ping in
 * the same run and the same concurrency (each as a share of /ping). (2) In process, no HTTP: the
 * time of one bid (domain `bid`, one IMMEDIATE transaction) at both depths.
 * The prior bids are written straight in the database (two bidders overtaking each other by $1),
 * with the auction row's standing from proxy.ts's replay, so the same file measures any version.
 * Usage: bun bench/auction-deep.ts [deep=10000] [seconds=5] [concurrency=16]
 * The figures move with the machine's other load: compare the shares, not the absolute numbers.
 */
import type { Database } from 'bun:sqlite';
import { Database as SqliteFile } from 'bun:sqlite';
import { join } from 'node:path';
import { openMigratedDatabase } from '../src/db/client.ts';
import { products, users } from '../src/db/schema.ts';
import { setUpAuction } from '../src/domain/auctions/admin.ts';
import { bid } from '../src/domain/auctions/bidding.ts';
import { type Maximum, standingOf } from '../src/domain/auctions/proxy.ts';
import { ManualClock } from '../src/domain/clock.ts';
import { createTestGateway } from '../src/domain/payments/test-gateway.ts';
import { completeProfile } from '../tests/helpers/actors.ts';
import { Client, shopperWithCard } from '../tests/helpers/http-client.ts';
import { benchServer } from './wrk.ts';

const deep = Number(process.argv[2] ?? 10_000);
const seconds = Number(process.argv[3] ?? 5);
const concurrency = Number(process.argv[4] ?? 16);

/** `n` accepted maximums from two bidders taking turns, $1 apart, and the row's standing to match. Resolves to the next free maximum in cents. */
function prefill(sqlite: Database, auctionId: number, bidderIds: [number, number], n: number, at: number): number {
  const auction = sqlite.query('select product_id, starting_bid_cents, increment_cents, reserve_cents from auctions where id = ?').get(auctionId) as {
    product_id: number;
    starting_bid_cents: number;
    increment_cents: number | null;
    reserve_cents: number | null;
  };
  const rules = { startingBidCents: auction.starting_bid_cents, incrementCents: auction.increment_cents, reserveCents: auction.reserve_cents };
  const keepsLeaderMax = (sqlite.query('select name from pragma_table_info(?)').all('auctions') as { name: string }[]).some(
    (column) => column.name === 'leader_max_cents',
  );
  const maximums: Maximum[] = [];
  sqlite.transaction(() => {
    const addMax = sqlite.prepare('insert into auction_maximums (auction_id, user_id, max_cents, created_at) values (?, ?, ?, ?)');
    const addBid = sqlite.prepare('insert into bids (product_id, auction_id, user_id, amount_cents, proxy, created_at) values (?, ?, ?, ?, 0, ?)');
    for (let i = 1; i <= n; i++) {
      const max: Maximum = { bidderId: bidderIds[i % 2] as number, maxCents: rules.startingBidCents + i * 100, at };
      addMax.run(auctionId, max.bidderId, max.maxCents, at);
      addBid.run(auction.product_id, auctionId, max.bidderId, i === 1 ? rules.startingBidCents : max.maxCents, at);
      maximums.push(max);
    }
    const standing = standingOf(rules, maximums);
    sqlite
      .query(
        `update auctions set status = 'running', leader_id = ?, current_price_cents = ?, bid_count = ?, reserve_met = ?${keepsLeaderMax ? ', leader_max_cents = ?' : ''} where id = ?`,
      )
      .run(
        ...([
          standing.leaderId,
          standing.priceCents,
          n,
          standing.reserveMet ? 1 : 0,
          ...(keepsLeaderMax ? [standing.leaderMaxCents] : []),
          auctionId,
        ] as number[]),
      );
  })();
  return rules.startingBidCents + (n + 1) * 100;
}

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

// ------------------------------------------------------------------ (1) over HTTP: fresh vs deep, against /ping
const server = await benchServer({ LOG_LEVEL: 'warn' });
try {
  const file = new SqliteFile(join(server.dataDir, 'data', 'store.db'));
  const [fresh, deepOne] = (file.query('select id from products order by id limit 2').all() as { id: number }[]).map((row) => row.id) as [number, number];
  file.query('update products set bid_enabled = 1, quantity = 1 where id in (?, ?)').run(fresh, deepOne);
  const admin = new Client(server);
  await admin.ok('POST', '/api/login', { username: 'admin', password: 'bench-admin-pass' });
  await admin.ok('POST', '/api/admin/pin', { pin: '123456' });
  for (const id of [fresh, deepOne]) await admin.ok('PUT', `/api/admin/products/${id}/auction`, { startingBid: 1, increment: 1 });
  const bidders = await Promise.all(Array.from({ length: 20 }, (_, i) => shopperWithCard(server, `deep${i}`)));
  const idOf = (name: string) => (file.query('select id from users where username = ?').get(name) as { id: number }).id;
  const { id: deepAuction } = file.query('select id from auctions where product_id = ?').get(deepOne) as { id: number };
  const started = performance.now();
  const deepNext = prefill(file, deepAuction, [idOf('deep0'), idOf('deep1')], deep, Date.now());
  const prefillMs = performance.now() - started;
  file.close();

  const ms = seconds * 1000;
  const bidsOn = (productId: number, firstCents: number) => {
    let next = firstCents;
    let turn = 0;
    return (forMs: number) =>
      during(forMs, concurrency, async () => {
        const client = bidders[turn++ % bidders.length] as Client;
        const maxAmount = (next += 100) / 100;
        return (await client.request('POST', `/api/products/${productId}/bids`, { maxAmount })).status === 201;
      });
  };
  const ping = await during(ms, concurrency, async () => (await fetch(`${server.url}/ping`)).ok);
  // Fresh, deep, deep, fresh (half the time each): the machine's drift falls on both alike.
  const freshBids = bidsOn(fresh, 100);
  const deepBids = bidsOn(deepOne, deepNext);
  const sum = (a: { done: number; ok: number }, b: { done: number; ok: number }) => ({ done: a.done + b.done, ok: a.ok + b.ok });
  const fresh1 = await freshBids(ms / 2);
  const deep1 = await deepBids(ms / 2);
  const onDeep = sum(deep1, await deepBids(ms / 2));
  const onFresh = sum(fresh1, await freshBids(ms / 2));
  const ping2 = await during(ms, concurrency, async () => (await fetch(`${server.url}/ping`)).ok);
  const pingRate = (ping.done + ping2.done) / 2 / seconds;
  const row = (what: string, r: { done: number; ok: number }) =>
    `| ${what} | ${(r.done / seconds).toFixed(0)} | ${(r.ok / seconds).toFixed(0)} | ${((100 * r.done) / seconds / pingRate).toFixed(1)}% |`;
  console.log(
    `one server process, ${concurrency} clients at once, ${seconds} s each (ping; fresh, deep, deep, fresh at half each; ping); ${deep} prior bids written in ${prefillMs.toFixed(0)} ms`,
  );
  console.log('| what | answers/s | accepted/s | share of /ping |');
  console.log('|---|---:|---:|---:|');
  console.log(`| GET /ping | ${pingRate.toFixed(0)} | | 100% |`);
  console.log(row('POST bids, fresh auction', onFresh));
  console.log(row(`POST bids, auction with ${deep} prior bids`, onDeep));
} finally {
  await server.stop();
}

// ------------------------------------------------------------------ (2) in process: one bid at both depths
const db = await openMigratedDatabase();
const clock = new ManualClock(Date.UTC(2026, 10, 26, 18, 0, 0));
const deps = { db, clock, gateway: createTestGateway() };
const people = Array.from(
  { length: 4 },
  (_, i) =>
    db
      .insert(users)
      .values({ username: `inproc${i}`, passwordHash: 'x', createdAt: clock.now() })
      .returning()
      .get().id,
);
for (const id of people) completeProfile({ db, clock }, id);
const auctionFor = (model: string) => {
  const product = db
    .insert(products)
    .values({ brand: 'Bench', model, quantity: 1, priceCents: 10_000, bidEnabled: true, createdAt: clock.now() })
    .returning()
    .get();
  return { productId: product.id, auction: setUpAuction(deps, product.id, { startingBid: 1, increment: 1 }) };
};
const freshOne = auctionFor('FRESH');
const deepIn = auctionFor('DEEP');
let deepCents = prefill(db.$client, deepIn.auction.id, [people[0]!, people[1]!], deep, clock.now());
let freshCents = 100;
const BIDS = 100;
const ROUNDS = 7;
const timeBids = (productId: number, nextCents: () => number) => {
  const started = performance.now();
  for (let i = 0; i < BIDS; i++) bid(deps, { id: people[2 + (i % 2)]!, isAdmin: false }, productId, nextCents() / 100);
  return (performance.now() - started) / BIDS;
};
const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] as number;
timeBids(
  auctionFor('WARM-UP').productId,
  (() => {
    let warm = 100;
    return () => (warm += 100);
  })(),
);
// Rounds of 100 bids, fresh and deep in turn; the median round of each.
const freshRounds: number[] = [];
const deepRounds: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  freshRounds.push(timeBids(freshOne.productId, () => (freshCents += 100)));
  deepRounds.push(timeBids(deepIn.productId, () => (deepCents += 100)));
}
const freshMs = median(freshRounds);
const deepMs = median(deepRounds);
console.log(
  `\nin process, ${ROUNDS} rounds of ${BIDS} bids in turn, median round: ${freshMs.toFixed(3)} ms per bid on a fresh auction, ${deepMs.toFixed(3)} ms per bid with ${deep} prior bids (${(deepMs / freshMs).toFixed(2)}x)`,
);
