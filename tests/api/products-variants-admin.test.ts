import { describe, expect, test } from 'bun:test';
import { eq, sql } from 'drizzle-orm';
import { productVariants, users } from '../../src/db/schema.ts';
import { reserve } from '../../src/domain/inventory/stock.ts';
import { variantStockOf } from '../../src/domain/inventory/stock-counts.ts';
import { variantsOf } from '../../src/domain/inventory/variants.ts';
import { adminApp, byId, createProduct, expectRefusedWithoutChange, imageFile, productForm } from '../helpers/products.ts';

/*
 * Issue 38, the admin's side: create and update take `variants` (a product's sizes, each with
 * its own SKU, stock and optional price); today's single size and quantity still mean one.
 */

const tee = {
  productType: 'tshirt',
  brand: 'Sizewise',
  sku: 'SW-TEE',
  price: 30,
  description: 'A tee in four sizes.',
  bidEnabled: true,
  variants: [
    { sku: 'SW-TEE-S', size: 'S', quantity: 2 },
    { sku: 'SW-TEE-M', size: 'M', quantity: 0 },
    { sku: 'SW-TEE-L', size: 'L', quantity: 5, price: 32.5 },
    { sku: 'SW-TEE-XL', size: 'XL', colour: 'Navy', quantity: 1 },
  ],
};

type Ctx = Awaited<ReturnType<typeof adminApp>>;
const sizesOf = (ctx: Ctx, productId: number) =>
  variantsOf(ctx.db, productId).map((v) => ({
    id: v.id,
    sku: v.sku,
    size: v.size,
    colour: v.colour,
    priceCents: v.priceCents,
    quantity: v.quantity,
    stocked: v.stocked,
  }));
const put = (ctx: Ctx, id: number, data: Record<string, unknown>) => ctx.admin.request('PUT', `/api/products/${id}`, { body: productForm(data) });
/** The sizes as an update sends them back: what the admin saw, each by id. */
const asSent = (ctx: Ctx, productId: number) =>
  variantsOf(ctx.db, productId).map((v) => ({ id: v.id, sku: v.sku, size: v.size, quantity: v.quantity, quantitySeen: v.quantity }));

async function withTee() {
  const ctx = await adminApp();
  const created = await createProduct(ctx.admin, tee);
  return { ctx, id: created.id as number, created };
}

