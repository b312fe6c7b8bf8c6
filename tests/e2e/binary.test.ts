import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';
import { attribute, metaContent } from '../helpers/html.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

setDefaultTimeout(120_000);

const binary = join(projectRoot, 'dist', 'csa');
let server: RunningServer;

beforeAll(async () => {
  // `bun run test:all` builds it first; a bare `bun test` builds it here.
  if (!existsSync(binary)) {
    const build = Bun.spawnSync([process.execPath, 'run', 'build:binary'], { cwd: projectRoot, stdout: 'inherit', stderr: 'inherit' });
    expect(build.exitCode).toBe(0);
  }
  // Run it from an empty folder far from the project: everything it needs must be inside it.
  server = await startServer({ binary, cwd: mkdtempSync(join(tmpdir(), 'csa-binary-cwd-')) });
});

afterAll(async () => {
  await server?.stop();
});

describe('the compiled binary', () => {
  test('migrates, seeds and serves the store with its embedded assets', async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect((await health.json()).database).toBe('ok');

    const home = await fetch(`${server.url}/`);
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toContain('<title>CSA</title>');
    expect(html).toContain('Ray-Ban');

    const css = attribute(html, 'link[rel="stylesheet"]', 'href')!;
    const stylesheet = await fetch(`${server.url}${css}`);
    expect(stylesheet.status).toBe(200);
    expect(stylesheet.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const auth = await (await fetch(`${server.url}/auth`)).text();
    const runtime = attribute(auth, 'script[type="module"][src]', 'src')!;
    expect((await fetch(`${server.url}${runtime}`)).status).toBe(200);
    expect((await fetch(`${server.url}/static/images/og-default.png`)).status).toBe(200);

    // A product's share card is drawn by the WebAssembly renderer and fonts embedded in the binary.
    const product = await (await fetch(`${server.url}/product/1`)).text();
    const cardUrl = metaContent(product, 'og:image')!;
    const card = await fetch(cardUrl.replace(/^https?:\/\/[^/]+/, server.url));
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/png');
    const bytes = new DataView(await card.arrayBuffer());
    expect([bytes.getUint32(16), bytes.getUint32(20)]).toEqual([1200, 630]);
    expect(existsSync(join(server.dataDir, 'data', 'store.db'))).toBe(true);
  });

  test('accepts a registration end to end', async () => {
    const response = await fetch(`${server.url}/api/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ username: 'binary_user', password: 'secret-pass' }),
    });
    expect(response.status).toBe(201);
    expect((await response.json()).username).toBe('binary_user');
  });

  test('verify-game ID checks a game from the store of DATA_DIR', () => {
    const env = { ...process.env, DATA_DIR: join(server.dataDir, 'data') };
    const missing = Bun.spawnSync([binary, 'verify-game', '4242'], { env, stdout: 'pipe', stderr: 'pipe' });
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout.toString()).toContain('FAIL game 4242 has no settled record');
    const usage = Bun.spawnSync([binary, 'verify-game', 'x'], { env, stdout: 'pipe', stderr: 'pipe' });
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr.toString()).toContain('Usage: verify-game GAME_ID');
  });

  test('refuses to start in production without its secrets', () => {
    const run = Bun.spawnSync([binary], {
      env: { ...process.env, NODE_ENV: 'production', ADMIN_PASSWORD: '', ADMIN_PIN: '', DATA_DIR: join(server.dataDir, 'prod') },
      stderr: 'pipe',
    });
    expect(run.exitCode).toBe(1);
    const message = run.stderr.toString();
    expect(message).toContain('ADMIN_PASSWORD is required when NODE_ENV=production');
    expect(message).toContain('ADMIN_PIN is required when NODE_ENV=production');
  });
});
