import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { productVariants } from '../../src/db/schema.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { FLAGS, formFieldsOf, LABEL, multipart, newForm, productStore, ROUTE, SEEDED, stockName, type Kind } from '../helpers/admin-products.ts';
import { allProducts, productCount, seeded, uploads } from '../helpers/products.ts';
import { attributes, count, headingOf, hrefsOf, inputValue, isChecked, links, mainOf, textareaValue, textOf } from '../helpers/html.ts';

/*
 * GET of the admin product form pages (spec section 2, "Admin product forms"): a new form per
 * type, an edit form pre-filled from the row, the redirects to a product's own route, and the
 * 404 for an id that is not there.
 */

describe('the form pages', () => {
  test.each([
    ['/admin/product/new', 'Add Sunglasses', 'sunglasses', '/admin/product/new'],
    ['/admin/product/new?type=sunglasses', 'Add Sunglasses', 'sunglasses', '/admin/product/new'],
    ['/admin/product/new?type=book', 'Add Book', 'book', '/admin/product/new?type=book'],
    ['/admin/tshirt/new', 'Add T-Shirt', 'tshirt', '/admin/tshirt/new'],
    ['/admin/shoe/new', 'Add Shoe', 'shoe', '/admin/shoe/new'],
    ['/admin/book/new', 'Add Book', 'book', '/admin/book/new'],
  ])('GET %s answers 200 with %p', async (path, heading, type, action) => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const response = await admin.get(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe(heading);
    expect(count(main, `[action="${action}"]`)).toBeGreaterThan(0);
    expect(count(main, '[method="post"]')).toBeGreaterThan(0);
    expect(count(main, '[enctype="multipart/form-data"]')).toBeGreaterThan(0);
    expect(inputValue(main, 'productType')).toBe(type);
    expect(links(main)).toContainEqual({ href: '/', text: 'Back to Store' });
    expect(hrefsOf(main)).toContain(`/admin?tab=${type}`);
    // A new product: the type can still be chosen, nothing is kept, empty fields but the defaults.
    expect(count(main, '[aria-label="Product type"]')).toBeGreaterThan(0);
    expect(inputValue(main, 'keepExistingImage')).toBeUndefined();
    expect(inputValue(main, 'sku')).toBe('');
    expect(inputValue(main, 'price')).toBe('');
    if (type === 'tshirt' || type === 'shoe') {
      // Sold by size: an empty 'Add a size' row (size, SKU, stock) instead of one quantity.
      expect(textOf(main)).toContain('Add a size');
      for (const field of ['size', 'sku', 'quantity', 'price']) expect(inputValue(main, `variants.0.${field}`)).toBe('');
      expect(inputValue(main, 'quantity')).toBeUndefined();
    } else expect(inputValue(main, 'quantity')).toBe('1');
    expect(isChecked(main, 'buyNowEnabled')).toBe(true);
    expect(isChecked(main, 'playEnabled')).toBe(false);
    if (type === 'book') {
      for (const name of ['name', 'author', 'pages']) expect(inputValue(main, name)).toBe('');
      expect(textareaValue(main, 'summary')).toBe('');
      expect(inputValue(main, 'brand')).toBeUndefined();
    } else {
      expect(inputValue(main, 'brand')).toBe('');
      expect(inputValue(main, 'author')).toBeUndefined();
    }
    expect(textOf(main)).toContain(`Create ${LABEL[type as Kind]}`);
  });

  test.each(['sunglasses', 'tshirt', 'shoe', 'book'] as Kind[])('the edit form of a %s is pre-filled and its type locked', async (type) => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, SEEDED[type].model);
    const response = await admin.get(`${ROUTE[type]}/${product.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe(`Edit ${LABEL[type]}`);
    expect(count(main, `[action="${ROUTE[type]}/${product.id}"]`)).toBeGreaterThan(0);
    expect(inputValue(main, 'sku')).toBe(product.model);
    expect(inputValue(main, 'price')).toBe((product.priceCents / 100).toFixed(2));
    expect(inputValue(main, stockName(type))).toBe(String(product.quantity));
    expect(inputValue(main, 'keepExistingImage')).toBe('true');
    expect(inputValue(main, 'productType')).toBe(type);
    expect(attributes(main, '[src]', 'src')).toContain(`${product.imageUrl}?fallback=${type}`);
    expect(textOf(main)).toContain(`Type: ${LABEL[type]} (a product's type cannot be changed)`);
    expect(count(main, '[aria-label="Product type"]')).toBe(0);
    expect(textOf(main)).toContain('Save Changes');
    for (const flag of FLAGS) expect(isChecked(main, flag), flag).toBe(product[flag]);
    if (type === 'book') {
      expect(inputValue(main, 'name')).toBe(product.brand);
      expect(inputValue(main, 'author')).toBe('Ernest Hemingway');
      expect(inputValue(main, 'pages')).toBe(product.size);
      expect(textareaValue(main, 'summary')).toBe(product.description!.replace(/^AUTHOR:[^;]*;;/, ''));
    } else {
      expect(inputValue(main, 'brand')).toBe(product.brand);
      // Tees and shoes: the one size is the first Sizes row, the count the admin saw beside it.
      if (type === 'sunglasses') expect(inputValue(main, 'size')).toBe(product.size);
      else {
        expect(inputValue(main, 'variants.0.size')).toBe(product.size);
        expect(inputValue(main, 'variants.0.quantitySeen')).toBe(String(product.quantity));
        expect(inputValue(main, 'variants.1.size')).toBe('');
      }
    }
  });

  test('the sunglasses edit form splits the badge out of the description', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'RB3025-L0205');
    const main = mainOf(await (await admin.get(`/admin/product/${product.id}`)).text());
    expect(inputValue(main, 'badge')).toBe('Best Seller');
    expect(textareaValue(main, 'description')).toStartWith('The original Aviator in a gold metal frame');
  });

  test.each([
    ['/admin/shoe/{tshirt}', 'tshirt', '/admin/tshirt/{tshirt}'],
    ['/admin/product/{tshirt}', 'tshirt', '/admin/tshirt/{tshirt}'],
    ['/admin/product/{book}', 'book', '/admin/book/{book}'],
    ['/admin/book/{sunglasses}', 'sunglasses', '/admin/product/{sunglasses}'],
    ['/admin/tshirt/{shoe}', 'shoe', '/admin/shoe/{shoe}'],
  ] as [string, Kind, string][])('GET %s redirects (302) to the product’s own route', async (from, type, to) => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const id = String(seeded(ctx, SEEDED[type].model).id);
    const response = await admin.get(from.replace(/\{\w+\}/, id));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(to.replace(/\{\w+\}/, id));
  });

  test("an unknown id answers 404 'Product Not Found' on every form route and on the delete page", async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    for (const path of ['/admin/product/99999', '/admin/tshirt/99999', '/admin/shoe/99999', '/admin/book/99999', '/admin/products/99999/delete']) {
      const response = await admin.get(path);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(headingOf(html), path).toBe('Product Not Found');
      expect(hrefsOf(mainOf(html))).toContain('/admin');
    }
  });

  test('a post to an unknown id answers 404 and stores nothing', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const before = allProducts(ctx);
    const response = await admin.post('/admin/tshirt/99999', { body: newForm('tshirt') });
    expect(response.status).toBe(404);
    expect(headingOf(await response.text())).toBe('Product Not Found');
    expect(allProducts(ctx)).toEqual(before);
    expect(uploads(ctx)).toEqual([]);
  });
});

