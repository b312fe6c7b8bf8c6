import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';
import { startServer } from '../helpers/server.ts';

/*
 * Production refuses to lie (issue 9): no silent test gateway, every setting checked before the
 * database is made, one clear line and no stack trace; demo products only when asked for.
 */

// MAIL=off: these tests are about payments and seeding; tests/e2e/mail.test.ts covers production mail.
const PROD = { NODE_ENV: 'production', ADMIN_PASSWORD: 'prod-admin-pass', ADMIN_PIN: '975310', MAIL: 'off' };

async function refusal(env: Record<string, string>): Promise<{ exitCode: number; output: string; dataDirMade: boolean }> {
  const root = mkdtempSync(join(tmpdir(), 'csa-refusal-'));
  const dataDir = join(root, 'data');
  try {
    const { PAYMENTS: _p, SQUARE_ACCESS_TOKEN: _t, SQUARE_LOCATION_ID: _l, SEED_DEMO: _s, ...inherited } = process.env;
    const child = Bun.spawn([process.execPath, join(projectRoot, 'src/server.ts')], {
      cwd: root,
      env: { ...inherited, PORT: '0', DATA_DIR: dataDir, ...env },
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const timer = setTimeout(() => child.kill(), 15_000);
    const [out, err, exitCode] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    clearTimeout(timer);
    return { exitCode, output: (out + err).trim(), dataDirMade: existsSync(join(dataDir, 'store.db')) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('production start-up refusals', () => {
  test('no Square keys and no PAYMENTS: exit 1, one line saying what to set, no database made', async () => {
    const { exitCode, output, dataDirMade } = await refusal(PROD);
    expect(exitCode).toBe(1);
    expect(output.split('\n')).toHaveLength(1);
    expect(output).toContain('PAYMENTS: production needs real payments: set PAYMENTS=square with SQUARE_ACCESS_TOKEN and SQUARE_LOCATION_ID, or PAYMENTS=test');
    expect(output).not.toMatch(/\n\s+at /);
    expect(dataDirMade).toBe(false);
  }, 20_000);

  test('PAYMENTS=square without a token: refused before the database is made', async () => {
    const { exitCode, output, dataDirMade } = await refusal({ ...PROD, PAYMENTS: 'square', SQUARE_LOCATION_ID: 'L1' });
    expect(exitCode).toBe(1);
    expect(output).toBe('Invalid configuration: SQUARE_ACCESS_TOKEN: SQUARE_ACCESS_TOKEN is required when PAYMENTS=square');
    expect(dataDirMade).toBe(false);
  }, 20_000);

  test('a Square token without a location id: refused, in development too', async () => {
    const { exitCode, output, dataDirMade } = await refusal({ SQUARE_ACCESS_TOKEN: 'EAAA-x' });
    expect(exitCode).toBe(1);
    expect(output).toBe('Invalid configuration: SQUARE_LOCATION_ID: SQUARE_LOCATION_ID is required when PAYMENTS=square');
    expect(dataDirMade).toBe(false);
  }, 20_000);
});

describe('production with PAYMENTS=test', () => {
  test('starts, shows "Test mode: no real payments" on every page, and seeds no demo products', async () => {
    const server = await startServer({ env: { ...PROD, PAYMENTS: 'test' } });
    try {
      for (const path of ['/', '/products', '/auth', '/scoreboard', '/no-such-page']) {
        const html = await (await fetch(`${server.url}${path}`)).text();
        expect(html).toContain('Test mode: no real payments');
      }
      expect(await (await fetch(`${server.url}/api/products`)).json()).toEqual([]);
      expect(((await (await fetch(`${server.url}/api/influencers`)).json()) as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  }, 20_000);

  test('SEED_DEMO=1 seeds the demo catalogue', async () => {
    const server = await startServer({ env: { ...PROD, PAYMENTS: 'test', SEED_DEMO: '1' } });
    try {
      expect(((await (await fetch(`${server.url}/api/products`)).json()) as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await server.stop();
    }
  }, 20_000);

  test('development shows no banner', async () => {
    const server = await startServer();
    try {
      expect(await (await fetch(`${server.url}/`)).text()).not.toContain('Test mode: no real payments');
    } finally {
      await server.stop();
    }
  }, 20_000);
});
