import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';
import { startServer } from '../helpers/server.ts';

/*
 * Production refuses to lie (issue 9): no silent test gateway, every setting checked before the
 * database is made, one clear line and no stack trace; demo products only when asked for.
 */

// MAIL=off: these tests are about payments and seeding; tests/e2e/mail.test.ts covers production mail.
const PROD = {
  NODE_ENV: 'production',
  PUBLIC_URL: 'http://shop.example',
  ADMIN_PASSWORD: 'prod-admin-pass',
  ADMIN_PIN: '975310',
  MAIL: 'off',
  SEED_KEY: 'cd'.repeat(32),
};

async function refusal(env: Record<string, string>): Promise<{ exitCode: number; output: string; dataDirMade: boolean }> {
  const root = mkdtempSync(join(tmpdir(), 'csa-refusal-'));
  const dataDir = join(root, 'data');
  try {
    const {
      PAYMENTS: _p,
      SQUARE_ACCESS_TOKEN: _t,
      SQUARE_LOCATION_ID: _l,
      SQUARE_ENVIRONMENT: _e,
      SEED_DEMO: _s,
      PUBLIC_URL: _u,
      LOG_LEVEL: _v,
      ...inherited
    } = process.env;
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
    const { exitCode, output, dataDirMade } = await refusal({ ...PROD, PAYMENTS: 'square', SQUARE_LOCATION_ID: 'L1', SQUARE_ENVIRONMENT: 'production' });
    expect(exitCode).toBe(1);
    expect(output).toBe('Invalid configuration: SQUARE_ACCESS_TOKEN: SQUARE_ACCESS_TOKEN is required when PAYMENTS=square');
    expect(dataDirMade).toBe(false);
  }, 20_000);

  test('production without SEED_KEY: one line naming SEED_KEY, no database made (issue 36)', async () => {
    const { SEED_KEY: _k, ...withoutKey } = PROD;
    const { exitCode, output, dataDirMade } = await refusal({ ...withoutKey, PAYMENTS: 'test' });
    expect(exitCode).toBe(1);
    expect(output.split('\n')).toEqual([expect.stringContaining('SEED_KEY: SEED_KEY is required when NODE_ENV=production')]);
    expect(output).not.toMatch(/\n\s+at /);
    expect(dataDirMade).toBe(false);
  }, 20_000);

  test('a Square token without a location id: refused, in development too', async () => {
    const { exitCode, output, dataDirMade } = await refusal({ SQUARE_ACCESS_TOKEN: 'EAAA-x' });
    expect(exitCode).toBe(1);
    expect(output).toBe('Invalid configuration: SQUARE_LOCATION_ID: SQUARE_LOCATION_ID is required when PAYMENTS=square');
    expect(dataDirMade).toBe(false);
  }, 20_000);
});

describe('every start-up refusal is one line on stderr, exit 1, nothing written (issue 26)', () => {
  const oneLine = (output: string, text: string) => {
    expect(output.split('\n')).toEqual([expect.stringContaining(text)]);
    expect(output).not.toMatch(/\n\s+at /);
  };

  test('production without PUBLIC_URL', async () => {
    const { PUBLIC_URL: _u, ...noUrl } = PROD;
    const { exitCode, output, dataDirMade } = await refusal({ ...noUrl, PAYMENTS: 'test' });
    expect(exitCode).toBe(1);
    oneLine(output, 'PUBLIC_URL: production needs the address shoppers use');
    expect(dataDirMade).toBe(false);
  }, 20_000);

  test('production with Square but no SQUARE_ENVIRONMENT: no silent sandbox', async () => {
    const { exitCode, output, dataDirMade } = await refusal({ ...PROD, SQUARE_ACCESS_TOKEN: 'EAAA-x', SQUARE_LOCATION_ID: 'L1' });
    expect(exitCode).toBe(1);
    oneLine(output, 'SQUARE_ENVIRONMENT: production with Square must say which Square');
    expect(dataDirMade).toBe(false);
  }, 20_000);

  test('a LOG_LEVEL the logger does not know', async () => {
    const { exitCode, output, dataDirMade } = await refusal({ LOG_LEVEL: 'loud' });
    expect(exitCode).toBe(1);
    oneLine(output, 'Invalid configuration: LOG_LEVEL');
    expect(dataDirMade).toBe(false);
  }, 20_000);

  test('a DATA_DIR that cannot be made', async () => {
    const root = mkdtempSync(join(tmpdir(), 'csa-refusal-file-'));
    try {
      writeFileSync(join(root, 'a-file'), 'not a folder');
      const { exitCode, output } = await refusal({ DATA_DIR: join(root, 'a-file', 'data') });
      expect(exitCode).toBe(1);
      oneLine(output, 'is not a folder this process can write (ENOTDIR)');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
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
