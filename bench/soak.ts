/**
 * The soak (issue 26): SOAK_SECONDS (default 600) of ordinary orders and plays against the real
 * server in production mode, while every 30 s (SOAK_SAMPLE_SECONDS) a wrk run of the page mix
 * (/, /products, /scoreboard, a product page) measures page throughput and the server's RSS is
 * read. The end should be within 20% of the start, both for throughput and memory.
 * Usage: SOAK_SECONDS=600 bun bench/soak.ts    (BENCH_KEEP=1 keeps the store's folder)
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buyNowBody, COMPLETE_PROFILE } from '../tests/helpers/actors.ts';
import { Client } from '../tests/helpers/http-client.ts';
import { startServer } from '../tests/helpers/server.ts';
import { requireWrk } from './wrk.ts';

const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const SAMPLE_SECONDS = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
requireWrk();

const keep = process.env.BENCH_KEEP ? (await import('node:fs')).mkdtempSync('/tmp/csa-soak-') : undefined;
const retainedFile = join(tmpdir(), `csa-soak-retained-${process.pid}.json`);
const server = await startServer({
  quiet: true,
  dataDir: keep,
  env: {
    // The server's memory after a full collection, every 10 s (bench/soak-retained.ts).
    BUN_OPTIONS: `--preload ${join(import.meta.dir, 'soak-retained.ts')}`,
    SOAK_RETAINED_FILE: retainedFile,
    NODE_ENV: 'production',
    // Production requires the key that seals unrevealed draw seeds (issue 36).
    SEED_KEY: '5e'.repeat(32),
    MAIL: 'off',
    SEED_DEMO: '1',
    PAYMENTS: 'test',
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'info',
    ADMIN_PASSWORD: 'bench-admin-pass',
    ADMIN_PIN: '123456',
  },
});
const rssMiB = () => {
  const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
};

/** The JS heap in use, from the store's own /metrics (this machine may read it): native memory is the rest of RSS. */
const heapMiB = async () => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const used = /^csa_nodejs_heap_size_used_bytes (\S+)/m.exec(text)?.[1];
  return used ? (Number(used) / 1024 / 1024).toFixed(0) : '?';
};

/** RSS after the server's last full collection (what it keeps, not what awaits the collector). */
interface Retained {
  seq: number;
  rss: number;
  heap: number;
  objects: number;
  kinds: [string, number][];
}
const retainedNow = (): Retained | null => {
  try {
    return existsSync(retainedFile) ? (JSON.parse(readFileSync(retainedFile, 'utf8')) as Retained) : null;
  } catch {
    return null; // caught while the server was writing it
  }
};
/** Asks the server for its memory after a full collection (bench/soak-retained.ts) and waits for the answer. */
let asked = 0;
const measureRetained = async () => {
  asked++;
  process.kill(server.child.pid, 'SIGUSR2');
  for (let tries = 0; tries < 200 && (retainedNow()?.seq ?? 0) < asked; tries++) await Bun.sleep(50);
};
const retainedMiB = () => (retainedNow()?.rss ?? 0) / 1024 / 1024;
const retainedHeapMiB = () => ((retainedNow()?.heap ?? 0) / 1024 / 1024).toFixed(0);
let firstKinds: [string, number][] | null = null;

