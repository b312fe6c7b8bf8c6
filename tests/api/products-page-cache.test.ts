import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { seededApp, testApp, type TestApp } from '../helpers/app.ts';
import { createProduct, imageFile, productForm, sunglassesInput } from '../helpers/products.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * The signed-out page cache and the catalogue: any write to the storefront, through the admin
 * API or not, drops the cached pages; refused writes and searches leave the cache alone.
 */

describe('the page cache follows admin writes', () => {
  async function cachedVisitorPages(ctx: TestApp) {
    seedIfEmpty(ctx.db, ctx.clock);
    const visitor = ctx.client();
    for (const path of ['/', '/products']) {
      const first = await visitor.get(path);
      expect(first.status).toBe(200);
      const firstHtml = await first.text();
      const second = await visitor.get(path);
      expect(second.status).toBe(200);
      expect(await second.text()).toBe(firstHtml);
    }
    expect(ctx.pageCache.size).toBeGreaterThanOrEqual(2);
    return visitor;
  }

  test('a signed-out visitor is served from the cache until the storefront changes, by anyone', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    const hits = ctx.pageCache.hits;
    await visitor.get('/products');
    expect(ctx.pageCache.hits).toBe(hits + 1);
    // A write that did not come through this app (another process, a script) moves the version too.
    ctx.db.update(products).set({ brand: 'Sneaky Direct Edit' }).where(eq(products.model, 'RB3025-L0205')).run();
    expect(await (await visitor.get('/products')).text()).toContain('Sneaky Direct Edit');
  });

  test('a sale drops the cached pages: the last unit sold is not shown as in stock', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    const target = ctx.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
    setShelf(ctx.db, target.id, 1);
    await visitor.get(`/product/${target.id}`);
    const before = await (await visitor.get(`/product/${target.id}`)).text();
    expect(before).toContain('1 left');
    // The sale's stock update, as checkout writes it.
    setShelf(ctx.db, target.id, 0);
    const after = await (await visitor.get(`/product/${target.id}`)).text();
    expect(after).not.toContain('1 left');
    expect(after).toContain('Sold out for now');
  });

  test('creating a product clears the cache and the next visitor sees it on /', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    expect(await (await visitor.get('/')).text()).not.toContain('Zenith Optics');
    const admin = await adminWithPin(ctx);
    await createProduct(admin, sunglassesInput);
    const home = await ctx.client().get('/');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Zenith Optics');
    expect(await (await visitor.get('/products')).text()).toContain('Zenith Optics');
  });

  test('updating a product clears the cache and the new name shows', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    const target = ctx.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
    const admin = await adminWithPin(ctx);
    const response = await admin.request('PUT', `/api/products/${target.id}`, { body: productForm({ brand: 'Renamed Frames' }, null, true) });
    expect(response.status).toBe(200);
    expect(await (await visitor.get('/products')).text()).toContain('Renamed Frames');
  });

  test('deleting a product clears the cache and it disappears', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    const target = ctx.db.select().from(products).where(eq(products.model, 'OV5217S-1001')).get()!;
    expect(await (await visitor.get('/products')).text()).toContain(`/product/${target.id}"`);
    const admin = await adminWithPin(ctx);
    expect((await admin.request('DELETE', `/api/products/${target.id}`)).status).toBe(200);
    expect(await (await visitor.get('/products')).text()).not.toContain(`/product/${target.id}"`);
  });

  test('a refused write leaves the cache alone', async () => {
    const ctx = await testApp();
    await cachedVisitorPages(ctx);
    const size = ctx.pageCache.size;
    const admin = await adminWithPin(ctx);
    const response = await admin.post('/api/products', { body: productForm({ ...sunglassesInput, price: 0 }, imageFile()) });
    expect(response.status).toBe(400);
    const hits = ctx.pageCache.hits;
    await ctx.client().get('/');
    expect(ctx.pageCache.size).toBe(size);
    expect(ctx.pageCache.hits).toBe(hits + 1);
  });

  test('searches are never cached, so made-up URLs cannot push pages out of the cache', async () => {
    const ctx = await seededApp();
    const visitor = ctx.client();
    await visitor.get('/');
    const size = ctx.pageCache.size;
    for (let i = 0; i < 5; i++) await visitor.get(`/products?q=word${i}`);
    await visitor.get('/products?utm_source=x');
    expect(ctx.pageCache.size).toBe(size);
    await visitor.get('/products?type=book&sort=price-asc');
    expect(ctx.pageCache.size).toBe(size + 1);
  });
});
