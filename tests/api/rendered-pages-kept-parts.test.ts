import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { statementCounts } from '../../src/db/statement-count.ts';
import { seededApp, TEST_START, testApp, type TestApp } from '../helpers/app.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * A listing rendered for each request (`?r=1`, a search's neighbour, a shopper's page) reuses
 * what it read and rendered before in the same storefront version: the rows of its listing
 * (PageCache.remember) and the home page's or a gallery's content whole (Cached). The page must
 * be the one rendered from nothing, and a write must show at once.
 */

const LISTINGS = ['/?r=1', '/products?r=1', '/products?type=shoe&sort=newest&r=1', '/products?q=ray&r=1'];

async function html(ctx: TestApp, path: string): Promise<string> {
  const response = await ctx.client().get(path, { headers: { 'accept-encoding': 'identity' } });
  expect(response.status, path).toBe(200);
  return response.text();
}

const statementsSoFar = (ctx: TestApp) => [...statementCounts(ctx.db.$client).snapshot().values()].reduce((sum, n) => sum + n, 0);

describe('a listing rendered again from what it kept', () => {
  test('is the page rendered with nothing kept, for the home page, galleries and a search', async () => {
    const ctx = await seededApp();
    for (const path of LISTINGS) {
      ctx.pageCache.clear();
      const fromNothing = await html(ctx, path);
      expect(await html(ctx, path), path).toBe(fromNothing);
      expect(await html(ctx, path), path).toBe(fromNothing);
    }
  });

  test('asks the database nothing in the same storefront version, a search excepted', async () => {
    // The version read every 250 ms, as in production (the tests' apps read it on every lookup).
    const ctx = await testApp({}, { seededAt: TEST_START, pageCache: { recheckMs: 60_000 } });
    for (const path of LISTINGS) {
      await html(ctx, path);
      const before = statementsSoFar(ctx);
      await html(ctx, path);
      const ran = statementsSoFar(ctx) - before;
      if (path.includes('q=')) expect(ran, path).toBeGreaterThan(0);
      else expect(ran, path).toBe(0);
    }
  });

  test('shows a write at once, made by any process', async () => {
    const ctx = await seededApp();
    for (const path of LISTINGS.slice(0, 2)) expect(await html(ctx, path)).toContain('Ray-Ban');
    // Not through the app: the triggers move the storefront version, and what was kept goes.
    ctx.db.update(products).set({ brand: 'Sneaky Direct Edit' }).where(eq(products.model, 'RB3025-L0205')).run();
    const gallery = await html(ctx, '/products?r=1');
    expect(gallery).toContain('Sneaky Direct Edit');
    const { id } = ctx.db.select({ id: products.id }).from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
    const home = await html(ctx, '/?r=1');
    // On the home page only when it is one of the newest of its type; its card changes either way.
    if (home.includes(`/product/${id}"`)) expect(home).toContain('Sneaky Direct Edit');
    setShelf(ctx.db, ctx.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!.id, 0);
    const soldOut = await html(ctx, '/products?r=1');
    const card = soldOut.slice(soldOut.indexOf(`href="/product/${id}"`));
    expect(card.slice(0, card.indexOf('</article>'))).toContain('Out of Stock');
  });
});