try {
  const { Database } = await import('bun:sqlite');
  const db = new Database(join(server.dataDir, 'data', 'store.db'));
  db.exec('update products set quantity = 1000000');
  db.exec('update product_variants set quantity = 1000000, stocked = 1000000');
  const products = db.query('select id, price_cents as priceCents, play_enabled as play from products').all() as {
    id: number;
    priceCents: number;
    play: number;
  }[];
  const influencers = (db.query('select id from influencers').all() as { id: number }[]).map((i) => String(i.id));
  db.close();
  const playable = products.filter((p) => p.play);

  // The page mix, one wrk script over four URLs.
  const mix = join(server.dataDir, 'mix.lua');
  const paths = ['/', '/products', '/scoreboard', `/product/${products[0]!.id}`];
  await Bun.write(
    mix,
    `local paths = {${paths.map((p) => `"${p}"`).join(', ')}}\nlocal i = 0\nrequest = function()\n  i = i + 1\n  return wrk.format("GET", paths[(i % #paths) + 1])\nend\n`,
  );
  const run = async (args: string[]) => {
    const child = Bun.spawn(['wrk', '-t1', '-c16', '-d5s', '-H', 'Accept-Encoding: gzip', ...args], { stdout: 'pipe' });
    const out = await new Response(child.stdout).text();
    return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  };
  const pageMix = () => run(['-s', mix, server.url]);
  // The machine's own speed drifts (other work on it): /ping, measured right after, is the yardstick.
  const ping = () => run([`${server.url}/ping`]);

  // Shoppers: each buys now and plays (a player may enter 10 games a day, so new shoppers keep coming).
  let shoppers = 0;
  let orders = 0;
  let plays = 0;
  let failures = 0;
  const newShopper = async () => {
    const client = new Client(server);
    await client.ok('POST', '/api/register', { username: `soak-${++shoppers}`, password: 'secret-pass' });
    await client.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
    await client.ok('POST', '/api/user/play-consent', { adult: true, acceptRules: true });
    return client;
  };
  let stop = false;
  const worker = async (n: number) => {
    while (!stop) {
      const client = await newShopper();
      for (let round = 0; round < 10 && !stop; round++) {
        const product = products[(n + round * 7 + shoppers) % products.length]!;
        const order = await client.request('POST', '/api/orders', buyNowBody(product.id, product.priceCents));
        if (order.ok) orders++;
        else failures++;
        await order.arrayBuffer();
        const game = playable[(n * 3 + round + shoppers) % playable.length]!;
        const picks = influencers.slice(round % 8, (round % 8) + 5);
        const entry = await client.request('POST', '/api/plays', { productId: game.id, influencerIds: picks });
        await entry.arrayBuffer();
        if (entry.ok) {
          const paid = await client.request('POST', '/api/payments', { productId: game.id, amount: 1, type: 'play' });
          if (paid.ok) plays++;
          await paid.arrayBuffer();
        }
      }
    }
  };

  console.log(`soak: ${SOAK_SECONDS} s of orders and plays (4 shoppers at a time), the page mix ${paths.join(' ')} sampled every ${SAMPLE_SECONDS} s\n`);
  console.log(
    '| at | page mix requests/s | /ping requests/s | page mix / ping | RSS MiB | RSS after full GC MiB | JS heap used MiB | JS heap after full GC MiB | orders | plays | refused |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const samples: { rps: number; share: number; rss: number; retained: number }[] = [];
  const sample = async (at: number) => {
    const rps = await pageMix();
    const pings = await ping();
    const rss = rssMiB();
    await measureRetained();
    const retained = retainedMiB();
    firstKinds ??= retainedNow()?.kinds ?? null;
    samples.push({ rps, share: rps / pings, rss, retained });
    console.log(
      `| ${at} s | ${rps.toFixed(0)} | ${pings.toFixed(0)} | ${((rps / pings) * 100).toFixed(1)}% | ${rss.toFixed(0)} | ${retained.toFixed(0)} | ${await heapMiB()} | ${retainedHeapMiB()} | ${orders} | ${plays} | ${failures} |`,
    );
  };
  // The orders and plays run all along: the first sample is taken under them, like every other.
  const workers = [0, 1, 2, 3].map((n) => worker(n));
  // A warm-up first (the JIT, the first shoppers' sign-ups).
  await Bun.sleep(15_000);
  await sample(0);
  const began = Date.now();
  while (Date.now() - began < SOAK_SECONDS * 1000) {
    await Bun.sleep(Math.min(SAMPLE_SECONDS * 1000, SOAK_SECONDS * 1000 - (Date.now() - began)));
    await sample(Math.round((Date.now() - began) / 1000));
  }
  stop = true;
  await Promise.allSettled(workers);
  const last = samples.at(-1)!;
  // The last three samples against the first three: one 5 s sample on a shared machine is noisy.
  const mean = (list: typeof samples, of: (s: (typeof samples)[number]) => number) => list.reduce((sum, s) => sum + of(s), 0) / list.length;
  const head = samples.slice(0, 3);
  const tail = samples.slice(-3);
  console.log(
    `\nend vs start (mean of the last 3 samples against the first 3): page mix ${((mean(tail, (s) => s.rps) / mean(head, (s) => s.rps)) * 100).toFixed(0)}% ` +
      `(${mean(head, (s) => s.rps).toFixed(0)} -> ${mean(tail, (s) => s.rps).toFixed(0)} req/s), as a share of /ping ${((mean(tail, (s) => s.share) / mean(head, (s) => s.share)) * 100).toFixed(0)}%, ` +
      `RSS ${mean(head, (s) => s.rss).toFixed(0)} -> ${mean(tail, (s) => s.rss).toFixed(0)} MiB (last ${last.rss.toFixed(0)}), ` +
      `after a full GC ${mean(head, (s) => s.retained).toFixed(0)} -> ${mean(tail, (s) => s.retained).toFixed(0)} MiB (${((mean(tail, (s) => s.retained) / mean(head, (s) => s.retained)) * 100).toFixed(0)}%)`,
  );
  // Live objects after a full collection, by kind: the first sample's count and the last's.
  const lastKinds = new Map(retainedNow()?.kinds ?? []);
  const before = new Map(firstKinds ?? []);
  console.log('\n| kind of live object | first sample | last sample |\n|---|---:|---:|');
  for (const [kind, count] of lastKinds) console.log(`| ${kind} | ${before.get(kind) ?? '-'} | ${count} |`);
} finally {
  await server.stop();
  rmSync(retainedFile, { force: true });
  if (keep) console.log(`kept ${keep}`);
}
