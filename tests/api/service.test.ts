import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { LOGIN_FAILURES_PER_ADDRESS } from '../../src/domain/accounts/account-limits.ts';
import { holdLease, recordTick } from '../../src/domain/operations/job-lease.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { player, seededStore } from '../helpers/admin-tools.ts';
import { testApp } from '../helpers/app.ts';

/*
 * Running behind a proxy and being watched (issue 12): whose address a request has, when the
 * session cookie is Secure, /readyz, /metrics and the 500 page's request id.
 */

let attempt = 0;
/** A failed login under a new username each time, so only the per-address limit can be reached. */
const failedLogin = (ctx: Awaited<ReturnType<typeof testApp>>, headers: Record<string, string>) =>
  ctx.client().post('/api/login', { json: { username: `nobody${attempt++}`, password: 'wrong-pass' }, headers });

describe('TRUST_PROXY', () => {
  test('behind a trusted proxy, distinct X-Forwarded-For clients have distinct login limits', async () => {
    const ctx = await testApp({ TRUST_PROXY: '1' });
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) expect((await failedLogin(ctx, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(401);
    expect((await failedLogin(ctx, { 'x-forwarded-for': '203.0.113.7' })).status).toBe(429);
    expect((await failedLogin(ctx, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(401);
    // A client cannot pick its own address by sending the header: the proxy appends, and the
    // nearest hop (the proxy's view) is what counts.
    expect((await failedLogin(ctx, { 'x-forwarded-for': '198.51.100.99, 203.0.113.7' })).status).toBe(429);
  });

  test('without TRUST_PROXY the header is ignored: made-up addresses share one limit', async () => {
    const ctx = await testApp();
    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) expect((await failedLogin(ctx, { 'x-forwarded-for': `192.0.2.${i}` })).status).toBe(401);
    expect((await failedLogin(ctx, { 'x-forwarded-for': '192.0.2.200' })).status).toBe(429);
  });

  test('the session cookie is Secure when a trusted proxy says the request came over https, and only then', async () => {
    const register = async (env: Record<string, string>, headers: Record<string, string>) => {
      const ctx = await testApp({ PUBLIC_URL: 'http://shop.example', ...env });
      const response = await ctx.client().post('/api/register', {
        json: { username: 'surfer', password: 'secret-pass' },
        headers: { origin: 'http://shop.example', ...headers },
      });
      expect(response.status).toBe(201);
      return response.headers.getSetCookie().find((line) => line.startsWith('csa_session='))!;
    };
    expect(await register({ TRUST_PROXY: '1' }, { 'x-forwarded-proto': 'https' })).toContain('Secure');
    expect(await register({ TRUST_PROXY: '1' }, { 'x-forwarded-proto': 'http' })).not.toContain('Secure');
    expect(await register({}, { 'x-forwarded-proto': 'https' })).not.toContain('Secure');
  });

  test('a TRUST_PROXY that is not a hop count or addresses refuses to start', async () => {
    await expect(testApp({ TRUST_PROXY: 'my-proxy.example' })).rejects.toThrow('TRUST_PROXY must be off, a hop count, or a comma list of proxy addresses');
  });
});

describe('/readyz', () => {
  test('answers for this process only: ready with nobody running the jobs, an orphaned lease or a late tick', async () => {
    const ctx = await testApp();
    const nobody = await ctx.client().get('/readyz');
    expect(nobody.status).toBe(200);
    expect(await nobody.json()).toMatchObject({
      status: 'ready',
      database: 'writable',
      migrations: { ok: true },
      jobs: { runner: 'nobody', heartbeatAgeMs: null },
    });
    // A holder killed ten minutes ago: its lease ran out, its last tick is old.
    expect(holdLease(ctx.db, 'killed', Date.now() - 600_000, 30_000)).toBe(true);
    const orphaned = await ctx.client().get('/readyz');
    expect(orphaned.status).toBe(200);
    expect((await orphaned.json()).jobs.heartbeatAgeMs).toBeGreaterThanOrEqual(600_000);
    // A live holder whose tick is late.
    expect(holdLease(ctx.db, 'test', Date.now(), 30_000)).toBe(true);
    recordTick(ctx.db, 'test', Date.now() - 300_000);
    const late = await ctx.client().get('/readyz');
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({ status: 'ready', jobs: { runner: 'this process' } });
  });

  test('the jobs heartbeat is a metric: csa_jobs_heartbeat_age_seconds', async () => {
    const ctx = await testApp();
    const age = async () => samples(await (await ctx.client().get('/metrics')).text()).get('csa_jobs_heartbeat_age_seconds{lease="jobs"}');
    expect(await age()).toBeUndefined();
    expect(holdLease(ctx.db, 'killed', Date.now() - 600_000, 30_000)).toBe(true);
    expect(await age()).toBeGreaterThanOrEqual(600);
  });

  test('503 while draining for a shutdown, and while a migration of this build is missing', async () => {
    const draining = await testApp();
    draining.lifecycle.startDraining();
    const answer = await draining.client().get('/readyz');
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ status: 'draining', draining: true });

    const behind = await testApp();
    behind.db.$client.exec('delete from __drizzle_migrations where created_at = (select max(created_at) from __drizzle_migrations)');
    const unmigrated = await behind.client().get('/readyz');
    expect(unmigrated.status).toBe(503);
    expect(await unmigrated.json()).toMatchObject({ status: 'not ready', migrations: { ok: false } });
  });
});

/** Every sample line of Prometheus text: `name{labels} value`. */
function samples(text: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*\})?) (-?[0-9.e+-]+|NaN|[+-]Inf)$/.exec(line);
    if (!match) throw new Error(`not Prometheus text: ${line}`);
    found.set(match[1]!, Number(match[2]));
  }
  return found;
}

