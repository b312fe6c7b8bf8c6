/**
 * Live stream capacity (issue 14): N concurrent GET /api/events connections on one production
 * process, subscribed to one product; the server's memory before and after they connect, and
 * the time for one change (an entry) to reach every connection.
 * Usage: bun bench/sse.ts [connections=5000]
 * Bun's fetch keeps at most 256 requests open at once unless BUN_CONFIG_MAX_HTTP_REQUESTS says
 * more, and a stream stays open: the script runs itself again with a higher limit. The store
 * takes at most 20 streams from one client address, so each connection is another shopper
 * behind a proxy on this machine (TRUST_PROXY=loopback, its own X-Forwarded-For).
 */
import { COMPLETE_PROFILE } from '../tests/helpers/actors.ts';
import { Client } from '../tests/helpers/http-client.ts';
import { startServer } from '../tests/helpers/server.ts';

const connections = Number(process.argv[2] ?? 5000);
if (Number(process.env.BUN_CONFIG_MAX_HTTP_REQUESTS ?? 0) < connections + 100) {
  const child = Bun.spawn([process.execPath, import.meta.path, String(connections)], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: String(Math.min(65_000, connections + 100)) },
    stdout: 'inherit',
    stderr: 'inherit',
  });
  process.exit(await child.exited);
}
const server = await startServer({
  quiet: true,
  env: {
    NODE_ENV: 'production',
    // Production requires the key that seals unrevealed draw seeds (issue 36).
    SEED_KEY: '5e'.repeat(32),
    MAIL: 'off',
    SEED_DEMO: '1',
    PAYMENTS: 'test',
    RATE_LIMIT: 'off',
    ADMIN_PASSWORD: 'bench-admin-pass',
    ADMIN_PIN: '123456',
    TRUST_PROXY: 'loopback',
  },
});
const rssOf = async () => {
  const status = await Bun.file(`/proc/${server.child.pid}/status`).text();
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
};

try {
  const products = (await (await fetch(`${server.url}/api/products`)).json()) as { id: number; playEnabled: boolean; quantity: number }[];
  const product = products.filter((p) => p.playEnabled && p.quantity > 2).sort((a, b) => b.quantity - a.quantity)[0]!;
  await Bun.sleep(500);
  const before = await rssOf();

  // Each connection reads its stream and notes when the first competition message after `armed` arrives.
  let armed = false;
  const arrivals: number[] = [];
  const opened: Promise<void>[] = [];
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  const started = performance.now();
  for (let i = 0; i < connections; i++) {
    opened.push(
      (async () => {
        const shopper = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
        const response = await fetch(`${server.url}/api/events?product=${product.id}`, { headers: { 'x-forwarded-for': shopper } });
        const reader = response.body!.getReader();
        readers.push(reader);
        const decoder = new TextDecoder();
        let ready!: () => void;
        const isReady = new Promise<void>((resolve) => (ready = resolve));
        void (async () => {
          let text = '';
          for (;;) {
            const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
            if (done) return;
            text += decoder.decode(value, { stream: true });
            if (text.includes('event: ready')) ready();
            if (armed && text.includes('event: competition')) {
              arrivals.push(performance.now());
              return;
            }
            if (!armed) text = text.slice(-64);
          }
        })();
        await isReady;
      })(),
    );
    // Open in waves, as pages would, not all in one instant.
    if (i % 500 === 499) await Promise.all(opened.slice(i - 499, i + 1));
  }
  await Promise.all(opened);
  const connectMs = performance.now() - started;
  await Bun.sleep(1500);
  const after = await rssOf();

  const player = new Client(server);
  await player.ok('POST', '/api/register', { username: 'sse_bench', password: 'sse-bench-pass' });
  await player.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } });
  await player.ok('POST', '/api/user/play-consent', { adult: true, acceptRules: true });
  const influencers = ((await player.ok('GET', '/api/influencers')) as { id: string }[]).map((i) => i.id);
  armed = true;
  const changed = performance.now();
  await player.ok('POST', '/api/plays', { productId: product.id, influencerIds: influencers.slice(0, 5) });
  const deadline = Date.now() + 15_000;
  while (arrivals.length < connections && Date.now() < deadline) await Bun.sleep(20);
  const sorted = arrivals.map((t) => t - changed).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

  console.log(`${connections} live connections to one process (production, /api/events?product=${product.id})`);
  console.log('');
  console.log('| figure | value |');
  console.log('|---|---:|');
  console.log(`| time to open all | ${Math.round(connectMs)} ms |`);
  console.log(`| server RSS before | ${before.toFixed(0)} MiB |`);
  console.log(`| server RSS with all open | ${after.toFixed(0)} MiB |`);
  console.log(`| memory per connection | ${(((after - before) * 1024) / connections).toFixed(1)} KiB |`);
  console.log(`| reached by one change | ${arrivals.length} of ${connections} |`);
  console.log(`| change to first / median / p99 / last | ${at(0).toFixed(0)} / ${at(0.5).toFixed(0)} / ${at(0.99).toFixed(0)} / ${at(1).toFixed(0)} ms |`);
  for (const reader of readers) void reader.cancel().catch(() => {});
} finally {
  await server.stop();
}
