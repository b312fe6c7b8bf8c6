/**
 * What a visitor downloads: HTML, CSS and JavaScript per page (raw and gzip), with the server
 * started fresh. Usage: bun bench/page-weight.ts [path ...]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dir, '..');
const paths = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/auth'];
const dataDir = mkdtempSync(join(tmpdir(), 'csa-weight-'));
const port = 3900 + Math.floor(Math.random() * 90);
const base = `http://localhost:${port}`;
const child = Bun.spawn([process.execPath, join(root, 'src/server.ts')], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    // Production requires the key that seals unrevealed draw seeds (issue 36).
    SEED_KEY: '5e'.repeat(32),
    PUBLIC_URL: base,
    // The demo catalogue, so product pages with every purchase option exist to weigh.
    SEED_DEMO: '1',
    PAYMENTS: 'test',
    MAIL: 'off',
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: 'bench-pass',
    ADMIN_PIN: '1234',
    SHUTDOWN_DRAIN_MS: '0',
  },
  stdout: 'ignore',
  stderr: 'inherit',
});
for (let i = 0; i < 200; i++) {
  try {
    if ((await fetch(`${base}/healthz`)).ok) break;
  } catch {
    await Bun.sleep(50);
  }
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
async function size(url: string): Promise<{ raw: number; gzip: number }> {
  const body = new Uint8Array(await (await fetch(url)).arrayBuffer());
  return { raw: body.length, gzip: Bun.gzipSync(body).length };
}

for (const path of paths) {
  const html = await (await fetch(base + path)).text();
  const scripts = new Set<string>();
  for (const match of html.matchAll(/<(?:script type="module" src|link rel="modulepreload" href)="([^"]+)"/g)) scripts.add(match[1]!);
  // Static imports inside the loaded modules are downloaded too.
  const queue = [...scripts];
  while (queue.length) {
    const source = await (await fetch(base + queue.pop()!)).text();
    for (const match of source.matchAll(/(?:from|import)\s*"(\.\/[^"]+\.js)"/g)) {
      const url = `/assets/${match[1]!.slice(2)}`;
      if (!scripts.has(url)) {
        scripts.add(url);
        queue.push(url);
      }
    }
  }
  const css = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
  let jsRaw = 0;
  let jsGzip = 0;
  for (const script of scripts) {
    const s = await size(base + script);
    jsRaw += s.raw;
    jsGzip += s.gzip;
  }
  const cssSize = css ? await size(base + css) : { raw: 0, gzip: 0 };
  const htmlGzip = Bun.gzipSync(new TextEncoder().encode(html)).length;
  console.log(
    `${path}: HTML ${kib(html.length)} (${kib(htmlGzip)} gzip), CSS ${kib(cssSize.raw)} (${kib(cssSize.gzip)} gzip), JS ${scripts.size} files ${kib(jsRaw)} (${kib(jsGzip)} gzip)`,
  );
}
child.kill();
await child.exited;
rmSync(dataDir, { recursive: true, force: true });
