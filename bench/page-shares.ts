/**
 * Issue 35's figures: every page a person opens, as a share of a bare `Bun.serve` answering "ok",
 * measured in the same run on the demo store (its auctions live), visitor and signed in, cached
 * and rendered for each request (`?r=1`); then the same rows again once the store is busy (a year
 * of settled games, 120 open games and 40 more live auctions, written while it runs), to show the
 * pages keep their share as live auctions and games grow. Rows are interleaved round by round
 * (bare first in each round) and the median share of the rounds is reported, because this
 * machine's speed drifts between minutes. Beside requests/s, each row's server CPU per answer
 * (from /proc, as bench/ping-cost.ts): the share of bare by CPU is bare's CPU per answer over the
 * row's, which wrk sharing the two cores with the server disturbs far less than requests/s.
 * Usage: bun bench/page-shares.ts [seconds=3] [rounds=3]    Needs `apt-get install wrk`.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { openMigratedDatabase } from '../src/db/client.ts';
import { Client, shopperWithCard } from '../tests/helpers/http-client.ts';
import { buildYear } from './year-data.ts';
import { bareServer, benchServer, cpuMicros, median, requireWrk, type WrkRow, wrk } from './wrk.ts';

const seconds = Number(process.argv[2] ?? 3);
const rounds = Number(process.argv[3] ?? 3);
requireWrk();

interface Target {
  what: string;
  url: string;
  pid: number;
  headers?: string[];
}

interface Measured {
  target: Target;
  row: WrkRow;
  ofBare: number;
  /** The server's CPU per answer, in µs. */
  cpu: number;
  /** Bare's CPU per answer over this row's, in the same round. */
  ofBareByCpu: number;
  /** The share of the row's page cache lookups answered from the cache (null for rows that look none up). */
  kept: number | null;
}

/** The store's page cache lookups so far (csa_page_cache_lookups_total, this machine may read /metrics). */
async function cacheLookups(): Promise<{ hits: number; misses: number }> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const count = (result: string) => Number(text.match(new RegExp(`^csa_page_cache_lookups_total\\{result="${result}"\\} (\\d+)`, 'm'))?.[1] ?? 0);
  return { hits: count('hit'), misses: count('miss') };
}

async function measure(targets: Target[]): Promise<Measured[]> {
  for (const target of targets) wrk(target.url, 1, target.headers); // fill caches, warm the JIT
  const runs = targets.map(() => [] as Measured[]);
  for (let round = 0; round < rounds; round++) {
    const rows: { row: WrkRow; cpu: number; kept: number | null }[] = [];
    for (const target of targets) {
      const lookups = target.pid === bare.pid ? null : await cacheLookups();
      const before = cpuMicros(target.pid);
      const row = wrk(target.url, seconds, target.headers);
      const cpu = (cpuMicros(target.pid) - before) / (row.rps * seconds);
      const after = lookups && (await cacheLookups());
      const looked = lookups && after ? after.hits + after.misses - lookups.hits - lookups.misses : 0;
      rows.push({ row, cpu, kept: lookups && after && looked > 0 ? (after.hits - lookups.hits) / looked : null });
    }
    for (const [index, { row, cpu, kept }] of rows.entries()) {
      runs[index]!.push({ target: targets[index]!, row, cpu, kept, ofBare: row.rps / rows[0]!.row.rps, ofBareByCpu: rows[0]!.cpu / cpu });
    }
  }
  return targets.map((_, index) => {
    const byRps = median(runs[index]!, (run) => run.ofBare);
    const kept = runs[index]!.map((run) => run.kept).filter((share): share is number => share !== null);
    return { ...byRps, ofBareByCpu: median(runs[index]!, (run) => run.ofBareByCpu).ofBareByCpu, kept: kept.length ? Math.min(...kept) : null };
  });
}

const server = await benchServer({ LOG_LEVEL: 'warn' });
const bare = await bareServer();
try {
  const file = new Database(join(server.dataDir, 'data', 'store.db'), { readonly: true });
  const { id } = file.query('select id from products where archived_at is null order by quantity > 0 desc, id limit 1').get() as { id: number };
  file.close();
  const shopper = await shopperWithCard(server, 'pageshares');
  const signedIn = [`Cookie: ${shopper.cookie}`];
  const pid = server.child.pid!;
  const targets: Target[] = [
    { what: 'bare Bun.serve "ok"', url: bare.url, pid: bare.pid },
    { what: '/ping', url: `${server.url}/ping`, pid },
    { what: 'visitor /', url: `${server.url}/`, pid },
    { what: 'visitor /products', url: `${server.url}/products`, pid },
    { what: 'visitor product page', url: `${server.url}/product/${id}`, pid },
    { what: 'signed-in /', url: `${server.url}/`, pid, headers: signedIn },
    { what: 'signed-in product page', url: `${server.url}/product/${id}`, pid, headers: signedIn },
    { what: '/?r=1 (rendered each time)', url: `${server.url}/?r=1`, pid },
  ];
  const demo = await measure(targets);

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
  const busy = await measure(targets);

  console.log(`wrk, 1 thread, 32 connections, ${seconds} s a row, gzip; NODE_ENV=production; median of ${rounds} interleaved rounds\n`);
  console.log('| page | demo store: requests/s | share of bare | busy store: requests/s | share of bare | busy keeps |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const [index, row] of demo.entries()) {
    const after = busy[index]!;
    console.log(
      `| ${row.target.what} | ${row.row.rps.toFixed(0)} | ${(row.ofBare * 100).toFixed(1)}% | ${after.row.rps.toFixed(0)} | ${(after.ofBare * 100).toFixed(1)}% | ${((after.ofBare / row.ofBare) * 100).toFixed(0)}% |`,
    );
  }
  console.log("\nBy the server's CPU per answer (bare's over the row's, same round):\n");
  console.log(
    '| page | demo store: CPU per answer | share of bare | busy store: CPU per answer | share of bare | busy keeps | kept answers, demo / busy (least round) |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const keptText = (share: number | null) => (share === null ? '-' : `${(share * 100).toFixed(1)}%`);
  for (const [index, row] of demo.entries()) {
    const after = busy[index]!;
    console.log(
      `| ${row.target.what} | ${row.cpu.toFixed(1)} µs | ${(row.ofBareByCpu * 100).toFixed(1)}% | ${after.cpu.toFixed(1)} µs | ${(after.ofBareByCpu * 100).toFixed(1)}% | ${((after.ofBareByCpu / row.ofBareByCpu) * 100).toFixed(0)}% | ${keptText(row.kept)} / ${keptText(after.kept)} |`,
    );
  }
  const errors = [...demo, ...busy].filter((row) => row.row.errors !== '0');
  if (errors.length) console.log(`\nnon-2xx answers: ${errors.map((row) => `${row.target.what} ${row.row.errors}`).join(', ')}`);
} finally {
  await bare.stop();
  await server.stop();
}
