/**
 * What one process serves on this machine (docs/operations.md, "Capacity"): requests/s and
 * p99 with wrk (1 thread, 32 connections, gzip) for visitor pages, signed-in pages and the
 * checkout, each as a share of /ping measured in the same run, production mode, logs on
 * (JSON lines at info, written to /dev/null); and /ping as a share of a bare Bun.serve answering
 * "ok" (the floor of any answer here: what the middleware every request pays costs).
 * Usage: bun bench/capacity.ts [seconds=5] [rounds=3]    Needs `apt-get install wrk`.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { buyNowBody, COMPLETE_PROFILE } from '../tests/helpers/actors.ts';
import { Client } from '../tests/helpers/http-client.ts';
import { bareServer, benchServer, requireWrk } from './wrk.ts';

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
requireWrk();

const server = await benchServer();

interface Row {
  what: string;
  rps: number;
  p99: number;
  errors: string;
}

function wrk(url: string, headers: string[] = [], script?: string): Row {
  const args = ['wrk', '-t1', '-c32', `-d${seconds}s`, '--latency', '-H', 'Accept-Encoding: gzip', ...headers.flatMap((h) => ['-H', h])];
  if (script) args.push('-s', script);
  const out = Bun.spawnSync([...args, url], { stdout: 'pipe', stderr: 'pipe' }).stdout.toString();
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  const p99Text = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = p99Text ? Number(p99Text[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[p99Text[2]!]! : Number.NaN;
  return { what: url, rps, p99, errors: /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0' };
}

const bare = await bareServer();
try {
  const db = new Database(join(server.dataDir, 'data', 'store.db'));
  const product = db.query("select id, price_cents as priceCents from products where model = 'RB3025-L0205'").get() as { id: number; priceCents: number };
  // Enough stock that every checkout of the run can sell a unit.
  db.query('update products set quantity = 1000000 where id = ?').run(product.id);
  db.query('update product_variants set quantity = 1000000, stocked = 1000000 where product_id = ?').run(product.id);
  db.close();

  const shopper = new Client(server);
  await shopper.ok('POST', '/api/register', { username: 'capacity-shopper', password: 'secret-pass' });
  await shopper.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
  const cookie = `Cookie: ${shopper.cookie}`;

  // The checkout: buy now with the saved card, as the /checkout page posts it.
  const body = JSON.stringify(buyNowBody(product.id, product.priceCents)).replaceAll('\\', '\\\\').replaceAll('"', '\\"');
  const script = join(server.dataDir, 'checkout.lua');
  await Bun.write(
    script,
    `wrk.method = "POST"\nwrk.body = "${body}"\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Origin"] = "${server.url}"\nwrk.headers["Cookie"] = "${shopper.cookie}"\n`,
  );

  const targets: { what: string; url: string; headers?: string[]; script?: string }[] = [
    { what: 'visitor /', url: `${server.url}/` },
    { what: `visitor /product/${product.id}`, url: `${server.url}/product/${product.id}` },
    { what: 'signed-in /', url: `${server.url}/`, headers: [cookie] },
    { what: `signed-in /product/${product.id}`, url: `${server.url}/product/${product.id}`, headers: [cookie] },
    // An unknown parameter is never served from the page cache: the full render of every request.
    { what: '/ rendered per request (/?utm=bench)', url: `${server.url}/?utm=bench` },
    { what: 'signed-in /cart (rendered per request)', url: `${server.url}/cart`, headers: [cookie] },
    { what: 'checkout (POST /api/orders, buy now)', url: `${server.url}/api/orders`, script },
  ];
  // Each row is warmed up (JIT, caches) for 2 s before its measured run, so order does not
  // matter; /ping, the same few lines each time, is warmed up once.
  const measure = (url: string, headers: string[] = [], script?: string, warm = true): Row => {
    if (warm)
      Bun.spawnSync(
        ['wrk', '-t1', '-c32', '-d2s', '-H', 'Accept-Encoding: gzip', ...headers.flatMap((h) => ['-H', h]), ...(script ? ['-s', script] : []), url],
        {
          stdout: 'ignore',
        },
      );
    return wrk(url, headers, script);
  };
  // This machine's speed drifts by a third between minutes, so each round measures /ping
  // before and after every row (one /ping between two rows serves both), and the row's share
  // of the mean of the two is the figure; the median of the rounds is reported.
  const shares = targets.map(() => [] as { share: number; row: Row }[]);
  const pings: Row[] = [];
  const bares: Row[] = [];
  for (let round = 0; round < rounds; round++) {
    bares.push(measure(bare.url));
    let before = measure(`${server.url}/ping`);
    pings.push(before);
    for (const [index, target] of targets.entries()) {
      const row = measure(target.url, target.headers, target.script);
      const after = measure(`${server.url}/ping`, [], undefined, false);
      pings.push(after);
      shares[index]!.push({ share: row.rps / ((before.rps + after.rps) / 2), row });
      before = after;
    }
  }
  const median = <T>(values: T[], by: (value: T) => number) => [...values].sort((a, b) => by(a) - by(b))[Math.floor(values.length / 2)]!;
  console.log(`wrk, 1 thread, 32 connections, ${seconds} s each, gzip; NODE_ENV=production, test gateway, JSON logs at info; median of ${rounds} rounds\n`);
  console.log('| what | requests/s | p99 | share of /ping | non-2xx |');
  console.log('|---|---:|---:|---:|---:|');
  const ping = median(pings, (row) => row.rps);
  const floor = median(bares, (row) => row.rps);
  console.log(
    `| bare Bun.serve "ok" | ${floor.rps.toFixed(0)} | ${floor.p99.toFixed(2)} ms | ${((floor.rps / ping.rps) * 100).toFixed(0)}% | ${floor.errors} |`,
  );
  console.log(
    `| /ping (${((ping.rps / floor.rps) * 100).toFixed(0)}% of bare Bun.serve) | ${ping.rps.toFixed(0)} | ${ping.p99.toFixed(2)} ms | 100% | ${ping.errors} |`,
  );
  for (const [index, target] of targets.entries()) {
    const { share, row } = median(shares[index]!, (entry) => entry.share);
    console.log(`| ${target.what} | ${row.rps.toFixed(0)} | ${row.p99.toFixed(2)} ms | ${(share * 100).toFixed(1)}% | ${row.errors} |`);
  }
} finally {
  await bare.stop();
  await server.stop();
}
