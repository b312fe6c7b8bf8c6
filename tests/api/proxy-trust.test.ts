import { describe, expect, test } from 'bun:test';
import { LOGIN_FAILURES_PER_ADDRESS as LIMIT } from '../../src/domain/accounts/account-limits.ts';
import { testApp, type TestApp } from '../helpers/app.ts';
import { fromPeer } from '../helpers/sockets.ts';

/*
 * Issue 25, row 12: X-Forwarded-For is believed only from the proxies TRUST_PROXY names by
 * address, and /metrics without a token answers only a request this machine made for itself,
 * judged by the socket's peer, never by a header. Each request here comes from a chosen peer
 * address, as Bun's server reports it.
 */

let attempt = 0;
/** A failed login under a new username each time, so only the per-address limit can be reached. */
const failedLogin = (ctx: TestApp, peer: string, forwardedFor?: string) =>
  fromPeer(ctx.app, peer, '/api/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    body: JSON.stringify({ username: `nobody${attempt++}`, password: 'wrong-pass' }),
  });

const metrics = (ctx: TestApp, peer: string, headers: Record<string, string> = {}) => fromPeer(ctx.app, peer, '/metrics', { headers });
const THIS_MACHINE_ONLY = 'Metrics answer this machine only; set METRICS_TOKEN to scrape from elsewhere.';

describe('X-Forwarded-For is believed only from the proxies named by address', () => {
  test('50 logins from one stranger, each with a made-up X-Forwarded-For: the per-address limit stops them at its limit', async () => {
    const ctx = await testApp({ TRUST_PROXY: '10.0.0.5' });
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await failedLogin(ctx, '203.0.113.66', `198.51.100.${i}`)).status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - LIMIT);
  });

  test('through the named proxy, each shopper has a limit of their own', async () => {
    const ctx = await testApp({ TRUST_PROXY: '10.0.0.0/8' });
    for (let i = 0; i < LIMIT; i++) expect((await failedLogin(ctx, '10.0.0.5', '203.0.113.7')).status).toBe(401);
    expect((await failedLogin(ctx, '10.0.0.5', '203.0.113.7')).status).toBe(429);
    expect((await failedLogin(ctx, '10.0.0.5', '198.51.100.2')).status).toBe(401);
    // What the client wrote before the proxy appended its view does not count.
    expect((await failedLogin(ctx, '10.0.0.5', '198.51.100.99, 203.0.113.7')).status).toBe(429);
  });

  test('a proxy on this machine (TRUST_PROXY=loopback): shoppers apart, strangers still cannot pick an address', async () => {
    const ctx = await testApp({ TRUST_PROXY: 'loopback' });
    for (let i = 0; i < LIMIT; i++) expect((await failedLogin(ctx, '127.0.0.1', '203.0.113.8')).status).toBe(401);
    expect((await failedLogin(ctx, '127.0.0.1', '203.0.113.8')).status).toBe(429);
    expect((await failedLogin(ctx, '127.0.0.1', '203.0.113.9')).status).toBe(401);
    for (let i = 0; i < LIMIT; i++) expect((await failedLogin(ctx, '192.0.2.44', `198.51.100.${i}`)).status).toBe(401);
    expect((await failedLogin(ctx, '192.0.2.44', '198.51.100.200')).status).toBe(429);
  });
});

describe('/metrics without a token answers this machine by its socket, never by a header', () => {
  test('a stranger who says X-Forwarded-For: 127.0.0.1 is refused, whatever TRUST_PROXY says', async () => {
    for (const trust of ['1', 'off', '203.0.113.0/24']) {
      const ctx = await testApp({ TRUST_PROXY: trust });
      const response = await metrics(ctx, '203.0.113.9', { 'x-forwarded-for': '127.0.0.1' });
      expect({ trust, status: response.status }).toEqual({ trust, status: 403 });
      expect((await response.json()).message).toBe(THIS_MACHINE_ONLY);
    }
  });

  test('a request a proxy on this machine forwards is not this machine, with or without TRUST_PROXY', async () => {
    for (const trust of ['off', 'loopback']) {
      const ctx = await testApp({ TRUST_PROXY: trust });
      const forwards: Record<string, string>[] = [{ 'x-forwarded-for': '203.0.113.7' }, { 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=203.0.113.7' }];
      for (const forwarded of forwards) {
        expect({ trust, forwarded, status: (await metrics(ctx, '127.0.0.1', forwarded)).status }).toEqual({ trust, forwarded, status: 403 });
      }
    }
  });

  test('a scraper on this machine itself is answered, over IPv4 or IPv6', async () => {
    const ctx = await testApp({ TRUST_PROXY: 'loopback' });
    expect((await metrics(ctx, '127.0.0.1')).status).toBe(200);
    expect((await metrics(ctx, '::1')).status).toBe(200);
    expect((await metrics(ctx, '::ffff:127.0.0.1')).status).toBe(200);
  });

  test('with the token, a scraper anywhere is answered and nobody else', async () => {
    const ctx = await testApp({ PUBLIC_URL: 'https://shop.example', METRICS_TOKEN: 'scrape-me-please', TRUST_PROXY: 'loopback' });
    expect((await metrics(ctx, '127.0.0.1')).status).toBe(401);
    expect((await metrics(ctx, '198.51.100.3', { authorization: 'Bearer scrape-me-please' })).status).toBe(200);
  });

  test('an https store without METRICS_TOKEN does not start', async () => {
    await expect(testApp({ PUBLIC_URL: 'https://shop.example' })).rejects.toThrow('METRICS_TOKEN is required when PUBLIC_URL is https');
  });
});
