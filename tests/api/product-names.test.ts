import { describe, expect, test } from 'bun:test';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { all, textOf } from '../helpers/html.ts';
import { adminApp, createProduct, expectRefusedWithoutChange, productForm, sunglassesInput } from '../helpers/products.ts';

/*
 * Issue 27, item 13: products were titled brand + SKU ('On 59.98904') and two cards read
 * 'Ray-Ban'. An optional name (admin form and products API) is the title when present; the SKU
 * stays in the details; the demo products have real names, no two cards alike.
 */

describe('the optional product name', () => {
  test('POST and PUT /api/products store it, an empty one clears it, and it is the title of the card and the page', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, { ...sunglassesInput, name: 'Harbor Round' });
    expect(created).toMatchObject({ name: 'Harbor Round', brand: 'Zenith Optics', model: 'ZEN-001' });

    const page = await (await ctx.client().get(`/product/${created.id}`)).text();
    expect(all(page, 'h1').map(textOf)).toEqual(['Harbor Round']);
    expect(page).toContain('<title>Zenith Optics Harbor Round | ');
    expect(textOf(all(page, 'dl')[0]!)).toContain('SKU ZEN-001');
    const cards = await (await ctx.client().get('/products')).text();
    expect(all(cards, 'article h2').map(textOf)).toEqual(['Harbor Round']);

    const cleared = await ctx.admin.request('PUT', `/api/products/${created.id}`, { json: { name: '' } });
    expect(await cleared.json()).toMatchObject({ name: null, model: 'ZEN-001' });
    const renamed = await ctx.admin.request('PUT', `/api/products/${created.id}`, { json: { price: 120 } });
    expect(await renamed.json()).toMatchObject({ name: null, price: 120 });
  });

  test('a name over 100 characters is refused with the field named', async () => {
    const ctx = await adminApp();
    await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm({ ...sunglassesInput, name: 'x'.repeat(101) }) }),
      400,
      'Product name must be at most 100 characters',
    );
  });

  test('the demo catalogue: every card has its own title, none is a SKU', async () => {
    const ctx = await adminApp();
    seedIfEmpty(ctx.db, ctx.clock);
    const html = await (await ctx.client().get('/products')).text();
    const titles = all(html, 'article h2').map(textOf);
    expect(titles.length).toBe(28);
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles).toContain('Cloud 5');
    expect(titles).not.toContain('Ray-Ban');
  });
});
