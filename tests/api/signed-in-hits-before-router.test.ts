import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products, sessions } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { statementCounts } from '../../src/db/statement-count.ts';
import { quickShopper } from '../helpers/actors.ts';
import { testApp, type TestApp } from '../helpers/app.ts';

/*
 * Issue 35, item 3: a signed-in shopper's cache hit is answered before the router with the
 * bytes and headers the route gave that session, and anything unusual (a renewed session, a
 * change to what their header shows, another shopper) is left to the route.
 */

function headersOf(response: Response): Record<string, string> {
  const headers = Object.fromEntries(response.headers);
  delete headers['x-request-id'];
  return headers;
}

/** Counts the page cache's lookups by the route (cachePages): the answers before the router make none. */
function routedLookups(ctx: TestApp): () => number {
  let count = 0;
  const cache = ctx.pageCache;
  const get = cache.get.bind(cache);
  cache.get = (key: string) => {
    count++;
    return get(key);
  };
  return () => count;
}

async function seeded() {
  const ctx = await testApp();
  seedIfEmpty(ctx.db, ctx.clock);
  const product = ctx.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
  return { ctx, product };
}

describe("a signed-in shopper's hit before the router", () => {
  test("has the headers and bytes of the route's own answer, gzip and plain, and skips the route", async () => {
    const { ctx, product } = await seeded();
    const shopper = quickShopper(ctx, 'earlyhit1');
    const lookups = routedLookups(ctx);
    for (const url of ['/', '/products?sort=newest', `/product/${product.id}`, `/product/${product.id}?tab=competition`]) {
      for (const encoding of ['gzip, deflate, br', 'identity']) {
        const headers = { 'accept-encoding': encoding };
        ctx.pageCache.clear();
        // Rendered by the route, then answered by the route from the cache, then before the router.
        const rendered = await shopper.client.get(url, { headers });
        const routed = await shopper.client.get(url, { headers });
        const before = lookups();
        const early = await shopper.client.get(url, { headers });
        expect({ url, encoding, routeLookups: lookups() - before }).toEqual({ url, encoding, routeLookups: 0 });
        expect(early.status).toBe(200);
        expect(headersOf(early)).toEqual(headersOf(routed));
        expect(headersOf(early)).toEqual(headersOf(rendered));
        expect(early.headers.get('cache-control')).toBe('private, no-store');
        expect(early.headers.has('set-cookie')).toBe(false);
        expect(await early.arrayBuffer()).toEqual(await routed.arrayBuffer());
      }
    }
  });

  test('shows each shopper their own header, and a change to it at once', async () => {
    const { ctx, product } = await seeded();
    const first = quickShopper(ctx, 'earlyone1');
    const second = quickShopper(ctx, 'earlytwo2');
    for (let index = 0; index < 3; index++) await first.client.get('/');
    const page = async (client: typeof first.client) => (await client.get('/')).text();
    expect(await page(first.client)).toContain('earlyone1');
    expect(await page(second.client)).toContain('earlytwo2');
    expect(await page(second.client)).not.toContain('earlyone1');
    // A unit in the cart moves the viewer version: the route answers, with the count in the header.
    const withoutUnit = await page(first.client);
    expect((await first.client.post('/api/cart', { json: { productId: product.id, quantity: 1 } })).status).toBeLessThan(300);
    expect(await page(first.client)).not.toBe(withoutUnit);
  });

  test('a session renewed by this request is answered by the route, which sets its cookie again', async () => {
    const { ctx } = await seeded();
    const shopper = quickShopper(ctx, 'earlyrenew1');
    for (let index = 0; index < 3; index++) expect((await shopper.client.get('/')).headers.has('set-cookie')).toBe(false);
    const session = ctx.db.select().from(sessions).where(eq(sessions.userId, shopper.id)).get()!;
    ctx.clock.set(session.expiresAt - 60_000);
    const renewed = await shopper.client.get('/');
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get('set-cookie')).toContain('csa_session=');
  });

  test('an expired session gets the visitor page from the route, its cookie cleared', async () => {
    const { ctx } = await seeded();
    const shopper = quickShopper(ctx, 'earlyexpire1');
    for (let index = 0; index < 3; index++) await shopper.client.get('/');
    const session = ctx.db.select().from(sessions).where(eq(sessions.userId, shopper.id)).get()!;
    ctx.clock.set(session.expiresAt + 1);
    const expired = await shopper.client.get('/');
    expect(expired.status).toBe(200);
    expect(expired.headers.get('cache-control')).toBe('no-cache');
    expect(await expired.text()).not.toContain('earlyexpire1');
  });

  test('a session ended elsewhere is never answered its kept page', async () => {
    const { ctx } = await seeded();
    const shopper = quickShopper(ctx, 'earlyended1');
    for (let index = 0; index < 3; index++) expect(await (await shopper.client.get('/')).text()).toContain('earlyended1');
    // 'Sign out everywhere' from another device, or an admin: the row goes, nothing else moves.
    ctx.db.delete(sessions).where(eq(sessions.userId, shopper.id)).run();
    const after = await shopper.client.get('/');
    expect(after.status).toBe(200);
    expect(after.headers.get('cache-control')).toBe('no-cache');
    expect(await after.text()).not.toContain('earlyended1');
  });

  test('after a change to the header, one request reads the whole session; the next hit runs its one statement again', async () => {
    // The storefront version read once a minute, as a server does every 250 ms: here only the session's statements count.
    const ctx = await testApp({}, { pageCache: { recheckMs: 60_000 } });
    seedIfEmpty(ctx.db, ctx.clock);
    const product = ctx.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
    const shopper = quickShopper(ctx, 'earlyglance1');
    const counts = statementCounts(ctx.db.$client);
    const statementsOf = async (path: string) => {
      const before = counts.snapshot().get(path) ?? 0;
      expect((await shopper.client.get(path)).status).toBe(200);
      return (counts.snapshot().get(path) ?? 0) - before;
    };
    for (let index = 0; index < 3; index++) await shopper.client.get('/');
    expect(await statementsOf('/')).toBe(1);
    expect((await shopper.client.post('/api/cart', { json: { productId: product.id, quantity: 1 } })).status).toBeLessThan(300);
    // The glance sees the viewer version move; the route reads the whole session and its own parts.
    const changed = await statementsOf('/');
    expect(changed).toBeGreaterThan(1);
    expect(await statementsOf('/')).toBe(1);
  });
});
