import { describe, expect, test } from 'bun:test';
import type { Product } from '../../src/db/schema.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { FLAGS, listedIds, newForm, productStore, UPLOAD_URL, type Kind } from '../helpers/admin-products.ts';
import { allProducts, byModel, uploads } from '../helpers/products.ts';
import { toastOf } from '../helpers/html.ts';

/*
 * POST of a new-product form (spec section 2, "Admin product forms"; section 8, the save
 * toast): what each type's form stores, where it leads, and the toast shown once.
 */

describe('creating products through the forms', () => {
  const cases: { type: Kind; path: string; title: string; expected: Partial<Product> }[] = [
    {
      type: 'sunglasses',
      path: '/admin/product/new',
      title: 'Product created',
      expected: {
        productType: 'sunglasses',
        brand: 'Form Optics',
        model: 'FO-100',
        size: '52-18-140',
        priceCents: 14950,
        quantity: 4,
        description: 'BADGE:New;;Hand-made acetate frames.',
        buyNowEnabled: false,
        bidEnabled: false,
        playEnabled: true,
        halfPriceEnabled: false,
        mysteryBoxEnabled: false,
        buyOnePlayFreeEnabled: false,
        donateEnabled: true,
      },
    },
    {
      type: 'tshirt',
      path: '/admin/tshirt/new',
      title: 'T-Shirt created',
      expected: {
        productType: 'tshirt',
        brand: 'Form Tees',
        model: 'FT-200',
        size: 'L',
        priceCents: 2999,
        quantity: 10,
        description: 'Organic cotton.',
        buyNowEnabled: true,
        bidEnabled: false,
        playEnabled: false,
        donateEnabled: false,
      },
    },
    {
      type: 'shoe',
      path: '/admin/shoe/new',
      title: 'Shoe created',
      expected: {
        productType: 'shoe',
        brand: 'Form Kicks',
        model: 'FK-300',
        size: '10.5',
        priceCents: 12000,
        quantity: 0,
        description: 'Trail runner.',
        buyNowEnabled: false,
        bidEnabled: true,
        halfPriceEnabled: true,
        playEnabled: false,
      },
    },
    {
      type: 'book',
      path: '/admin/book/new',
      title: 'Book created',
      expected: {
        productType: 'book',
        brand: 'Salt & Sand',
        model: 'BK-SALT-001',
        size: '320',
        priceCents: 1500,
        quantity: 2,
        description: 'AUTHOR:Jane Doe;;Stories from the coast.',
        buyNowEnabled: false,
        mysteryBoxEnabled: true,
        buyOnePlayFreeEnabled: true,
        playEnabled: false,
      },
    },
    {
      type: 'book',
      path: '/admin/product/new?type=book',
      title: 'Book created',
      expected: { productType: 'book', brand: 'Salt & Sand', size: '320', description: 'AUTHOR:Jane Doe;;Stories from the coast.' },
    },
  ];

  test.each(cases)('POST $path creates a $type: 303 to its tab, the row, the "$title" toast', async ({ type, path, title, expected }) => {
    const ctx = await productStore({ seed: false });
    const admin = await adminWithPin(ctx);
    const response = await admin.post(path, { body: newForm(type) });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin?tab=${type}`);

    const rows = allProducts(ctx);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject(expected);
    expect(row.imageUrl).toMatch(UPLOAD_URL);
    expect(ctx.images.exists(row.imageUrl)).toBe(true);
    expect(uploads(ctx)).toEqual([row.imageUrl.slice('/uploads/'.length)]);
    expect(row.createdAt).toBe(ctx.clock.now());

    const panel = await admin.get(`/admin?tab=${type}`);
    const html = await panel.text();
    const toast = toastOf(html);
    expect(toast?.title).toBe(title);
    expect(toast?.variant).toBe('default');
    expect(toast?.description).toBe(`${row.brand} ${type === 'book' ? 'by Jane Doe' : row.model} is now in the store.`);
    expect(listedIds(html)).toEqual([row.id]);
    // The toast is shown once.
    expect(toastOf(await (await admin.get(`/admin?tab=${type}`)).text())).toBeNull();
  });

  test('all checkboxes ticked are stored true; none ticked are stored false', async () => {
    const ctx = await productStore({ seed: false });
    const admin = await adminWithPin(ctx);
    const ticked = Object.fromEntries(FLAGS.map((flag) => [flag, 'on']));
    expect((await admin.post('/admin/shoe/new', { body: newForm('shoe', { ...ticked, sku: 'ALL-ON' }) })).status).toBe(303);
    const unticked = Object.fromEntries(FLAGS.map((flag) => [flag, undefined]));
    expect((await admin.post('/admin/shoe/new', { body: newForm('shoe', { ...unticked, sku: 'ALL-OFF' }) })).status).toBe(303);
    for (const flag of FLAGS) {
      expect(byModel(ctx, 'ALL-ON')![flag], flag).toBe(true);
      expect(byModel(ctx, 'ALL-OFF')![flag], flag).toBe(false);
    }
  });

  test('the route decides the type, whatever productType the form sends', async () => {
    const ctx = await productStore({ seed: false });
    const admin = await adminWithPin(ctx);
    const response = await admin.post('/admin/tshirt/new', { body: newForm('tshirt', { productType: 'shoe' }) });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin?tab=tshirt');
    expect(byModel(ctx, 'FT-200')?.productType).toBe('tshirt');
  });

  test('a sunglasses form with an empty badge stores the description without a marker', async () => {
    const ctx = await productStore({ seed: false });
    const admin = await adminWithPin(ctx);
    expect((await admin.post('/admin/product/new', { body: newForm('sunglasses', { badge: '' }) })).status).toBe(303);
    expect(byModel(ctx, 'FO-100')?.description).toBe('Hand-made acetate frames.');
  });
});
