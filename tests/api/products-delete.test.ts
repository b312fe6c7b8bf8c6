import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { adminApp, createProduct, expectRefusedWithoutChange, imageFile, sunglassesInput, uploadName, uploads } from '../helpers/products.ts';

/*
 * DELETE /api/products/{id} (spec section 7): the row and its uploaded image go; an unknown id
 * deletes nothing.
 */

describe('DELETE /api/products/{id}', () => {
  test('the product is gone afterwards: GET answers 404', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput);
    expect((await ctx.admin.request('DELETE', `/api/products/${created.id}`)).status).toBe(200);
    const after = await ctx.client().get(`/api/products/${created.id}`);
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({ message: 'Product not found' });
  });

  test('the uploaded image file is removed', async () => {
    const ctx = await adminApp();
    const keep = await createProduct(ctx.admin, { ...sunglassesInput, sku: 'KEEP-1' }, imageFile('webp'));
    const gone = await createProduct(ctx.admin, sunglassesInput, imageFile('png'));
    expect(uploads(ctx)).toHaveLength(2);
    expect((await ctx.admin.request('DELETE', `/api/products/${gone.id}`)).status).toBe(200);
    expect(existsSync(join(ctx.uploadsDir, uploadName(gone.imageUrl)))).toBe(false);
    expect(uploads(ctx)).toEqual([uploadName(keep.imageUrl)]);
  });

  test.each(['4242', 'abc'])('an unknown id (%s) gets 404 and deletes nothing', async (id) => {
    const ctx = await adminApp();
    seedIfEmpty(ctx.db, ctx.clock);
    await expectRefusedWithoutChange(ctx, () => ctx.admin.request('DELETE', `/api/products/${id}`), 404, 'Product not found');
  });
});
