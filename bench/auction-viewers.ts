/**
 * Issue 28: the time from a bid to every viewer's auction panel data. N live connections on one
 * production process (GET /api/events?product=ID, each read as an EventSource reads it), one bid
 * through the API, and the time until each connection has received the `event: auction` that
 * carries the new price: first, p50, p95 and max. GET /ping in the same run, with the viewers
 * connected, for scale.
 * Usage: bun bench/auction-viewers.ts [viewers=1000] [rounds=5]
 * As bench/sse.ts: the script runs itself again with Bun's fetch allowed enough open requests,
 * and each viewer is its own shopper behind a proxy on this machine (X-Forwarded-For), since
 * the store takes at most 20 streams from one address.
 */
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { Client, shopperWithCard } from '../tests/helpers/http-client.ts';
import { benchServer } from './wrk.ts';

const viewers = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 5);
if (Number(process.env.BUN_CONFIG_MAX_HTTP_REQUESTS ?? 0) < viewers + 100) {
  const child = Bun.spawn([process.execPath, import.meta.path, String(viewers), String(rounds)], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(Math.min(65_000, viewers + 100)) },
    stdout: 'inherit',
    stderr: 'inherit',
  });
  process.exit(await child.exited);
}

const server = await benchServer({ LOG_LEVEL: 'warn', TRUST_PROXY: 'loopback' });
const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
try {
  const file = new Database(join(server.dataDir, 'data', 'store.db'));
  const { id: productId } = file.query('select id from products order by id limit 1').get() as { id: number };
  file.query('update products set bid_enabled = 1, quantity = 1 where id = ?').run(productId);
  file.close();
  const admin = new Client(server);
  await admin.ok('POST', '/api/login', { username: 'admin', password: 'bench-admin-pass' });
  await admin.ok('POST', '/api/admin/pin', { pin: '123456' });
  await admin.ok('PUT', `/api/admin/products/${productId}/auction`, { startingBid: 10, increment: 1 });
  const [leader, challenger] = await Promise.all([shopperWithCard(server, 'watch_leader'), shopperWithCard(server, 'watch_challenger')]);

  // Each viewer notes when the auction message it waits for (`expected`) arrives.
  let expected: string | null = null;
  let arrivals: number[] = [];
  const opened: Promise<void>[] = [];
  const started = performance.now();
  for (let i = 0; i < viewers; i++) {
    opened.push(
      (async () => {
        const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
        const response = await fetch(`${server.url}/api/events?product=${productId}`, { headers: { 'x-forwarded-for': address } });
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        readers.push(reader);
        const decoder = new TextDecoder();
        let ready!: () => void;
        const isReady = new Promise<void>((resolve) => (ready = resolve));
        void (async () => {
          let text = '';
          let seen: string | null = null;
          for (;;) {
            const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
            if (done) return;
            text += decoder.decode(value, { stream: true });
            if (text.includes('event: ready')) ready();
            // One SSE message ends with a blank line: look at whole messages only.
            let end = text.indexOf('\n\n');
            while (end >= 0) {
              const message = text.slice(0, end);
              text = text.slice(end + 2);
              if (expected && seen !== expected && message.includes('event: auction') && message.includes(expected)) {
                seen = expected;
                arrivals.push(performance.now());
              }
              end = text.indexOf('\n\n');
            }
          }
        })();
        await isReady;
      })(),
    );
    if (i % 250 === 249) await Promise.all(opened.slice(i - 249, i + 1));
  }
  await Promise.all(opened);
  const connectMs = performance.now() - started;

  // Round r: the leader's maximum rises, the challenger is outbid at once, a price nobody has seen yet.
  const figures: number[][] = [];
  let leaderMax = 100;
  for (let round = 0; round < rounds; round++) {
    leaderMax += 100;
    await leader.ok('POST', `/api/products/${productId}/bids`, { maxAmount: leaderMax });
    const challenge = leaderMax - 50;
    expected = `"currentPrice":${challenge + 1},`;
    arrivals = [];
    const bidAt = performance.now();
    await challenger.ok('POST', `/api/products/${productId}/bids`, { maxAmount: challenge });
    const deadline = Date.now() + 15_000;
    while (arrivals.length < viewers && Date.now() < deadline) await Bun.sleep(10);
    figures.push(arrivals.map((t) => t - bidAt).sort((a, b) => a - b));
    expected = null;
  }

  const pingMs = 3000;
  let pings = 0;
  const until = performance.now() + pingMs;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (performance.now() < until) if ((await fetch(`${server.url}/ping`)).ok) pings++;
    }),
  );

  const at = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  console.log(`${viewers} viewers of one auction on one process (production, /api/events?product=${productId}); opened in ${Math.round(connectMs)} ms`);
  console.log('');
  console.log('| bid | reached | first | p50 | p95 | max |');
  console.log('|---|---:|---:|---:|---:|---:|');
  figures.forEach((sorted, i) => {
    const ms = (q: number) => `${at(sorted, q).toFixed(0)} ms`;
    console.log(`| ${i + 1} | ${sorted.length} of ${viewers} | ${ms(0)} | ${ms(0.5)} | ${ms(0.95)} | ${ms(1)} |`);
  });
  console.log(`\nGET /ping with the ${viewers} viewers connected, 16 clients, ${pingMs / 1000} s: ${(pings / (pingMs / 1000)).toFixed(0)}/s`);
} finally {
  for (const reader of readers) void reader.cancel().catch(() => {});
  await server.stop();
}