describe('admin create and update with variants', () => {
  test('create: one variant per size, the product keeps the sizes joined and their sum', async () => {
    const { ctx, id, created } = await withTee();
    expect(created).toMatchObject({ size: 'S, M, L, XL', quantity: 8 });
    expect(sizesOf(ctx, id).map(({ id: _id, ...rest }) => rest)).toEqual([
      { sku: 'SW-TEE-S', size: 'S', colour: null, priceCents: null, quantity: 2, stocked: 2 },
      { sku: 'SW-TEE-M', size: 'M', colour: null, priceCents: null, quantity: 0, stocked: 0 },
      { sku: 'SW-TEE-L', size: 'L', colour: null, priceCents: 3250, quantity: 5, stocked: 5 },
      { sku: 'SW-TEE-XL', size: 'XL', colour: 'Navy', priceCents: null, quantity: 1, stocked: 1 },
    ]);
  });

  test("today's single size and quantity still make one variant, and renaming it renames the variant", async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, { productType: 'shoe', brand: 'Solo', sku: 'SOLO-1', size: '10', price: 90, quantity: 3 });
    expect(sizesOf(ctx, created.id)).toMatchObject([{ sku: 'SOLO-1', size: '10', quantity: 3, stocked: 3 }]);
    expect((await put(ctx, created.id, { size: '10.5', sku: 'SOLO-2', quantity: 4, quantitySeen: 3 })).status).toBe(200);
    expect(sizesOf(ctx, created.id)).toMatchObject([{ sku: 'SOLO-2', size: '10.5', quantity: 4, stocked: 4 }]);
    expect(byId(ctx, created.id)).toMatchObject({ size: '10.5', quantity: 4 });
  });

  test('update: rename, restock from the count seen, add a size; the product follows', async () => {
    const { ctx, id } = await withTee();
    const [s, m, l, xl] = asSent(ctx, id);
    const response = await put(ctx, id, {
      variants: [{ ...s, size: 'XS', sku: 'SW-TEE-XS' }, { ...m, quantity: 6 }, l, xl, { sku: 'SW-TEE-XXL', size: 'XXL', quantity: 3, price: '35' }],
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ size: 'XS, M, L, XL, XXL', quantity: 17 });
    expect(sizesOf(ctx, id).map((v) => [v.size, v.sku, v.quantity, v.stocked, v.priceCents])).toEqual([
      ['XS', 'SW-TEE-XS', 2, 2, null],
      ['M', 'SW-TEE-M', 6, 6, null],
      ['L', 'SW-TEE-L', 5, 5, 3250],
      ['XL', 'SW-TEE-XL', 1, 1, null],
      ['XXL', 'SW-TEE-XXL', 3, 3, 3500],
    ]);
  });

  test('a count that moved since the form opened: 409 under that size, nothing changed; held units stay held', async () => {
    const { ctx, id } = await withTee();
    const sent = asSent(ctx, id);
    const large = sent[2]!;
    expect(reserve(ctx.db, { productId: id, variantId: large.id, quantity: 1, reason: 'order_line', owner: 'order:999', now: 1 })).toBe(true);
    const body = await expectRefusedWithoutChange(
      ctx,
      () => put(ctx, id, { variants: sent.map((v) => (v.id === large.id ? { ...v, quantity: 9 } : { ...v, quantity: v.quantity + 1 })) }),
      409,
      'Stock changed since you opened this form: now 4',
    );
    expect(body.fields).toEqual({ 'variants.2.quantity': 'Stock changed since you opened this form: now 4' });
    expect(variantStockOf(ctx.db, large.id)).toEqual({ stocked: 5, available: 4, held: 1, sold: 0 });
  });

  test('removing a size: refused while a unit is held or anything open names it; allowed once free', async () => {
    const { ctx, id } = await withTee();
    const [s, m, l, xl] = asSent(ctx, id);
    expect(reserve(ctx.db, { productId: id, variantId: s!.id, quantity: 1, reason: 'order_line', owner: 'order:998', now: 1 })).toBe(true);
    const withoutSmall = { variants: [m, l, xl] };
    const held = await expectRefusedWithoutChange(ctx, () => put(ctx, id, withoutSmall), 409, 'Size S cannot be removed: units of it are held or sold.');
    expect(held.fields).toEqual({ variants: 'Size S cannot be removed: units of it are held or sold.' });

    const user = ctx.db.insert(users).values({ username: 'opener', passwordHash: 'x', createdAt: 1 }).returning().get().id;
    const open: [string, string][] = [
      [
        'a game is being played for it',
        `insert into games (product_id, variant_id, status, required_participants, created_at) values (${id}, ${m!.id}, 'waiting', 2, 1)`,
      ],
      [
        'a team buy is open for it',
        `insert into teams (code, product_id, variant_id, starter_id, status, price_cents, tax_cents, hold_cents, expires_at, created_at, updated_at) values ('teamopen01', ${id}, ${m!.id}, ${user}, 'open', 1500, 0, 1500, 9, 1, 1)`,
      ],
      [
        'its auction is not over',
        `insert into auctions (product_id, variant_id, starting_bid_cents, starts_at, ends_at, scheduled_end_at, status, created_at, updated_at) values (${id}, ${m!.id}, 100, 1, 9, 9, 'scheduled', 1, 1)`,
      ],
    ];
    for (const [what, insert] of open) {
      ctx.db.run(sql.raw(insert));
      await expectRefusedWithoutChange(ctx, () => put(ctx, id, { variants: [s, l, xl] }), 409, `Size M cannot be removed: ${what}.`);
      ctx.db.run(sql.raw(`delete from ${insert.split(' ')[2]}`));
    }

    const response = await put(ctx, id, { variants: [s, l, xl] });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ size: 'S, L, XL', quantity: 1 + 5 + 1 });
    expect(ctx.db.select().from(productVariants).where(eq(productVariants.id, m!.id)).get()).toBeUndefined();
  });

  test('field errors: per size row, sizes unique, at least one size, a size of another product refused', async () => {
    const { ctx, id } = await withTee();
    const sent = asSent(ctx, id);
    const refused = async (variants: unknown[], status = 400) => {
      const response = await put(ctx, id, { variants });
      expect(response.status).toBe(status);
      return (await response.json()).fields;
    };
    expect(
      await refused([sent[0], { ...sent[1], size: 's' }, { ...sent[2], quantity: -1, sku: '' }, { size: 'XXL', sku: 'N', quantity: 1, price: 0 }]),
    ).toEqual({
      'variants.1.size': 'Sizes must differ: s is listed twice.',
      'variants.2.quantity': 'Quantity cannot be negative',
      'variants.2.sku': 'SKU is required',
      'variants.3.price': 'Price must be greater than 0',
    });
    expect(await refused([])).toEqual({ variants: 'A product needs at least one size.' });
    const other = await createProduct(ctx.admin, { ...tee, sku: 'OTHER' }, imageFile());
    const stranger = asSent(ctx, other.id)[0]!;
    expect(await refused([...sent, { ...stranger, size: 'XXL' }])).toEqual({ 'variants.4.id': 'That size is not part of this product.' });
    expect(sizesOf(ctx, id).map((v) => v.size)).toEqual(['S', 'M', 'L', 'XL']);
  });

  test('a product with several sizes refuses a single quantity or size: each size is set in the list', async () => {
    const { ctx, id } = await withTee();
    expect(await (await put(ctx, id, { quantity: 3 })).json()).toMatchObject({ fields: { quantity: 'This product has sizes: set the stock of each size.' } });
    expect(await (await put(ctx, id, { size: 'M' })).json()).toMatchObject({ fields: { size: 'This product has sizes: rename each size in its Sizes list.' } });
    expect((await put(ctx, id, { price: 31 })).status).toBe(200);
    expect(byId(ctx, id)).toMatchObject({ size: 'S, M, L, XL', quantity: 8, priceCents: 3100 });
    // Many sizes joined are longer than one size may be; an update that does not touch them still saves.
    const many = ['7', '7.5', '8', '8.5', '9', '9.5', '10', '10.5', '11', '11.5', '12', '13'];
    const shoe = await createProduct(ctx.admin, {
      ...tee,
      productType: 'shoe',
      sku: 'MANY',
      variants: many.map((size) => ({ sku: `MANY-${size}`, size, quantity: 1 })),
    });
    expect(shoe.size).toBe(many.join(', '));
    expect((await put(ctx, shoe.id, { price: 99 })).status).toBe(200);
    expect(byId(ctx, shoe.id)).toMatchObject({ size: many.join(', '), quantity: 12, priceCents: 9900 });
  });
});
