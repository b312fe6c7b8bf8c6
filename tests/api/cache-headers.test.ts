import { beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { buyNowBody, completeProfile } from '../helpers/actors.ts';
import { type Store, seededStore, signedInAdmin, signedInUser } from '../helpers/admin-tools.ts';
import { addToCart } from '../helpers/checkout.ts';
import type { TestClient } from '../helpers/app.ts';

/*
 * Issue 25, row 16: a signed-in user's pages (their name in the header, their orders, profile,
 * checkout) are `private, no-store`: no browser keeps them, no cache between keeps them; a
 * visitor's pages keep `no-cache`. And `Accept-Encoding: gzip;q=0` gets no gzip, by q-value.
 */

let ctx: Store;
let shopper: TestClient;
let admin: TestClient;
let orderId: number;
let productId: number;

beforeAll(async () => {
  ctx = await seededStore();
  const user = signedInUser(ctx, 'lena');
  completeProfile(ctx, user.id);
  shopper = user.client;
  const product = ctx.db.select().from(products).where(eq(products.productType, 'sunglasses')).get()!;
  productId = product.id;
  const placed = await shopper.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
  expect(placed.status).toBe(201);
  orderId = ((await placed.json()) as { id: number }).id;
  await addToCart(shopper, product.id);
  admin = await signedInAdmin(ctx);
});

const cacheControl = async (client: TestClient, path: string, headers: Record<string, string> = {}) => {
  const response = await client.get(path, { headers: { accept: 'text/html', ...headers } });
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
  expect(response.headers.get('content-type')).toContain('text/html');
  return response.headers.get('cache-control');
};

describe('Cache-Control of pages', () => {
  test('the pages of a signed-in shopper are private, no-store: profile, order, checkout, cart and the catalogue', async () => {
    for (const path of [
      '/profile',
      `/orders/${orderId}`,
      `/checkout?productId=${productId}`,
      '/cart',
      '/',
      '/products',
      '/products?type=book',
      `/product/${productId}`,
    ]) {
      expect({ path, cacheControl: await cacheControl(shopper, path) }).toEqual({ path, cacheControl: 'private, no-store' });
    }
  });

  test('the admin orders tab is private, no-store', async () => {
    expect(await cacheControl(admin, '/admin?tab=orders')).toBe('private, no-store');
  });

  test('a catalogue page served from the page cache to a shopper is private, no-store too; to a visitor no-cache', async () => {
    const visitor = ctx.client();
    for (let round = 0; round < 2; round++) {
      expect(await cacheControl(visitor, '/products?type=shoe')).toBe('no-cache');
      expect(await cacheControl(shopper, '/products?type=shoe')).toBe('private, no-store');
    }
  });

  test("a visitor's pages keep no-cache", async () => {
    const visitor = ctx.client();
    for (const path of ['/', '/products', `/product/${productId}`, '/auth']) {
      expect({ path, cacheControl: await cacheControl(visitor, path) }).toEqual({ path, cacheControl: 'no-cache' });
    }
  });
});

describe('Accept-Encoding by q-value', () => {
  const encodingOf = async (client: TestClient, path: string, acceptEncoding: string) =>
    (await client.get(path, { headers: { accept: 'text/html', 'accept-encoding': acceptEncoding } })).headers.get('content-encoding');
  const refusing = ['gzip;q=0', 'gzip; q=0.0, identity', 'identity', '*;q=0', 'br', 'gzip;q=0, identity;q=1'];
  const taking = ['gzip', 'gzip;q=0.5', 'deflate, gzip;q=0.1', '*', 'x-gzip', 'GZIP;Q=1'];

  test('a page, for a visitor (cached, whole) and a shopper (joined pieces)', async () => {
    for (const client of [ctx.client(), shopper]) {
      for (const path of ['/products?type=book', `/product/${productId}`, '/cart']) {
        for (const value of refusing) expect({ path, value, encoding: await encodingOf(client, path, value) }).toEqual({ path, value, encoding: null });
        for (const value of taking) expect({ path, value, encoding: await encodingOf(client, path, value) }).toEqual({ path, value, encoding: 'gzip' });
        // gzip named with q=0 wins over the wildcard, which still lets in deflate (Hono's compress()).
        expect(await encodingOf(client, path, 'gzip;q=0, *')).toBe('deflate');
      }
    }
  });

  test("the catalogue JSON from the page cache, and the build's stylesheet", async () => {
    const visitor = ctx.client();
    const asset = (await (await visitor.get('/')).text()).match(/\/assets\/[\w.-]+\.css/)?.[0];
    expect(asset).toBeDefined();
    for (const path of ['/api/products?type=book', asset!]) {
      for (let round = 0; round < 2; round++) {
        expect({ path, encoding: await encodingOf(visitor, path, 'gzip;q=0') }).toEqual({ path, encoding: null });
        expect({ path, encoding: await encodingOf(visitor, path, 'gzip') }).toEqual({ path, encoding: 'gzip' });
      }
    }
  });
});
