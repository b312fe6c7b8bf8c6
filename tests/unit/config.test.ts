import { describe, expect, test } from 'bun:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

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
    expect(loadConfig({ PUBLIC_URL: 'https://shop.example/' }).publicUrl).toBe('https://shop.example');
  });

  test('Square becomes the gateway when an access token is set, unless PAYMENTS says otherwise', () => {
    expect(loadConfig({ SQUARE_ACCESS_TOKEN: 'x' }).payments).toBe('square');
    expect(loadConfig({ SQUARE_ACCESS_TOKEN: 'x', PAYMENTS: 'test' }).payments).toBe('test');
  });

  test('production refuses to start without the admin password and PIN', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', ADMIN_PASSWORD: 'long-enough' })).toThrow(/ADMIN_PIN is required/);
    expect(() => loadConfig({ NODE_ENV: 'production', ADMIN_PIN: '123456' })).toThrow(/ADMIN_PASSWORD is required/);
    expect(loadConfig({ NODE_ENV: 'production', ADMIN_PASSWORD: 'long-enough', ADMIN_PIN: '123456' }).env).toBe('production');
  });

  test('the manual clock is never allowed in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', ADMIN_PASSWORD: 'long-enough', ADMIN_PIN: '123456', CLOCK: 'manual' })).toThrow(
      /CLOCK=manual/,
    );
  });

  test('bad values are named in the error', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ RATE_LIMIT: 'maybe' })).toThrow(/RATE_LIMIT/);
    expect(() => loadConfig({ ADMIN_PIN: '12' })).toThrow(/ADMIN_PIN must be 4 to 12 digits/);
  });
});
