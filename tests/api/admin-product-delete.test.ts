import { describe, expect, test } from 'bun:test';
import { adminWithPin } from '../helpers/actors.ts';
import { listedIds, newForm, productStore, SEEDED, type Kind } from '../helpers/admin-products.ts';
import { byId, byModel, productCount, seeded, uploads } from '../helpers/products.ts';
import { all, count, headingOf, links, mainOf, textOf, toastOf } from '../helpers/html.ts';

/*
 * /admin/products/{id}/delete (spec section 2; section 8, the delete toasts): the confirmation
 * page, the post that deletes the row and its uploaded image, and an id that is not there.
 */

describe('deleting products', () => {
  test('GET /admin/products/{id}/delete asks for confirmation with Cancel and Delete', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'CW2288-111');
    const response = await admin.get(`/admin/products/${product.id}/delete`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe('Are you sure?');
    expect(textOf(main)).toContain('This action cannot be undone. This will permanently delete the product.');
    expect(textOf(main)).toContain("Nike Air Force 1 '07 (CW2288-111)");
    expect(count(main, `form[action="/admin/products/${product.id}/delete"][method="post"]`)).toBeGreaterThan(0);
    expect(links(main)).toContainEqual({ href: '/admin?tab=shoe', text: 'Cancel' });
    expect(all(main, 'button[type="submit"]').map(textOf)).toContain('Delete');
    // Only looking does not delete.
    expect(byId(ctx, product.id)).toEqual(product);
  });

  test.each(['sunglasses', 'tshirt', 'shoe', 'book'] as Kind[])('POST deletes a %s: 303 to its tab, row gone, "Product deleted" toast', async (type) => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, SEEDED[type].model);
    const before = productCount(ctx);
    const response = await admin.post(`/admin/products/${product.id}/delete`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin?tab=${type}`);
    expect(byId(ctx, product.id)).toBeUndefined();
    expect(productCount(ctx)).toBe(before - 1);

    const html = await (await admin.get(`/admin?tab=${type}`)).text();
    expect(toastOf(html)).toEqual({ title: 'Product deleted', description: 'The product has been successfully deleted.', variant: 'default' });
    expect(listedIds(html)).not.toContain(product.id);
    expect(listedIds(html)).toHaveLength(6);
  });

  test('deleting a product uploaded through the form removes its image file', async () => {
    const ctx = await productStore({ seed: false });
    const admin = await adminWithPin(ctx);
    expect((await admin.post('/admin/tshirt/new', { body: newForm('tshirt') })).status).toBe(303);
    const created = byModel(ctx, 'FT-200')!;
    expect(ctx.images.exists(created.imageUrl)).toBe(true);
    expect((await admin.post(`/admin/products/${created.id}/delete`)).status).toBe(303);
    expect(ctx.images.exists(created.imageUrl)).toBe(false);
    expect(uploads(ctx)).toEqual([]);
  });

  test("POST for an unknown id redirects with the 'Deletion failed' toast and deletes nothing", async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const before = productCount(ctx);
    const response = await admin.post('/admin/products/99999/delete');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin?tab=sunglasses');
    expect(productCount(ctx)).toBe(before);
    const toast = toastOf(await (await admin.get('/admin?tab=sunglasses')).text());
    expect(toast).toEqual({ title: 'Deletion failed', description: 'Product not found', variant: 'destructive' });
  });

  test('deleting the same product twice: the second time says Deletion failed', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'BK-JAWS-001');
    expect((await admin.post(`/admin/products/${product.id}/delete`)).status).toBe(303);
    await admin.get('/admin?tab=book'); // shows and clears the first toast
    const again = await admin.post(`/admin/products/${product.id}/delete`);
    expect(again.status).toBe(303);
    expect(toastOf(await (await admin.get(again.headers.get('location')!)).text())?.title).toBe('Deletion failed');
  });
});
