/**
 * Load on the public catalogue with wrk (Debian's `wrk`): requests per second and p99 latency
 * at 32 connections for each page, against `/ping` on the same server as the ceiling.
 * Usage: bun bench/load.ts [seconds=10]    Needs `apt-get install wrk`.
 * Targets (issue 3): `/` at no less than 25% of the ceiling's throughput, p99 under 50 ms.
 */
import { startServer } from '../tests/helpers/server.ts';

const seconds = Number(process.argv[2] ?? 10);
if (!Bun.which('wrk')) {
  console.error('wrk is not installed: apt-get install -y wrk');
  process.exit(1);
}

const server = await startServer({
  quiet: true,
  env: { NODE_ENV: 'production', SEED_KEY: '5e'.repeat(32), MAIL: 'off', RATE_LIMIT: 'off', PAYMENTS: 'test', SEED_DEMO: '1' },
});
const base = server.url;

try {
  const products = (await (await fetch(`${base}/api/products`)).json()) as { id: number }[];
  const product = `/product/${products[0]!.id}`;
  // `?r=1` is a parameter no cached view has: the page is rendered for each request (issue 35).
  const targets = ['/ping', '/', '/products', product, '/api/products', '/?r=1', `${product}?r=1`];

  const rows: { path: string; rps: number; p99: number; errors: string }[] = [];
  for (const path of targets) {
    await fetch(base + path); // warm the page (and its cache entry)
    const run = Bun.spawnSync(['wrk', '-t1', '-c32', `-d${seconds}s`, '--latency', '-H', 'Accept-Encoding: gzip', base + path], {
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const out = run.stdout.toString();
    const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
    const p99Text = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
    const p99 = p99Text ? Number(p99Text[1]) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[p99Text[2]!]! : NaN;
    const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? '0';
    rows.push({ path, rps, p99, errors });
  }

  const ceiling = rows[0]!.rps;
  console.log(`wrk, 1 thread, 32 connections, ${seconds} s per URL, Accept-Encoding: gzip (NODE_ENV=production, seeded store)\n`);
  console.log('| path | requests/s | p99 latency | share of ceiling | non-2xx |');
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(`| ${row.path} | ${row.rps.toFixed(0)} | ${row.p99.toFixed(2)} ms | ${((row.rps / ceiling) * 100).toFixed(0)}% | ${row.errors} |`);
  }
  const home = rows[1]!;
  const ok = home.rps >= ceiling * 0.25 && home.p99 < 50;
  console.log(`\nTarget for /: >= 25% of ceiling and p99 < 50 ms: ${ok ? 'met' : 'NOT met'}`);
} finally {
  await server.stop();
}
