import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { seededApp } from '../helpers/app.ts';

/*
 * GET /api/products and GET /api/products/{id} (spec section 7): the catalogue with its API
 * fields, filtered by type and searched by ?q=.
 */

describe('GET /api/products', () => {
  test('lists every product with its API fields, price in dollars', async () => {
    const { client, db } = await seededApp();
    const response = await client().get('/api/products');
    expect(response.status).toBe(200);
    const list = (await response.json()) as Record<string, any>[];
    expect(list).toHaveLength(db.select().from(products).all().length);
    for (const p of list) {
      for (const key of ['id', 'brand', 'model', 'size', 'price', 'quantity', 'imageUrl', 'description', 'productType']) {
        expect(p).toHaveProperty(key);
      }
      expect(typeof p.price).toBe('number');
    }
    const aviator = list.find((p) => p.model === 'RB3025-L0205')!;
    expect(Number.isInteger(aviator.id)).toBe(true);
    expect(aviator).toMatchObject({
      productType: 'sunglasses',
      brand: 'Ray-Ban',
      size: '58-14-135',
      price: 171,
      quantity: 12,
      imageUrl: '/static/images/products/rayban-aviator-classic.svg',
    });
    expect(aviator.description.startsWith('BADGE:Best Seller;;The original Aviator')).toBe(true);
    expect(list.find((p) => p.model === 'BK-JAWS-001')!.price).toBe(9.99);
  });

  test('?type= keeps one product type; an unknown type is a 400 naming the types', async () => {
    const { client } = await seededApp();
    const c = client();
    for (const type of ['sunglasses', 'tshirt', 'shoe', 'book']) {
      const list = (await (await c.get(`/api/products?type=${type}`)).json()) as { productType: string }[];
      expect(list.length).toBe(7);
      expect(list.every((p) => p.productType === type)).toBe(true);
    }
    const unknown = await c.get('/api/products?type=hats');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ message: 'Use sunglasses, tshirt, shoe or book.', fields: { type: 'Use sunglasses, tshirt, shoe or book.' } });
    expect((await (await c.get('/api/products')).json()) as unknown[]).toHaveLength(28);
  });

  test('?q= searches brand, model and description, case-insensitively, and combines with ?type=', async () => {
    const { client } = await seededApp();
    const c = client();
    const search = async (query: string) => (await (await c.get(`/api/products?${query}`)).json()) as Record<string, any>[];

    const byBrand = await search('q=VANS');
    expect(byBrand.map((p) => p.productType).sort()).toEqual(['shoe', 'tshirt']);
    expect(byBrand.every((p) => p.brand === 'Vans')).toBe(true);

    expect((await search('q=rb2140')).map((p) => p.model)).toEqual(['RB2140-901']);

    const byDescription = await search('q=teardrop');
    expect(byDescription.map((p) => p.model)).toEqual(['RB3025-L0205']);
    expect((await search('q=g-15 gold')).map((p) => p.model)).toEqual(['RB3025-L0205']);
    expect((await search('q=g-15')).map((p) => p.model).sort()).toEqual(['RB2140-901', 'RB3025-L0205']);

    expect((await search('type=shoe&q=vans')).map((p) => p.model)).toEqual(['VN000D3HY28']);
    expect(await search('q=no-such-thing-anywhere')).toEqual([]);
  });
});

describe('GET /api/products/{id}', () => {
  test('answers one product', async () => {
    const { client, db } = await seededApp();
    const row = db.select().from(products).where(eq(products.model, 'BK-JAWS-001')).get()!;
    const response = await client().get(`/api/products/${row.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: row.id,
      productType: 'book',
      brand: 'Jaws',
      model: 'BK-JAWS-001',
      price: 9.99,
      quantity: row.quantity,
      size: row.size,
      description: row.description!,
    });
  });

  test.each(['9999', 'abc', '0', '-1', '1.5'])('404 with a JSON message for id %s', async (id) => {
    const { client } = await seededApp();
    const response = await client().get(`/api/products/${id}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ message: 'Product not found' });
  });
});
