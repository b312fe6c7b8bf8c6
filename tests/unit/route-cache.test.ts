import { describe, expect, test } from 'bun:test';
import { Hono } from 'hono';
import type { AppEnv } from '../../src/http/context.ts';
import { cacheRoutes } from '../../src/http/route-cache.ts';
import { seededApp } from '../helpers/app.ts';

/*
 * The remembered router answer (route-cache.ts): middlewares added after a route are left out
 * of its match (they would run only if its handler called next()), so such a route takes Hono's
 * single-handler path; the route pattern names the answer in the metrics.
 */

function sample() {
  const app = new Hono<AppEnv>();
  const ran: string[] = [];
  app.get('/early', (c) => c.text('early'));
  app.use(async (c, next) => {
    ran.push(`middleware ${c.req.path}`);
    await next();
  });
  app.get('/late/:id', (c) => c.text(`late ${c.req.param('id')}`));
  const routeOf = cacheRoutes(app);
  return { app, ran, routeOf };
}

describe('the remembered router answer', () => {
  test('a route added before the middlewares matches alone; one added after keeps them', async () => {
    const { app, ran } = sample();
    expect(app.router.match('GET', '/early')[0]).toHaveLength(1);
    expect(app.router.match('GET', '/late/7')[0]).toHaveLength(2);
    expect(await (await app.request('/early')).text()).toBe('early');
    expect(await (await app.request('/late/7')).text()).toBe('late 7');
    expect(await (await app.request('/late/8')).text()).toBe('late 8');
    expect(ran).toEqual(['middleware /late/7', 'middleware /late/8']);
  });

  test('a path no route answers still passes through the middlewares to the 404', async () => {
    const { app, ran } = sample();
    expect((await app.request('/nowhere')).status).toBe(404);
    expect(ran).toEqual(['middleware /nowhere']);
  });

  test('one path under two methods is remembered apart, each with its own pattern', () => {
    const app = new Hono<AppEnv>();
    app.get('/things/:id', (c) => c.text('one'));
    app.post('/things/new', (c) => c.text('made'));
    const routeOf = cacheRoutes(app);
    for (let round = 0; round < 2; round++) {
      expect(routeOf('GET', '/things/new')).toBe('/things/:id');
      expect(routeOf('POST', '/things/new')).toBe('/things/new');
      expect(routeOf('DELETE', '/things/new')).toBe('unmatched');
    }
  });

  test('the metrics name the route pattern, HEAD as its GET, and "unmatched" where no route answers', () => {
    const { routeOf } = sample();
    expect(routeOf('GET', '/late/7')).toBe('/late/:id');
    expect(routeOf('HEAD', '/late/7')).toBe('/late/:id');
    expect(routeOf('GET', '/early')).toBe('/early');
    expect(routeOf('GET', '/nowhere')).toBe('unmatched');
    expect(routeOf('GET', `/late/${'x'.repeat(300)}`)).toBe('/late/:id');
  });

  test('in the store, /ping and files take the single-handler path; pages keep their middlewares', async () => {
    const { app } = await seededApp();
    expect(app.router.match('GET', '/ping')[0]).toHaveLength(1);
    expect(app.router.match('GET', '/healthz')[0]).toHaveLength(1);
    expect(app.router.match('GET', '/')[0].length).toBeGreaterThan(1);
  });
});

describe('the request metrics name who answered', () => {
  test('a cross-site POST refused by the CSRF check counts under its route; a refused Host under "unmatched"', async () => {
    const ctx = await seededApp();
    const refused = await ctx.app.request('/api/login', {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(403);
    const badHost = await ctx.app.request('/metrics', { headers: { host: 'a b' } });
    expect(badHost.status).toBe(400);
    const text = await (await ctx.client().get('/metrics')).text();
    expect(text).toContain('csa_http_requests_total{method="POST",route="/api/login",status="403"} 1');
    expect(text).toContain('csa_http_requests_total{method="GET",route="unmatched",status="400"} 1');
  });
});
