import { expect } from 'bun:test';
import { readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { products, type Product } from '../../src/db/schema.ts';
import { adminWithPin } from './actors.ts';
import { testApp, type TestApp, type TestClient } from './app.ts';

/*
 * The catalogue as the product tests see it: its rows and uploaded files straight from the
 * store, tiny real images, and the admin product API (spec section 7) with its multipart body.
 */

// ---------------------------------------------------------------- rows and uploads

export const allProducts = (ctx: TestApp): Product[] => ctx.db.select().from(products).all();
export const productCount = (ctx: TestApp) => allProducts(ctx).length;
export const byModel = (ctx: TestApp, model: string) => ctx.db.select().from(products).where(eq(products.model, model)).get();
export const byId = (ctx: TestApp, id: number) => ctx.db.select().from(products).where(eq(products.id, id)).get();
/** A seeded product by its SKU; the seed always has it. */
export const seeded = (ctx: TestApp, model: string): Product => byModel(ctx, model)!;
/** The file names in the store's uploads folder. */
export const uploads = (ctx: TestApp) => readdirSync(ctx.uploadsDir);

// ---------------------------------------------------------------- images

/** Tiny but real images, recognised by their first bytes. */
export const IMAGES = {
  png: Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (ch) => ch.charCodeAt(0)),
  // SOI, APP0 (JFIF), SOF0 of 1 × 1 pixel with one component (the size an upload must declare), EOI.
  jpg: new Uint8Array([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00,
    0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00, 0xff, 0xd9,
  ]),
  gif: Uint8Array.from(atob('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'), (ch) => ch.charCodeAt(0)),
  webp: Uint8Array.from(atob('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='), (ch) => ch.charCodeAt(0)),
} as const;
export type ImageKind = keyof typeof IMAGES;

export const MIME: Record<ImageKind, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

export function imageFile(kind: ImageKind = 'png', name = `photo.${kind}`): File {
  return new File([IMAGES[kind]], name, { type: MIME[kind] });
}

/** The generated file name of an upload URL; fails unless it is one. */
export function uploadName(imageUrl: string): string {
  const match = /^\/uploads\/([0-9a-f]{32}\.(?:png|jpg|gif|webp))$/.exec(imageUrl);
  expect(match).not.toBeNull();
  return match![1]!;
}

// ---------------------------------------------------------------- the product API

/** Spec section 7's multipart body: `data` (JSON of the product fields), `image`, `keepExistingImage`. */
export function productForm(data: Record<string, unknown>, image?: File | null, keepExistingImage?: boolean): FormData {
  const form = new FormData();
  form.set('data', JSON.stringify(data));
  if (image) form.set('image', image);
  if (keepExistingImage) form.set('keepExistingImage', 'true');
  return form;
}

export const sunglassesInput = {
  productType: 'sunglasses',
  brand: 'Zenith Optics',
  sku: 'ZEN-001',
  size: '54-18-140',
  price: 149.5,
  quantity: 7,
  description: 'Polarised acetate frames.',
};

export const bookInput = {
  productType: 'book',
  name: 'Tide Tables',
  author: 'Marina Shore',
  pages: 312,
  summary: 'A year on the Laguna coast.',
  sku: 'BK-TIDE-001',
  price: 21.25,
  quantity: 4,
};

/** An empty store and its admin, signed in with the PIN passed. */
export async function adminApp() {
  const ctx = await testApp();
  const admin = await adminWithPin(ctx);
  return { ...ctx, admin };
}

/** POST /api/products as the admin; fails unless it answers 201. */
export async function createProduct(admin: TestClient, data: Record<string, unknown>, image: File | null = imageFile()) {
  const response = await admin.post('/api/products', { body: productForm(data, image) });
  expect(response.status).toBe(201);
  return (await response.json()) as Record<string, any>;
}

/** Asserts a refused write answered with status and message and left the catalogue and uploads untouched. */
export async function expectRefusedWithoutChange(ctx: TestApp, send: () => Promise<Response>, status: number, message: string) {
  const before = allProducts(ctx);
  const filesBefore = uploads(ctx);
  const response = await send();
  expect(response.status).toBe(status);
  const body = await response.json();
  expect(body.message).toBe(message);
  expect(allProducts(ctx)).toEqual(before);
  expect(uploads(ctx)).toEqual(filesBefore);
  return body;
}
