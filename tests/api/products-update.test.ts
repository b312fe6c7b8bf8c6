import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  adminApp,
  bookInput,
  byId,
  createProduct,
  expectRefusedWithoutChange,
  imageFile,
  productForm,
  sunglassesInput,
  uploadName,
  uploads,
} from '../helpers/products.ts';

/*
 * PUT /api/products/{id} (spec section 7): a partial update keeps what it does not name, the
 * image included unless a new one replaces it (and the old file goes).
 */

describe('PUT /api/products/{id}', () => {
  test('a new image replaces the old one: new URL, old file removed from disk', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput, imageFile('png'));
    const oldName = uploadName(created.imageUrl);

    const response = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({}, imageFile('jpg')) });
    expect(response.status).toBe(200);
    const updated = await response.json();
    const newName = uploadName(updated.imageUrl);
    expect(newName).not.toBe(oldName);
    expect(newName.endsWith('.jpg')).toBe(true);
    expect(existsSync(join(ctx.uploadsDir, oldName))).toBe(false);
    expect(uploads(ctx)).toEqual([newName]);
    expect((await ctx.client().get(created.imageUrl)).status).toBe(404);
    expect((await ctx.client().get(updated.imageUrl)).status).toBe(200);
  });

  test('without a new image and keepExistingImage=true the image stays and the price changes', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput);
    const response = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ price: 175 }, null, true) });
    expect(response.status).toBe(200);
    const updated = await response.json();
    expect(updated.imageUrl).toBe(created.imageUrl);
    expect(updated.price).toBe(175);
    expect(uploads(ctx)).toEqual([uploadName(created.imageUrl)]);
  });

  test('partial data (only price) keeps every other field', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, { ...sunglassesInput, badge: 'Hot', playEnabled: true });
    const before = byId(ctx, created.id)!;
    const response = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ price: 88.8 }) });
    expect(response.status).toBe(200);
    expect(byId(ctx, created.id)).toEqual({ ...before, priceCents: 8880 });
    const shown = await (await ctx.client().get(`/api/products/${created.id}`)).json();
    // The one variant has no price of its own: it shows the product's new one.
    expect(shown).toMatchObject({ ...created, price: 88.8, variants: [{ ...created.variants[0], price: 88.8 }] });
  });

  test('a book keeps its name, author, pages and summary when only the quantity changes', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, bookInput);
    const response = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ quantity: 0 }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      brand: 'Tide Tables',
      model: 'BK-TIDE-001',
      size: '312',
      quantity: 0,
      description: 'AUTHOR:Marina Shore;;A year on the Laguna coast.',
    });
  });

  test('changing the productType is refused: 400, "A product\'s type cannot be changed"', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput);
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ productType: 'tshirt', price: 1 }) }),
      400,
      "A product's type cannot be changed",
    );
    expect(body.fields).toEqual({ productType: "A product's type cannot be changed" });
  });

  test('invalid values are refused with their message, and a refused new image is not kept', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput);
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ quantity: -1 }, imageFile('gif')) }),
      400,
      'Quantity cannot be negative',
    );
    expect(body.fields).toEqual({ quantity: 'Quantity cannot be negative' });
    expect(uploads(ctx)).toEqual([uploadName(created.imageUrl)]);
  });

  test('an unknown id gets 404 and nothing is stored', async () => {
    const ctx = await adminApp();
    await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.request('PUT', '/api/products/4242', { body: productForm({ price: 5 }, imageFile()) }),
      404,
      'Product not found',
    );
  });

  test('a new description without a marker keeps the badge; sending badge "" removes it', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, { ...sunglassesInput, badge: 'Best Seller', description: 'Old words' });
    expect(created.description).toBe('BADGE:Best Seller;;Old words');
    const kept = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ description: 'New words' }, null, true) });
    expect((await kept.json()).description).toBe('BADGE:Best Seller;;New words');
    const removed = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ badge: '' }, null, true) });
    expect((await removed.json()).description).toBe('New words');
  });
});
