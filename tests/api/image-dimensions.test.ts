import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { defaultImageFor } from '../../src/domain/catalog/catalog.ts';
import { renderShareCard, type ShareCardProduct, shareCardSource } from '../../src/domain/catalog/share-cards.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { fieldError, newForm } from '../helpers/admin-products.ts';
import { testApp } from '../helpers/app.ts';
import { mainOf, parseHtml } from '../helpers/html.ts';
import { adminApp, allProducts, createProduct, expectRefusedWithoutChange, productForm, sunglassesInput, uploads } from '../helpers/products.ts';
import { gifDeclaring, jpegDeclaring, pngDeclaring, webpDeclaring } from '../helpers/image-headers.ts';

/*
 * Issue 25, row 13: a 380 KB PNG of 20000 × 20000 px took the share card to 2.1 GB. Uploads are
 * measured by their header before anything decodes them, and a stored image that is too large
 * (from before the check) is never handed to the card's renderer.
 */

const file = (bytes: Uint8Array, name: string, type: string) => new File([bytes as Uint8Array<ArrayBuffer>], name, { type });
const tooLarge = (width: number, height: number) => `The image is ${width} × ${height} pixels; it must be at most 8000 pixels a side and 40 megapixels.`;

describe('an upload larger than 8000 pixels a side or 40 megapixels is refused before it is decoded', () => {
  const cases = [
    { what: 'a 20000 × 20000 PNG of a few hundred bytes', image: file(pngDeclaring(20_000, 20_000), 'huge.png', 'image/png'), width: 20_000, height: 20_000 },
    { what: 'a 7000 × 7000 PNG (49 megapixels)', image: file(pngDeclaring(7000, 7000), 'big.png', 'image/png'), width: 7000, height: 7000 },
    {
      what: 'a progressive JPEG 8001 pixels wide',
      image: file(jpegDeclaring(8001, 10, { progressive: true }), 'wide.jpg', 'image/jpeg'),
      width: 8001,
      height: 10,
    },
    { what: 'a lossy WebP 9000 pixels high', image: file(webpDeclaring.lossy(100, 9000), 'tall.webp', 'image/webp'), width: 100, height: 9000 },
    { what: 'a lossless WebP', image: file(webpDeclaring.lossless(16_000, 16_000), 'l.webp', 'image/webp'), width: 16_000, height: 16_000 },
    { what: 'an extended WebP', image: file(webpDeclaring.extended(100_000, 1), 'x.webp', 'image/webp'), width: 100_000, height: 1 },
    { what: 'a GIF', image: file(gifDeclaring(30_000, 30_000), 'anim.gif', 'image/gif'), width: 30_000, height: 30_000 },
  ];
  test.each(cases)('$what: 422 with the size in the message, nothing stored', async ({ image, width, height }) => {
    const ctx = await adminApp();
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, image) }),
      422,
      tooLarge(width, height),
    );
    expect(body.fields).toEqual({ image: tooLarge(width, height) });
  });

  test('an image whose header gives no size (a JPEG without a frame header) is refused as unreadable', async () => {
    const ctx = await adminApp();
    const noFrame = file(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9]), 'x.jpg', 'image/jpeg');
    await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, noFrame) }),
      422,
      'The image could not be read: its header is damaged. Save it again as a JPEG, PNG, WebP or GIF file.',
    );
  });

  test('8000 × 5000 (40 megapixels exactly) is taken', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput, file(pngDeclaring(8000, 5000), 'edge.png', 'image/png'));
    expect(created.imageUrl).toMatch(/^\/uploads\/[0-9a-f]{32}\.png$/);
  });

  test('the admin product form answers 400 with the message under the image field', async () => {
    const ctx = await testApp();
    const admin = await adminWithPin(ctx);
    const response = await admin.post('/admin/tshirt/new', { body: newForm('tshirt', { image: file(pngDeclaring(20_000, 20_000), 'huge.png', 'image/png') }) });
    expect(response.status).toBe(400);
    expect(fieldError(mainOf(parseHtml(await response.text())), 'image')).toBe(tooLarge(20_000, 20_000));
    expect(allProducts(ctx)).toEqual([]);
    expect(uploads(ctx)).toEqual([]);
  });
});

describe('a stored image too large to decode never reaches the share card renderer', () => {
  const product = (imageUrl: string): ShareCardProduct => ({
    id: 1,
    productType: 'shoe',
    brand: 'Nike',
    model: 'Air Zoom',
    description: 'Running shoes',
    price: 120,
    imageUrl,
  });

  test('an old 20000 × 20000 upload: the card is drawn from the type illustration', async () => {
    const ctx = await testApp();
    // Written straight to the folder, as an upload from before sizes were checked.
    const name = `${'ab'.repeat(16)}.png`;
    await Bun.write(join(ctx.uploadsDir, name), pngDeclaring(20_000, 20_000));
    const source = await shareCardSource(product(`/uploads/${name}`), ctx.images);
    expect(source.kind).toBe('svg');
    const fallback = await shareCardSource(product(defaultImageFor('shoe')), ctx.images);
    expect(source).toEqual(fallback);
  });

  test('a 7000 × 7000 one (sides allowed, 49 megapixels) draws the same card as the illustration', async () => {
    const ctx = await testApp();
    const name = `${'cd'.repeat(16)}.png`;
    await Bun.write(join(ctx.uploadsDir, name), pngDeclaring(7000, 7000));
    const card = await renderShareCard(product(`/uploads/${name}`), ctx.images);
    const illustrated = await renderShareCard(product(defaultImageFor('shoe')), ctx.images);
    expect(Buffer.from(card).equals(Buffer.from(illustrated))).toBe(true);
  });

  test('a photo of a size it may decode is still drawn from the photo', async () => {
    const ctx = await testApp();
    const name = `${'ef'.repeat(16)}.png`;
    await Bun.write(join(ctx.uploadsDir, name), pngDeclaring(600, 400));
    expect((await shareCardSource(product(`/uploads/${name}`), ctx.images)).kind).toBe('png');
  });
});
