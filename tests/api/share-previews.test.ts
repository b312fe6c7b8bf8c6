import { beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { seededStore, type Store } from '../helpers/admin-tools.ts';
import { TEST_ORIGIN } from '../helpers/app.ts';
import { parseHtml } from '../helpers/html.ts';

/*
 * What a shared link shows (Facebook, X, WhatsApp, iMessage): every page names a raster
 * og:image with its type and size, and that URL answers with exactly that image.
 */

let ctx: Store;
const ids: Record<'sunglasses' | 'tshirt' | 'shoe' | 'book', number> = { sunglasses: 0, tshirt: 0, shoe: 0, book: 0 };

beforeAll(async () => {
  ctx = await seededStore();
  for (const type of Object.keys(ids) as (keyof typeof ids)[]) {
    ids[type] = ctx.db.select().from(products).where(eq(products.productType, type)).all()[0]!.id;
  }
});

/** The width and height in a PNG's IHDR chunk, or null when the bytes are not a PNG. */
function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!signature.every((value, i) => bytes[i] === value)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

async function previewOf(path: string) {
  const response = await ctx.client().get(path);
  const doc = parseHtml(await response.text());
  const meta = (property: string) => doc.querySelector(`meta[property="${property}"]`)?.getAttribute('content') ?? null;
  return {
    status: response.status,
    doc,
    image: meta('og:image'),
    type: meta('og:image:type'),
    width: Number(meta('og:image:width')),
    height: Number(meta('og:image:height')),
    alt: meta('og:image:alt'),
    meta,
  };
}

/** Fetches the image the way a crawler does: by the absolute URL the page gave. */
async function fetchImage(url: string) {
  expect(url.startsWith(`${TEST_ORIGIN}/`)).toBe(true);
  let response = await ctx.client().get(url.slice(TEST_ORIGIN.length));
  for (let hops = 0; hops < 3 && response.status >= 300 && response.status < 400; hops++) {
    response = await ctx.client().get(response.headers.get('location')!);
  }
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe('every page names a raster preview image of the size it declares', () => {
  const pages = () => [
    '/',
    '/welcome',
    '/products',
    '/products?type=book',
    ...Object.values(ids).map((id) => `/product/${id}`),
    `/play/${ids.book}`,
    '/scoreboard',
    '/tutorial',
    '/rules',
    '/sunglass-gallery',
    '/business-portal',
    '/coach',
    '/auth',
    '/auth/forgot',
    '/terms',
    '/privacy',
    '/returns',
    '/shipping',
    '/contact',
    '/no/such/page',
  ];

  test('each og:image answers 200 with its declared type, width and height', async () => {
    const problems: string[] = [];
    for (const path of pages()) {
      const preview = await previewOf(path);
      if (!preview.image || !preview.type || !preview.alt) {
        problems.push(`${path}: og:image, og:image:type or og:image:alt missing`);
        continue;
      }
      const { response, bytes } = await fetchImage(preview.image);
      const size = pngSize(bytes);
      if (response.status !== 200) problems.push(`${path}: ${preview.image} answered ${response.status}`);
      else if (response.headers.get('content-type') !== preview.type) problems.push(`${path}: ${response.headers.get('content-type')} is not ${preview.type}`);
      else if (!size || size.width !== preview.width || size.height !== preview.height)
        problems.push(`${path}: the image is ${JSON.stringify(size)}, the page says ${preview.width}×${preview.height}`);
    }
    expect(problems).toEqual([]);
  });

  test('a product page shows its own 1200×630 card with its price, and twitter gets the same picture', async () => {
    const preview = await previewOf(`/product/${ids.sunglasses}`);
    expect(preview.image).toMatch(new RegExp(`^${TEST_ORIGIN}/share/product/${ids.sunglasses}-[a-z0-9]+\\.png$`));
    expect([preview.width, preview.height]).toEqual([1200, 630]);
    expect(preview.doc.querySelector('meta[name="twitter:image"]')?.getAttribute('content')).toBe(preview.image);
    expect(preview.doc.querySelector('meta[name="twitter:card"]')?.getAttribute('content')).toBe('summary_large_image');
    const product = ctx.db.select().from(products).where(eq(products.id, ids.sunglasses)).get()!;
    expect(preview.meta('product:price:amount')).toBe((product.priceCents / 100).toFixed(2));
    expect(preview.meta('product:price:currency')).toBe('USD');
    expect(preview.alt).toContain(`$${(product.priceCents / 100).toFixed(2)}`);
    const { response } = await fetchImage(preview.image!);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  test('a changed price gives a new card under a new URL, and the old URL moves on to it', async () => {
    const before = (await previewOf(`/product/${ids.tshirt}`)).image!;
    ctx.db.update(products).set({ priceCents: 4321 }).where(eq(products.id, ids.tshirt)).run();
    const after = await previewOf(`/product/${ids.tshirt}`);
    expect(after.image).not.toBe(before);
    expect(after.meta('product:price:amount')).toBe('43.21');
    const old = await ctx.client().get(before.slice(TEST_ORIGIN.length));
    expect(old.status).toBe(302);
    expect(`${TEST_ORIGIN}${old.headers.get('location')}`).toBe(after.image!);
    expect(old.headers.get('cache-control')).toBe('no-cache');
  });

  test('card URLs that name no product, or are not card names, are 404', async () => {
    for (const path of [
      '/share/product/999999-abc.png',
      '/share/product/abc.png',
      `/share/product/${ids.book}-x.svg`,
      `/share/product/${ids.book}-..%2F.png`,
    ]) {
      expect((await ctx.client().get(path)).status).toBe(404);
    }
  });

  test('a card is drawn from an uploaded photo; a WebP upload, which resvg cannot read, gets the type illustration', async () => {
    const cardBytes = async (id: number) => (await fetchImage((await previewOf(`/product/${id}`)).image!)).bytes;
    const illustrated = await cardBytes(ids.shoe);
    // A 2×2 red PNG: the card changes with it.
    const redPng = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8AARAwQCgQAAB/uA/1cz7YBAAAAAElFTkSuQmCC'), (char) =>
      char.charCodeAt(0),
    );
    const photo = await ctx.images.save(new File([redPng], 'red.png', { type: 'image/png' }));
    ctx.db.update(products).set({ imageUrl: photo }).where(eq(products.id, ids.shoe)).run();
    const fromPhoto = await cardBytes(ids.shoe);
    expect(pngSize(fromPhoto)).toEqual({ width: 1200, height: 630 });
    expect(Buffer.from(fromPhoto).equals(Buffer.from(illustrated))).toBe(false);

    const webp = Uint8Array.from(atob('UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA='), (char) => char.charCodeAt(0));
    const webpUrl = await ctx.images.save(new File([webp], 'one.webp', { type: 'image/webp' }));
    ctx.db.update(products).set({ imageUrl: webpUrl }).where(eq(products.id, ids.shoe)).run();
    expect(pngSize(await cardBytes(ids.shoe))).toEqual({ width: 1200, height: 630 });
  });

  test('a PNG apple-touch-icon of 180×180 is linked from every page and answers at the root too', async () => {
    const { doc } = await previewOf('/');
    expect(doc.querySelector('link[rel="apple-touch-icon"]')?.getAttribute('href')).toBe('/static/apple-touch-icon.png');
    const icon = await fetchImage(`${TEST_ORIGIN}/apple-touch-icon.png`);
    expect(icon.response.headers.get('content-type')).toBe('image/png');
    expect(pngSize(icon.bytes)).toEqual({ width: 180, height: 180 });
  });
});

describe('structured data', () => {
  const jsonLdOf = async (path: string) => JSON.parse((await previewOf(path)).doc.querySelector('script[type="application/ld+json"]')!.textContent!);

  test('a book is a Product and a Book, with its author as a Person and its offer', async () => {
    const data = await jsonLdOf(`/product/${ids.book}`);
    expect(data['@type']).toEqual(['Product', 'Book']);
    expect(data.author['@type']).toBe('Person');
    expect(data.author.name.length).toBeGreaterThan(2);
    expect(data.brand).toBeUndefined();
    expect(data.numberOfPages).toBeGreaterThan(0);
    expect(data.offers.priceCurrency).toBe('USD');
    expect(data.image[0]).toMatch(/\/share\/product\/\d+-[a-z0-9]+\.png$/);
  });

  test('sunglasses stay a Product with a Brand', async () => {
    const data = await jsonLdOf(`/product/${ids.sunglasses}`);
    expect(data['@type']).toBe('Product');
    expect(data.brand['@type']).toBe('Brand');
    expect(data.author).toBeUndefined();
  });
});
