import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { adminWithoutPin, shopper } from '../helpers/actors.ts';
import { seededApp, type TestApp } from '../helpers/app.ts';
import { adminApp, byId, createProduct, expectRefusedWithoutChange, imageFile, productForm, sunglassesInput } from '../helpers/products.ts';

/*
 * Who may write through the product API (spec section 7): only an admin who passed the PIN;
 * anyone else is refused and nothing in the catalogue or the uploads changes.
 */

const refusedCallers = [
  { who: 'an anonymous visitor', status: 401, message: 'Please log in to continue.', make: async (ctx: TestApp) => ctx.client() },
  {
    who: 'a signed-in shopper',
    status: 403,
    message: 'Admin access required.',
    make: async (ctx: TestApp) => (await shopper(ctx, 'shopper1', { withProfile: false })).client,
  },
  { who: 'an admin without the PIN', status: 403, message: 'Enter the admin PIN first.', make: adminWithoutPin },
] as const;

describe('writes need an admin who passed the PIN', () => {
  describe.each(refusedCallers)('$who', ({ status, message, make }) => {
    async function setUp() {
      const ctx = await seededApp();
      const target = ctx.db.select().from(products).where(eq(products.model, 'RB2140-901')).get()!;
      return { ctx, target, caller: await make(ctx) };
    }

    test(`POST /api/products gets ${status} and creates nothing`, async () => {
      const { ctx, caller } = await setUp();
      await expectRefusedWithoutChange(ctx, () => caller.post('/api/products', { body: productForm(sunglassesInput, imageFile()) }), status, message);
    });

    test(`PUT /api/products/{id} gets ${status} and changes nothing`, async () => {
      const { ctx, caller, target } = await setUp();
      await expectRefusedWithoutChange(
        ctx,
        () => caller.request('PUT', `/api/products/${target.id}`, { body: productForm({ price: 1, brand: 'Hacked' }, imageFile()) }),
        status,
        message,
      );
      expect(byId(ctx, target.id)).toEqual(target);
    });

    test(`DELETE /api/products/{id} gets ${status} and deletes nothing`, async () => {
      const { ctx, caller, target } = await setUp();
      await expectRefusedWithoutChange(ctx, () => caller.request('DELETE', `/api/products/${target.id}`), status, message);
      expect(byId(ctx, target.id)).toEqual(target);
    });
  });

  describe('an admin with the PIN', () => {
    test('POST creates (201)', async () => {
      const { admin, db } = await adminApp();
      const response = await admin.post('/api/products', { body: productForm(sunglassesInput, imageFile()) });
      expect(response.status).toBe(201);
      const created = await response.json();
      // (Checked apart: Bun's toMatchObject writes an asymmetric matcher back into the received object.)
      expect(Number.isInteger(created.id)).toBe(true);
      expect(created).toMatchObject({
        productType: 'sunglasses',
        brand: 'Zenith Optics',
        model: 'ZEN-001',
        size: '54-18-140',
        price: 149.5,
        quantity: 7,
        description: 'Polarised acetate frames.',
        buyNowEnabled: true,
        playEnabled: false,
      });
      const row = db.select().from(products).where(eq(products.id, created.id)).get()!;
      expect(row.priceCents).toBe(14950);
      expect(row.imageUrl).toBe(created.imageUrl);
    });

    test('PUT updates (200)', async () => {
      const { admin, db } = await adminApp();
      const created = await createProduct(admin, sunglassesInput);
      const response = await admin.request('PUT', `/api/products/${created.id}`, {
        body: productForm({ brand: 'Zenith Optics II', price: 99, quantity: 0 }, null, true),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: created.id, brand: 'Zenith Optics II', price: 99, quantity: 0 });
      expect(db.select().from(products).where(eq(products.id, created.id)).get()!.priceCents).toBe(9900);
    });

    test('DELETE removes (200)', async () => {
      const { admin, db } = await adminApp();
      const created = await createProduct(admin, sunglassesInput);
      const response = await admin.request('DELETE', `/api/products/${created.id}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ message: 'Product deleted' });
      expect(db.select().from(products).all()).toHaveLength(0);
    });
  });
});
