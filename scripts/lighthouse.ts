/**
 * `bun run lighthouse`: Lighthouse (the npm package, run with Node) against a freshly started,
 * seeded store, with Debian's Chromium, at mobile settings, for /, /products, a product page
 * and /scoreboard. Prints the four category scores per page.
 * Targets (issue 6): Performance >= 95; Accessibility, Best Practices and SEO 100.
 */
import { join, resolve } from 'node:path';
import { startServer } from '../tests/helpers/server.ts';

const root = resolve(import.meta.dir, '..');
const chrome = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const flags = '--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run';

const server = await startServer({ quiet: true, env: { NODE_ENV: 'production', SEED_KEY: '5e'.repeat(32), MAIL: 'off', PAYMENTS: 'test', SEED_DEMO: '1' } });
const base = server.url;

try {
  const products = (await (await fetch(`${base}/api/products`)).json()) as { id: number; playEnabled: boolean }[];
  const pages = ['/', '/products', `/product/${products.find((p) => p.playEnabled)!.id}`, '/scoreboard'];
  const rows: string[] = [];
  for (const path of pages) {
    const run = Bun.spawnSync(
      [
        'node',
        join(root, 'node_modules/lighthouse/cli/index.js'),
        base + path,
        '--output=json',
        '--output-path=stdout',
        '--quiet',
        '--only-categories=performance,accessibility,best-practices,seo',
        `--chrome-flags=${flags}`,
      ],
      { env: { ...process.env, CHROME_PATH: chrome }, stdout: 'pipe', stderr: 'pipe' },
    );
    if (run.exitCode !== 0) throw new Error(`lighthouse failed for ${path}:\n${run.stderr.toString().slice(-2000)}`);
    const report = JSON.parse(run.stdout.toString()) as {
      categories: Record<string, { score: number | null }>;
      audits: Record<string, { score: number | null; title: string; scoreDisplayMode: string; displayValue?: string }>;
    };
    const score = (key: string) => Math.round((report.categories[key]?.score ?? 0) * 100);
    rows.push(`| ${path} | ${score('performance')} | ${score('accessibility')} | ${score('best-practices')} | ${score('seo')} |`);
    const failing = Object.entries(report.audits)
      .filter(([, audit]) => audit.score !== null && audit.score < 1 && ['binary', 'numeric'].includes(audit.scoreDisplayMode))
      .map(([id, audit]) => `${id} (${Math.round((audit.score ?? 0) * 100)})`);
    const metrics = ['first-contentful-paint', 'largest-contentful-paint', 'speed-index', 'total-blocking-time', 'cumulative-layout-shift']
      .map((id) => `${id} ${report.audits[id]?.displayValue ?? '?'}`)
      .join(', ');
    if (process.env.VERBOSE) console.log(`${path}: ${metrics}; below 100: ${failing.join(', ')}`);
  }
  console.log('Lighthouse, mobile (simulated throttling), NODE_ENV=production, seeded store\n');
  console.log('| page | Performance | Accessibility | Best Practices | SEO |');
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
} finally {
  await server.stop();
}