describe('/metrics', () => {
  test('Prometheus text that moves when an order is placed', async () => {
    const ctx = await seededStore();
    const metrics = async () => {
      const response = await ctx.client().get('/metrics');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      return samples(await response.text());
    };
    const before = await metrics();
    expect(before.get('csa_orders{status="processing"}')).toBe(0);
    expect(before.get('csa_games{status="waiting"}')).toBeNumber();
    expect(before.get('csa_payments_reconciler_backlog')).toBe(0);
    const shopper = await player(ctx, 'metrics-buyer');
    const product = ctx.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
    expect((await shopper.client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) })).status).toBe(201);
    const after = await metrics();
    expect(after.get('csa_orders{status="processing"}')).toBe(1);
    expect(after.get('csa_http_requests_total{method="POST",route="/api/orders",status="201"}')).toBe(1);
    expect(after.get('csa_http_request_duration_seconds_count{method="POST",route="/api/orders"}')).toBe(1);
    expect([...after.keys()].some((name) => name.startsWith('csa_payments{kind="order_charge"'))).toBe(true);
  });

  test('with METRICS_TOKEN it needs the bearer token', async () => {
    const ctx = await testApp({ METRICS_TOKEN: 'scrape-me' });
    expect((await ctx.client().get('/metrics')).status).toBe(401);
    expect((await ctx.client().get('/metrics', { headers: { authorization: 'Bearer wrong-one' } })).status).toBe(401);
    expect((await ctx.client().get('/metrics', { headers: { authorization: 'Bearer scrape-me' } })).status).toBe(200);
  });

  test('without a token, a client behind a trusted proxy is not this machine', async () => {
    const ctx = await testApp({ TRUST_PROXY: '1' });
    const response = await ctx.client().get('/metrics', { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe('Metrics answer this machine only; set METRICS_TOKEN to scrape from elsewhere.');
  });
});

describe('a failure on our side', () => {
  test('the 500 page shows the request id that the response header and the JSON carry', async () => {
    const ctx = await seededStore();
    ctx.db.$client.close();
    const page = await ctx.client().get('/products?type=book', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(500);
    const id = page.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const html = await page.text();
    expect(html).toContain('Something went wrong on our side. Please try again.');
    expect(html).toContain(id);
    const api = await ctx.client().get('/api/products');
    expect(api.status).toBe(500);
    expect(await api.json()).toEqual({ message: 'Something went wrong on our side. Please try again.', requestId: api.headers.get('x-request-id') });
  });
});
