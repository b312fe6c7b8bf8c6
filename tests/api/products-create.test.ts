import { describe, expect, test } from 'bun:test';
import {
  adminApp,
  allProducts,
  bookInput,
  createProduct,
  expectRefusedWithoutChange,
  imageFile,
  productForm,
  sunglassesInput,
  uploads,
} from '../helpers/products.ts';

/*
 * POST /api/products (spec section 7): every rule of spec section 5 with its message, and how the
 * fields of each type map onto the stored row (spec section 3).
 */

describe('POST /api/products validation (spec section 5)', () => {
  const { productType: _omit, ...withoutType } = sunglassesInput;
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['price 0', { ...sunglassesInput, price: 0 }, 'price', 'Price must be greater than 0'],
    ['price missing', { ...sunglassesInput, price: undefined }, 'price', 'Price must be greater than 0'],
    ['price 0.001', { ...sunglassesInput, price: 0.001 }, 'price', 'Price must be greater than 0'],
    ['price as text', { ...sunglassesInput, price: 'free' }, 'price', 'Price must be greater than 0'],
    ['quantity -1', { ...sunglassesInput, quantity: -1 }, 'quantity', 'Quantity cannot be negative'],
    ['SKU missing', { ...sunglassesInput, sku: undefined }, 'model', 'SKU is required'],
    ['SKU blank', { ...sunglassesInput, sku: '   ' }, 'model', 'SKU is required'],
    ['brand missing', { ...sunglassesInput, brand: undefined }, 'brand', 'Brand is required'],
    ['book name missing', { ...bookInput, name: '' }, 'name', 'Book name is required'],
    ['book author missing', { ...bookInput, author: undefined }, 'author', 'Author is required'],
    ['book pages 0', { ...bookInput, pages: 0 }, 'pages', 'Pages must be at least 1'],
    ['book pages missing', { ...bookInput, pages: undefined }, 'pages', 'Pages must be at least 1'],
    ['book SKU missing', { ...bookInput, sku: '' }, 'model', 'SKU is required'],
    ['book price 0', { ...bookInput, price: 0 }, 'price', 'Price must be greater than 0'],
    ['an unknown productType', { ...withoutType, productType: 'hat' }, 'productType', 'Product type must be one of sunglasses, tshirt, shoe, book'],
  ];

  test.each(cases)('%s: 400 with the exact message, nothing stored', async (_name, data, field, message) => {
    const ctx = await adminApp();
    const body = await expectRefusedWithoutChange(ctx, () => ctx.admin.post('/api/products', { body: productForm(data, imageFile()) }), 400, message);
    expect(body.fields[field]).toBe(message);
    expect(uploads(ctx)).toEqual([]);
    expect(allProducts(ctx)).toHaveLength(0);
  });

  test.each([
    ['sunglasses', sunglassesInput, 'An image is required for new products'],
    ['tshirt', { ...sunglassesInput, productType: 'tshirt', size: 'M' }, 'An image is required for new t-shirts'],
    ['shoe', { ...sunglassesInput, productType: 'shoe', size: '10' }, 'An image is required for new shoes'],
    ['book', bookInput, 'A cover image is required for new books'],
  ])('a new %s without an image gets its own message', async (_type, data, message) => {
    const ctx = await adminApp();
    const body = await expectRefusedWithoutChange(ctx, () => ctx.admin.post('/api/products', { body: productForm(data, null) }), 400, message);
    expect(body.fields).toEqual({ image: message });
  });

  test('an empty image part counts as no image', async () => {
    const ctx = await adminApp();
    const empty = new File([], 'empty.png', { type: 'image/png' });
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, empty) }),
      400,
      'An image is required for new products',
    );
    expect(body.fields.image).toBe('An image is required for new products');
  });

  test('several mistakes are all reported by field, the first one as the message', async () => {
    const ctx = await adminApp();
    const data = { productType: 'book', price: 0, quantity: -1, pages: 0 };
    const body = await expectRefusedWithoutChange(ctx, () => ctx.admin.post('/api/products', { body: productForm(data, null) }), 400, 'Book name is required');
    expect(body.fields).toEqual({
      model: 'SKU is required',
      price: 'Price must be greater than 0',
      quantity: 'Quantity cannot be negative',
      name: 'Book name is required',
      author: 'Author is required',
      pages: 'Pages must be at least 1',
      image: 'A cover image is required for new books',
    });
  });

  test('a `data` field that is not JSON gets 400, a body that is not multipart 415', async () => {
    const ctx = await adminApp();
    const form = new FormData();
    form.set('data', '{"brand":');
    form.set('image', imageFile());
    await expectRefusedWithoutChange(ctx, () => ctx.admin.post('/api/products', { body: form }), 400, 'The `data` field must be JSON.');
    await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: 'brand=x', headers: { 'content-type': 'text/plain' } }),
      415,
      'Send the product as multipart/form-data with a `data` field (JSON) and an `image` file.',
    );
  });
});

describe('field mapping (spec section 3)', () => {
  test('a book stores name as brand, SKU as model, pages as size, AUTHOR marker in the description', async () => {
    const { admin, client } = await adminApp();
    const created = await createProduct(admin, bookInput);
    const shown = await (await client().get(`/api/products/${created.id}`)).json();
    expect(shown).toMatchObject({
      productType: 'book',
      brand: 'Tide Tables',
      model: 'BK-TIDE-001',
      size: '312',
      price: 21.25,
      quantity: 4,
      description: 'AUTHOR:Marina Shore;;A year on the Laguna coast.',
    });
  });

  test('sunglasses with a badge get the BADGE marker in front of the description', async () => {
    const { admin, client } = await adminApp();
    const created = await createProduct(admin, { ...sunglassesInput, badge: 'New Arrival' });
    const shown = await (await client().get(`/api/products/${created.id}`)).json();
    expect(shown.description).toBe('BADGE:New Arrival;;Polarised acetate frames.');
  });

  test('numbers sent as text are read, betEnabled is another name for playEnabled', async () => {
    const { admin } = await adminApp();
    const created = await createProduct(admin, { ...sunglassesInput, price: '$12.50', quantity: '3', betEnabled: true });
    expect(created).toMatchObject({ price: 12.5, quantity: 3, playEnabled: true, betEnabled: true });
  });
});
