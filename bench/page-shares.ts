/**
 * Issue 35's figures: every page a person opens, as a share of a bare `Bun.serve` answering "ok",
 * measured in the same run on the demo store (its auctions live), visitor and signed in, cached
 * and rendered for each request (`?r=1`); then the same rows again once the store is busy (a year
 * of settled games, 120 open games and 40 more live auctions, written while it runs), to show the
 * pages keep their share as live auctions and games grow. Rows are interleaved round by round
 * (bare first in each round) and the median share of the rounds is reported, because this
 * machine's speed drifts between minutes.
 * Usage: bun bench/page-shares.ts [seconds=3] [rounds=3]    Needs `apt-get install wrk`.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { openMigratedDatabase } from '../src/db/client.ts';
import { Client, shopperWithCard } from '../tests/helpers/http-client.ts';
import { buildYear } from './year-data.ts';
import { bareServer, benchServer, median, requireWrk, type WrkRow, wrk } from './wrk.ts';

const seconds = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 3);
requireWrk();

interface Target {
  what: string;
  url: string;
  headers?: string[];
}

function measure(targets: Target[]): { target: Target; row: WrkRow; ofBare: number }[] {
  for (const target of targets) wrk(target.url, 1, target.headers); // fill caches, warm the JIT
  const runs = targets.map(() => [] as { row: WrkRow; ofBare: number }[]);
  for (let round = 0; round < rounds; round++) {
    const rows = targets.map((target) => wrk(target.url, seconds, target.headers));
    for (const [index, row] of rows.entries()) runs[index]!.push({ row, ofBare: row.rps / rows[0]!.rps });
  }
  return targets.map((target, index) => ({ target, ...median(runs[index]!, (run) => run.ofBare) }));
}

const server = await benchServer({ LOG_LEVEL: 'warn' });
const bare = await bareServer();
try {
  const file = new Database(join(server.dataDir, 'data', 'store.db'), { readonly: true });
  const { id } = file.query('select id from products where archived_at is null order by quantity > 0 desc, id limit 1').get() as { id: number };
  file.close();
  const shopper = await shopperWithCard(server, 'pageshares');
  const signedIn = [`Cookie: ${shopper.cookie}`];
  const targets: Target[] = [
    { what: 'bare Bun.serve "ok"', url: bare.url },
    { what: '/ping', url: `${server.url}/ping` },
    { what: 'visitor /', url: `${server.url}/` },
    { what: 'visitor /products', url: `${server.url}/products` },
    { what: 'visitor product page', url: `${server.url}/product/${id}` },
    { what: 'signed-in /', url: `${server.url}/`, headers: signedIn },
    { what: 'signed-in product page', url: `${server.url}/product/${id}`, headers: signedIn },
    { what: '/?r=1 (rendered each time)', url: `${server.url}/?r=1` },
  ];
  const demo = measure(targets);

  // Busy: a year of games, 120 open games, 40 more live auctions, written beside the running server.
  const db = await openMigratedDatabase(join(server.dataDir, 'data', 'store.db'));
  buildYear(db, Date.now(), { games: 18_000, openGames: 120, snapshotRows: 50_000 });
  const now = Date.now();
  const auctionIds: number[] = [];
  for (let i = 0; i < 40; i++) {
    const row = db.$client
      .query<{ id: number }, [string, number]>(
        `insert into products (product_type, brand, model, quantity, price_cents, buy_now_enabled, bid_enabled, created_at) values ('sunglasses', 'Bench', ?, 1, 9000, 1, 1, ?) returning id`,
      )
      .get(`Auction ${i}`, now)!;
    auctionIds.push(row.id);
  }
  db.$client.close();
  const admin = new Client(server);
  await admin.ok('POST', '/api/login', { username: 'admin', password: 'bench-admin-pass' });
  await admin.ok('POST', '/api/admin/pin', { pin: '123456' });
  for (const productId of auctionIds) await admin.ok('PUT', `/api/admin/products/${productId}/auction`, { startingBid: 10, increment: 1 });
  const busy = measure(targets);

  console.log(`wrk, 1 thread, 32 connections, ${seconds} s a row, gzip; NODE_ENV=production; median of ${rounds} interleaved rounds\n`);
  console.log('| page | demo store: requests/s | share of bare | busy store: requests/s | share of bare | busy keeps |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [index, row] of demo.entries()) {
    const after = busy[index]!;
    console.log(
      `| ${row.target.what} | ${row.row.rps.toFixed(0)} | ${(row.ofBare * 100).toFixed(1)}% | ${after.row.rps.toFixed(0)} | ${(after.ofBare * 100).toFixed(1)}% | ${((after.ofBare / row.ofBare) * 100).toFixed(0)}% |`,
    );
  }
  const errors = [...demo, ...busy].filter((row) => row.row.errors !== '0');
  if (errors.length) console.log(`\nnon-2xx answers: ${errors.map((row) => `${row.target.what} ${row.row.errors}`).join(', ')}`);
} finally {
  await bare.stop();
  await server.stop();
}