describe('forms keep what they cannot show and explain what they cannot read', () => {
  test('a t-shirt size set through the API is shown on its edit form, and saving the form keeps it', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const tee = seeded(ctx, SEEDED.tshirt.model);
    ctx.db.update(productVariants).set({ size: 'One Size' }).where(eq(productVariants.productId, tee.id)).run();
    const html = await (await admin.get(`/admin/tshirt/${tee.id}`)).text();
    expect(inputValue(mainOf(html), 'variants.0.size')).toBe('One Size');
    const saved = await admin.post(`/admin/tshirt/${tee.id}`, { body: multipart(formFieldsOf(html)) });
    expect(saved.status).toBe(303);
    expect(ctx.db.select({ size: productVariants.size }).from(productVariants).where(eq(productVariants.productId, tee.id)).all()).toEqual([
      { size: 'One Size' },
    ]);
  });

  test('an upload far over the limit comes back to the form with a toast, nothing stored', async () => {
    const ctx = await productStore();
    const admin = await adminWithPin(ctx);
    const before = productCount(ctx);
    const form = new FormData();
    form.set('brand', 'Too Big');
    form.set('sku', 'BIG-1');
    form.set('price', '10');
    form.set('quantity', '1');
    form.set('image', new File([new Uint8Array(8 * 1024 * 1024)], 'big.png', { type: 'image/png' }));
    const response = await admin.post('/admin/tshirt/new', { body: form });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin/tshirt/new');
    const page = await (await admin.get('/admin/tshirt/new')).text();
    expect(page).toContain('The image must be 5 MB or smaller.');
    expect(productCount(ctx)).toBe(before);
    expect(uploads(ctx)).toEqual([]);
  });
});
