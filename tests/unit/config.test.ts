import { describe, expect, test } from 'bun:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

/** A production store's seed key (issue 36): required, 64 hex characters. */
const SEED_KEY = 'ab'.repeat(32);

describe('loadConfig', () => {
  test('defaults match DESIGN section 7', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      env: 'development',
      port: 3000,
      siteName: 'CSA',
      dataDir: './data',
      publicUrl: 'http://localhost:3000',
      adminUsername: 'admin',
      payments: 'test',
      metricsSource: 'simulated',
      rateLimit: true,
      clock: 'system',
    });
  });

  test('PORT moves the default public URL; PUBLIC_URL loses its trailing slash', () => {
    expect(loadConfig({ PORT: '4100' }).publicUrl).toBe('http://localhost:4100');
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example/', METRICS_TOKEN: 't' }).publicUrl).toBe('https://shop.example');
  });

  test('Square becomes the gateway when an access token is set, unless PAYMENTS says otherwise', () => {
    expect(loadConfig({ SQUARE_ACCESS_TOKEN: 'x', SQUARE_LOCATION_ID: 'L' }).payments).toBe('square');
    expect(loadConfig({ SQUARE_ACCESS_TOKEN: 'x', PAYMENTS: 'test' }).payments).toBe('test');
  });

  test('production refuses to start without the admin password and PIN', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', SEED_KEY, PUBLIC_URL: 'http://shop.example', ADMIN_PASSWORD: 'long-enough' })).toThrow(
      /ADMIN_PIN is required/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', SEED_KEY, ADMIN_PIN: '123456' })).toThrow(/ADMIN_PASSWORD is required/);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SEED_KEY,
        PUBLIC_URL: 'http://shop.example',
        ADMIN_PASSWORD: 'long-enough',
        ADMIN_PIN: '123456',
        PAYMENTS: 'test',
        MAIL: 'off',
      }).env,
    ).toBe('production');
  });

  test('production refuses to start without SEED_KEY, in one line naming it; a key must be 32 bytes', () => {
    const prod = {
      NODE_ENV: 'production',
      PUBLIC_URL: 'http://shop.example',
      ADMIN_PASSWORD: 'long-enough',
      ADMIN_PIN: '123456',
      PAYMENTS: 'test',
      MAIL: 'off',
    };
    expect(() => loadConfig(prod)).toThrow(
      'Invalid configuration: SEED_KEY: SEED_KEY is required when NODE_ENV=production: the key that keeps unrevealed draw seeds secret',
    );
    expect(() => loadConfig({ ...prod, SEED_KEY: 'too-short' })).toThrow(/SEED_KEY: SEED_KEY must be 64 hex characters/);
    expect(loadConfig({ ...prod, SEED_KEY }).seedKey).toBe(SEED_KEY);
    // Development makes its key beside the database instead.
    expect(loadConfig({}).seedKey).toBeUndefined();
  });

  test('the manual clock is never allowed in production', () => {
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        SEED_KEY,
        PUBLIC_URL: 'http://shop.example',
        ADMIN_PASSWORD: 'long-enough',
        ADMIN_PIN: '123456',
        PAYMENTS: 'test',
        CLOCK: 'manual',
      }),
    ).toThrow(/CLOCK=manual/);
  });

  test('NODE_ENV unset is development by default, and the config says it was not set', () => {
    expect(loadConfig({})).toMatchObject({ env: 'development', envDefaulted: true });
    expect(loadConfig({ NODE_ENV: '' })).toMatchObject({ env: 'development', envDefaulted: true });
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({ env: 'development', envDefaulted: false });
  });

  test('bad values are named in the error', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/^Invalid configuration: LOG_LEVEL: /);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ RATE_LIMIT: 'maybe' })).toThrow(/RATE_LIMIT/);
    expect(() => loadConfig({ ADMIN_PIN: '12' })).toThrow(/ADMIN_PIN must be 4 to 12 digits/);
  });

  describe('production refuses to lie about payments', () => {
    const prod = { NODE_ENV: 'production', SEED_KEY, PUBLIC_URL: 'http://shop.example', ADMIN_PASSWORD: 'long-enough', ADMIN_PIN: '123456', MAIL: 'off' };

    test('no Square keys and no PAYMENTS: refused, with what to set', () => {
      expect(() => loadConfig(prod)).toThrow(
        'Invalid configuration: PAYMENTS: production needs real payments: set PAYMENTS=square with SQUARE_ACCESS_TOKEN and SQUARE_LOCATION_ID, or PAYMENTS=test for a store that takes no real money (it shows a test-mode banner)',
      );
    });

    test('PAYMENTS=test said explicitly: allowed, with the banner; never the banner in development', () => {
      expect(loadConfig({ ...prod, PAYMENTS: 'test' })).toMatchObject({ payments: 'test', testModeBanner: true });
      expect(loadConfig({ ...prod, PAYMENTS: 'square', SQUARE_ACCESS_TOKEN: 't', SQUARE_LOCATION_ID: 'L', SQUARE_ENVIRONMENT: 'production' })).toMatchObject({
        payments: 'square',
        testModeBanner: false,
      });
      expect(loadConfig({}).testModeBanner).toBe(false);
    });

    test('PAYMENTS=square without its token or location id is refused in every environment', () => {
      expect(() => loadConfig({ PAYMENTS: 'square' })).toThrow(
        'Invalid configuration: SQUARE_ACCESS_TOKEN: SQUARE_ACCESS_TOKEN is required when PAYMENTS=square; SQUARE_LOCATION_ID: SQUARE_LOCATION_ID is required when PAYMENTS=square',
      );
      expect(() => loadConfig({ SQUARE_ACCESS_TOKEN: 'x' })).toThrow('SQUARE_LOCATION_ID is required when PAYMENTS=square');
      expect(() => loadConfig({ ...prod, SQUARE_ACCESS_TOKEN: 'x' })).toThrow(/SQUARE_LOCATION_ID/);
    });

    test('Square in production must say which Square: never a silent sandbox', () => {
      const square = { ...prod, SQUARE_ACCESS_TOKEN: 't', SQUARE_LOCATION_ID: 'L' };
      expect(() => loadConfig(square)).toThrow(
        'Invalid configuration: SQUARE_ENVIRONMENT: production with Square must say which Square: set SQUARE_ENVIRONMENT=production (real payments) or SQUARE_ENVIRONMENT=sandbox',
      );
      expect(loadConfig({ ...square, SQUARE_ENVIRONMENT: 'production' }).square.environment).toBe('production');
      expect(loadConfig({ ...square, SQUARE_ENVIRONMENT: 'sandbox' }).square.environment).toBe('sandbox');
      // Development keeps the sandbox default.
      expect(loadConfig({ SQUARE_ACCESS_TOKEN: 't', SQUARE_LOCATION_ID: 'L' }).square.environment).toBe('sandbox');
    });

    test('production needs PUBLIC_URL: links and e-mails would point at localhost', () => {
      const { PUBLIC_URL: _url, ...noUrl } = prod;
      expect(() => loadConfig({ ...noUrl, PAYMENTS: 'test' })).toThrow(
        'Invalid configuration: PUBLIC_URL: production needs the address shoppers use: set PUBLIC_URL (for example https://shop.example.com), or links and e-mails point at localhost',
      );
      expect(loadConfig({ PAYMENTS: 'test' }).publicUrl).toBe('http://localhost:3000');
    });

    test('the message is one line', () => {
      try {
        loadConfig({ NODE_ENV: 'production' });
        throw new Error('not refused');
      } catch (error) {
        expect((error as Error).message).not.toContain('\n');
        expect((error as Error).message).toContain('ADMIN_PASSWORD');
        expect((error as Error).message).toContain('PAYMENTS');
      }
    });
  });

  test('the demo catalogue is seeded in development, or with SEED_DEMO=1', () => {
    expect(loadConfig({}).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
    const prod = {
      NODE_ENV: 'production',
      SEED_KEY,
      PUBLIC_URL: 'http://shop.example',
      ADMIN_PASSWORD: 'long-enough',
      ADMIN_PIN: '123456',
      PAYMENTS: 'test',
      MAIL: 'off',
    };
    expect(loadConfig(prod).seedDemo).toBe(false);
    expect(loadConfig({ ...prod, SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(() => loadConfig({ SEED_DEMO: 'yes' })).toThrow(/SEED_DEMO/);
  });

  test('shutdown grace and payment timeout', () => {
    expect(loadConfig({})).toMatchObject({ shutdownGraceMs: 25_000, paymentTimeoutMs: 8_000 });
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '5000', PAYMENT_TIMEOUT_MS: '3000' })).toMatchObject({ shutdownGraceMs: 5_000, paymentTimeoutMs: 3_000 });
    expect(() => loadConfig({ PAYMENT_TIMEOUT_MS: '10' })).toThrow(/PAYMENT_TIMEOUT_MS/);
  });

  describe('mail', () => {
    const prod = { NODE_ENV: 'production', SEED_KEY, PUBLIC_URL: 'http://shop.example', ADMIN_PASSWORD: 'long-enough', ADMIN_PIN: '123456', PAYMENTS: 'test' };

    test('production refuses to start without SMTP_URL unless MAIL=off is said', () => {
      expect(() => loadConfig(prod)).toThrow(
        'Invalid configuration: SMTP_URL: production sends receipts and password resets by e-mail: set SMTP_URL (and MAIL_FROM), or MAIL=off to run without e-mail',
      );
      expect(loadConfig({ ...prod, MAIL: 'off' }).mail.mode).toBe('off');
      expect(loadConfig({ ...prod, SMTP_URL: 'smtp://user:pw@mail.example.com:587' }).mail).toEqual({
        mode: 'smtp',
        smtpUrl: 'smtp://user:pw@mail.example.com:587',
        from: '"CSA" <no-reply@shop.example>',
      });
    });

    test('development without SMTP_URL writes files; MAIL_FROM and PUBLIC_URL shape the sender', () => {
      expect(loadConfig({}).mail.mode).toBe('file');
      expect(loadConfig({ PUBLIC_URL: 'https://shop.example.com', METRICS_TOKEN: 't', SITE_NAME: 'Shop "X"' }).mail.from).toBe(
        '"Shop X" <no-reply@shop.example.com>',
      );
      expect(loadConfig({ MAIL_FROM: 'Orders <orders@example.com>' }).mail.from).toBe('Orders <orders@example.com>');
    });

    test('SMTP_URL must be an smtp or smtps URL', () => {
      expect(() => loadConfig({ SMTP_URL: 'http://mail.example.com' })).toThrow(/SMTP_URL must look like/);
      expect(() => loadConfig({ MAIL: 'maybe' })).toThrow(/MAIL/);
    });
  });

  describe('behind a proxy (issue 25, row 12)', () => {
    const prod = {
      NODE_ENV: 'production',
      SEED_KEY,
      PUBLIC_URL: 'http://shop.example',
      ADMIN_PASSWORD: 'long-enough',
      ADMIN_PIN: '123456',
      PAYMENTS: 'test',
      MAIL: 'off',
    };

    test('production refuses a hop count for TRUST_PROXY, in one line that says what to set', () => {
      let message = '';
      try {
        loadConfig({ ...prod, TRUST_PROXY: '1' });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toBe(
        'Invalid configuration: TRUST_PROXY: in production name your proxies by address (loopback, 10.0.0.5, 10.0.0.0/8, a comma list), not by a hop count: TRUST_PROXY=1 would believe X-Forwarded-For from any client',
      );
      expect(message).not.toContain('\n');
    });

    test('production takes proxies named by address, CIDR range or loopback; development may keep a hop count', () => {
      expect(loadConfig({ ...prod, TRUST_PROXY: 'loopback' }).trustProxy).toEqual({ kind: 'addresses', addresses: ['loopback'] });
      expect(loadConfig({ ...prod, TRUST_PROXY: '10.0.0.5, 10.1.0.0/16' }).trustProxy).toEqual({ kind: 'addresses', addresses: ['10.0.0.5', '10.1.0.0/16'] });
      expect(loadConfig({ ...prod, TRUST_PROXY: 'off' }).trustProxy).toEqual({ kind: 'off' });
      expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ kind: 'hops', hops: 2 });
    });

    test('an https PUBLIC_URL needs METRICS_TOKEN, in every environment', () => {
      const message =
        'Invalid configuration: METRICS_TOKEN: METRICS_TOKEN is required when PUBLIC_URL is https (behind a proxy only a token keeps /metrics private): set a long random value and scrape with Authorization: Bearer <token>';
      expect(() => loadConfig({ PUBLIC_URL: 'https://shop.example' })).toThrow(message);
      expect(() => loadConfig({ ...prod, PUBLIC_URL: 'HTTPS://shop.example', TRUST_PROXY: 'loopback' })).toThrow(message);
      expect(loadConfig({ ...prod, PUBLIC_URL: 'https://shop.example', METRICS_TOKEN: 'a-long-random-token' }).metricsToken).toBe('a-long-random-token');
      expect(loadConfig({ PUBLIC_URL: 'http://shop.example' }).metricsToken).toBeUndefined();
    });
  });
});
