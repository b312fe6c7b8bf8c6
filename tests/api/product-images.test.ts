import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testApp } from '../helpers/app.ts';
import {
  adminApp,
  allProducts,
  createProduct,
  expectRefusedWithoutChange,
  IMAGES,
  imageFile,
  MIME,
  productForm,
  sunglassesInput,
  uploadName,
  uploads,
} from '../helpers/products.ts';

/*
 * Product images through the product API: uploads read by content and stored under generated
 * names, served for good; refused files leave nothing behind; a missing upload falls back to the
 * type's default; an image is a file, an https URL or a static image, never another upload.
 */

describe('product images', () => {
  test.each(['png', 'jpg', 'gif', 'webp'] as const)('a %s upload is stored under a generated 32-hex name and served for good', async (kind) => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput, imageFile(kind, 'My Holiday Photo.bin'));
    const name = uploadName(created.imageUrl);
    expect(name.endsWith(`.${kind}`)).toBe(true);
    expect(uploads(ctx)).toEqual([name]);
    expect(new Uint8Array(readFileSync(join(ctx.uploadsDir, name)))).toEqual(IMAGES[kind]);

    const served = await ctx.client().get(created.imageUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('content-type')).toContain(MIME[kind]);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGES[kind]);
  });

  test('a text file named photo.png is refused with 415 and nothing is stored', async () => {
    const ctx = await adminApp();
    const fake = new File(['just some text, not an image'], 'photo.png', { type: 'image/png' });
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, fake) }),
      415,
      'The image must be a JPEG, PNG, WebP or GIF file.',
    );
    expect(body.fields).toEqual({ image: 'The image must be a JPEG, PNG, WebP or GIF file.' });
    expect(uploads(ctx)).toEqual([]);
    expect(allProducts(ctx)).toHaveLength(0);
  });

  test('an SVG is refused too, whatever it is called', async () => {
    const ctx = await adminApp();
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], 'cover.gif', { type: 'image/gif' });
    await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, svg) }),
      415,
      'The image must be a JPEG, PNG, WebP or GIF file.',
    );
  });

  test('a 6 MB PNG is refused with 413 and nothing is stored', async () => {
    const ctx = await adminApp();
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(IMAGES.png.subarray(0, 8));
    const file = new File([big], 'huge.png', { type: 'image/png' });
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, file) }),
      413,
      'The image must be 5 MB or smaller.',
    );
    expect(body.fields).toEqual({ image: 'The image must be 5 MB or smaller.' });
    expect(uploads(ctx)).toEqual([]);
    expect(allProducts(ctx)).toHaveLength(0);
  });

  test('a missing upload answers the type default with ?fallback=tshirt, and 404 without it', async () => {
    const { client } = await testApp();
    const c = client();
    const missing = `/uploads/${'ab'.repeat(16)}.png`;
    const fallback = await c.get(`${missing}?fallback=tshirt`);
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get('content-type')).toContain('image/svg+xml');
    expect(fallback.headers.get('cache-control')).toBe('no-cache');
    expect(await fallback.text()).toBe(readFileSync(join(import.meta.dir, '../../static/images/defaults/tshirt.svg'), 'utf8'));

    expect((await c.get(missing)).status).toBe(404);
    expect((await c.get(`${missing}?fallback=hats`)).status).toBe(404);
    expect((await c.get('/uploads/..%2Fsecret.png')).status).toBe(404);
  });

  test("an API client cannot point a product at another product's upload", async () => {
    const ctx = await adminApp();
    const first = await createProduct(ctx.admin, sunglassesInput);
    const copy = await ctx.admin.post('/api/products', { body: productForm({ ...sunglassesInput, imageUrl: first.imageUrl }, null) });
    expect(copy.status).toBe(400);
    expect((await copy.json()).fields.image).toBe('An image is required for new products');
  });

  test('an https image URL or one of the static images may stand in for a file', async () => {
    const ctx = await adminApp();
    const remote = await createProduct(ctx.admin, { ...sunglassesInput, imageUrl: 'https://cdn.example/shades.jpg' }, null);
    expect(remote.imageUrl).toBe('https://cdn.example/shades.jpg');
    const local = await createProduct(ctx.admin, { ...sunglassesInput, imageUrl: '/static/images/defaults/sunglasses.svg' }, null);
    expect(local.imageUrl).toBe('/static/images/defaults/sunglasses.svg');
    const missing = await ctx.admin.post('/api/products', { body: productForm({ ...sunglassesInput, imageUrl: '/static/images/nope.svg' }, null) });
    expect(missing.status).toBe(400);
  });
});
