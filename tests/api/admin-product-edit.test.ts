import { describe, expect, test } from 'bun:test';
import { adminWithPin } from '../helpers/actors.ts';
import { formFieldsOf, multipart, newForm, productStore, ROUTE, SEEDED, UPLOAD_URL, type Kind } from '../helpers/admin-products.ts';
import { byId, byModel, seeded, uploads } from '../helpers/products.ts';
import { png } from '../helpers/admin-tools.ts';
import { attributes, mainOf, toastOf } from '../helpers/html.ts';

/*
 * POST of an edit form (spec section 2, "Admin product forms"): the form sent back as rendered
 * changes only what was changed, image included, and a new file replaces the old upload.
 */

describe('editing products through the forms', () => {
  test.each([
    ['sunglasses', 'Product updated'],
    ['tshirt', 'T-Shirt updated'],
    ['shoe', 'Shoe updated'],
    ['book', 'Book updated'],
  ] as [Kind, string][])('the %s edit form sent back with a new price and no file keeps everything else, image included ("%s")', async (type, title) => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, SEEDED[type].model);
    const fields = formFieldsOf(await (await admin.get(`${ROUTE[type]}/${product.id}`)).text());
    expect(fields.keepExistingImage).toBe('true');

    const response = await admin.post(`${ROUTE[type]}/${product.id}`, { body: multipart({ ...fields, price: '42.5' }) });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin?tab=${type}`);
    expect(byId(ctx, product.id)).toEqual({ ...product, priceCents: 4250 });
    expect(uploads(ctx)).toEqual([]);

    const toast = toastOf(await (await admin.get(`/admin?tab=${type}`)).text());
    expect(toast?.title).toBe(title);
    expect(toast?.description).toEndWith('has been saved.');
  });

  test('edited fields are stored with the same mapping as on creation (book)', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'BK-OLDMAN-001');
    const fields = formFieldsOf(await (await admin.get(`/admin/book/${product.id}`)).text());
    const changes = { name: 'The Old Man & the Sea', author: 'E. Hemingway', pages: '128', summary: 'A new summary.', quantity: '0', playEnabled: '' };
    const form = multipart({ ...fields, ...changes });
    form.delete('playEnabled'); // unticked
    expect((await admin.post(`/admin/book/${product.id}`, { body: form })).status).toBe(303);
    expect(byId(ctx, product.id)).toEqual({
      ...product,
      brand: 'The Old Man & the Sea',
      size: '128',
      quantity: 0,
      description: 'AUTHOR:E. Hemingway;;A new summary.',
      playEnabled: false,
    });
  });

  test('clearing the badge of sunglasses removes the marker', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'RB3025-L0205');
    const fields = formFieldsOf(await (await admin.get(`/admin/product/${product.id}`)).text());
    expect((await admin.post(`/admin/product/${product.id}`, { body: multipart({ ...fields, badge: '' }) })).status).toBe(303);
    expect(byId(ctx, product.id)?.description).toBe(product.description!.replace('BADGE:Best Seller;;', ''));
  });

  test('editing with a new file replaces the image', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, '38504-WHI');
    const fields = formFieldsOf(await (await admin.get(`/admin/tshirt/${product.id}`)).text());
    const response = await admin.post(`/admin/tshirt/${product.id}`, { body: multipart({ ...fields, image: png('new.png') }) });
    expect(response.status).toBe(303);
    const updated = byId(ctx, product.id)!;
    expect(updated.imageUrl).not.toBe(product.imageUrl);
    expect(updated.imageUrl).toMatch(UPLOAD_URL);
    expect(ctx.images.exists(updated.imageUrl)).toBe(true);
    expect(updated).toEqual({ ...product, imageUrl: updated.imageUrl });

    const form = mainOf(await (await admin.get(`/admin/tshirt/${product.id}`)).text());
    expect(attributes(form, '[src]', 'src')).toContain(`${updated.imageUrl}?fallback=tshirt`);
  });

  test('replacing an uploaded image removes the old upload', async () => {
    const ctx = await productStore({ seed: false });
    const admin = await adminWithPin(ctx);
    expect((await admin.post('/admin/shoe/new', { body: newForm('shoe') })).status).toBe(303);
    const created = byModel(ctx, 'FK-300')!;
    const fields = formFieldsOf(await (await admin.get(`/admin/shoe/${created.id}`)).text());

    expect((await admin.post(`/admin/shoe/${created.id}`, { body: multipart({ ...fields, price: '99' }) })).status).toBe(303);
    expect(byId(ctx, created.id)?.imageUrl).toBe(created.imageUrl);
    expect(ctx.images.exists(created.imageUrl)).toBe(true);

    expect((await admin.post(`/admin/shoe/${created.id}`, { body: multipart({ ...fields, image: png('again.png') }) })).status).toBe(303);
    const replaced = byId(ctx, created.id)!.imageUrl;
    expect(replaced).not.toBe(created.imageUrl);
    expect(ctx.images.exists(created.imageUrl)).toBe(false);
    expect(uploads(ctx)).toEqual([replaced.slice('/uploads/'.length)]);
  });

  test("a post to another type's route edits the product as its own type", async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, '38504-WHI');
    const fields = formFieldsOf(await (await admin.get(`/admin/tshirt/${product.id}`)).text());
    const response = await admin.post(`/admin/shoe/${product.id}`, { body: multipart({ ...fields, 'variants.0.quantity': '3' }) });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin?tab=tshirt');
    expect(byId(ctx, product.id)).toEqual({ ...product, quantity: 3 });
  });
});
