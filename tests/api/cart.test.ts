import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { cartItems, products } from '../../src/db/schema.ts';
import { shopper } from '../helpers/actors.ts';
import { type testApp, type TestClient, seededApp } from '../helpers/app.ts';

// ---------------------------------------------------------------- helpers

type Ctx = Awaited<ReturnType<typeof testApp>>;

/** A seeded store and one signed-in shopper. */
async function store() {
  const ctx = await seededApp();
  const { client, id } = await shopper(ctx);
  return { ...ctx, shopper: client, userId: id };
}

/** A seeded product by brand and SKU (see src/db/seed-products.ts). */
function product(ctx: Ctx, brand: string, model: string) {
  const row = ctx.db
    .select()
    .from(products)
    .where(and(eq(products.brand, brand), eq(products.model, model)))
    .get();
  if (!row) throw new Error(`no seeded product ${brand} ${model}`);
  return row;
}

// Ray-Ban Aviator: $171.00, 12 in stock. Ray-Ban Wayfarer: $163.00, 4 in stock. Oakley Radar: sold out.
const aviator = (ctx: Ctx) => product(ctx, 'Ray-Ban', 'RB3025-L0205');
const wayfarer = (ctx: Ctx) => product(ctx, 'Ray-Ban', 'RB2140-901');
const radar = (ctx: Ctx) => product(ctx, 'Oakley', 'OO9208-46');

function cartRows(ctx: Ctx, userId?: number) {
  const rows = ctx.db.select().from(cartItems).all();
  return userId === undefined ? rows : rows.filter((row) => row.userId === userId);
}

const add = (client: TestClient, productId: unknown, quantity?: unknown) =>
  client.post('/api/cart', { json: quantity === undefined ? { productId } : { productId, quantity } });
const setQuantity = (client: TestClient, id: number | string, quantity: unknown) => client.request('PATCH', `/api/cart/${id}`, { json: { quantity } });

// ---------------------------------------------------------------- signed out

describe('the cart when signed out (a visitor has their own cart: tests/api/visitor-cart.test.ts)', () => {
  test('a visitor without a cart sees an empty one, and no line of anyone else', async () => {
    const ctx = await store();
    const line = await (await add(ctx.shopper, aviator(ctx).id, 2)).json();
    const stranger = ctx.client();
    expect(await (await stranger.request('GET', '/api/cart')).json()).toEqual([]);
    expect((await setQuantity(stranger, line.id, 1)).status).toBe(404);
    expect((await stranger.request('DELETE', `/api/cart/${line.id}`)).status).toBe(404);
    expect(cartRows(ctx)).toHaveLength(1);
    expect(cartRows(ctx)[0]!.quantity).toBe(2);
  });
});

// ---------------------------------------------------------------- POST

describe('POST /api/cart', () => {
  test('adds a line: 201 with the price in dollars and the product brand, model and image', async () => {
    const ctx = await store();
    const p = aviator(ctx);
    const response = await add(ctx.shopper, p.id, 1);
    expect(response.status).toBe(201);
    const line = await response.json();
    expect(line).toMatchObject({
      id: expect.any(Number),
      productId: p.id,
      quantity: 1,
      price: 171,
      type: 'regular',
      product: { id: p.id, brand: 'Ray-Ban', model: 'RB3025-L0205', imageUrl: '/static/images/products/rayban-aviator-classic.svg' },
    });
    const rows = cartRows(ctx, ctx.userId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: line.id, productId: p.id, quantity: 1, priceCents: 17100, type: 'regular' });
  });

  test('quantity defaults to 1', async () => {
    const ctx = await store();
    const response = await add(ctx.shopper, aviator(ctx).id);
    expect(response.status).toBe(201);
    expect((await response.json()).quantity).toBe(1);
  });

  test('adding the same product again increments the same line', async () => {
    const ctx = await store();
    const first = await (await add(ctx.shopper, aviator(ctx).id, 1)).json();
    const second = await add(ctx.shopper, aviator(ctx).id, 2);
    expect(second.status).toBe(201);
    const line = await second.json();
    expect(line.id).toBe(first.id);
    expect(line.quantity).toBe(3);
    expect(cartRows(ctx, ctx.userId)).toHaveLength(1);
    expect(cartRows(ctx, ctx.userId)[0]!.quantity).toBe(3);
  });

  test('a cents price comes back in dollars', async () => {
    const ctx = await store();
    const p = aviator(ctx);
    ctx.db.update(products).set({ priceCents: 1999 }).where(eq(products.id, p.id)).run();
    expect((await (await add(ctx.shopper, p.id, 1)).json()).price).toBe(19.99);
  });

  test.each([0, -1, 'abc', 1.5, ''])('quantity %p: 400 "Quantity must be at least 1", nothing added', async (quantity) => {
    const ctx = await store();
    const response = await add(ctx.shopper, aviator(ctx).id, quantity);
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe('Quantity must be at least 1');
    expect(body.fields.quantity).toBe('Quantity must be at least 1');
    expect(cartRows(ctx)).toHaveLength(0);
  });

  // Issue 11: a JSON body carries JSON numbers; '2', '0x10' and true are refused, nothing added.
  test.each(['2', '0x10', true, 2.5, 1e9])('quantity %p: 400, nothing added', async (quantity) => {
    const ctx = await store();
    const response = await add(ctx.shopper, aviator(ctx).id, quantity);
    expect(response.status).toBe(400);
    expect(Object.keys((await response.json()).fields)).toEqual(['quantity']);
    expect(cartRows(ctx)).toHaveLength(0);
  });

  test('more than the stock: 409 "Only N left in stock.", nothing added', async () => {
    const ctx = await store();
    const response = await add(ctx.shopper, wayfarer(ctx).id, 5);
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body.message).toBe('Only 4 left in stock.');
    expect(body.fields.quantity).toBe('Only 4 left in stock.');
    expect(cartRows(ctx)).toHaveLength(0);
  });

  test('exactly the stock is fine; one more on top of the cart is refused and the line is unchanged', async () => {
    const ctx = await store();
    const p = wayfarer(ctx);
    expect((await add(ctx.shopper, p.id, 3)).status).toBe(201);
    const response = await add(ctx.shopper, p.id, 2);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toStartWith('Only 4 left in stock');
    expect(cartRows(ctx, ctx.userId)[0]!.quantity).toBe(3);
    expect((await add(ctx.shopper, p.id, 1)).status).toBe(201);
    expect(cartRows(ctx, ctx.userId)[0]!.quantity).toBe(4);
  });

  test('an out-of-stock product: 409, nothing added', async () => {
    const ctx = await store();
    const response = await add(ctx.shopper, radar(ctx).id, 1);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe('This product is out of stock.');
    expect(cartRows(ctx)).toHaveLength(0);
  });

  test('unknown product: 404', async () => {
    const ctx = await store();
    const response = await add(ctx.shopper, 999_999, 1);
    expect(response.status).toBe(404);
    expect((await response.json()).message).toBe('Product not found');
    expect(cartRows(ctx)).toHaveLength(0);
  });

  test.each(['nope', undefined, true, '0x1', 0])('product id %p: 400, nothing added', async (productId) => {
    const ctx = await store();
    const response = await add(ctx.shopper, productId, 1);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Choose a product by its id.');
    expect(cartRows(ctx)).toHaveLength(0);
  });

  test('a body that is not a JSON object: 400', async () => {
    const ctx = await store();
    const response = await ctx.shopper.post('/api/cart', { json: [1, 2] });
    expect(response.status).toBe(400);
  });
});

// ---------------------------------------------------------------- PATCH and DELETE

describe('PATCH /api/cart/{id}', () => {
  test('changes the quantity, from 1 up to the stock', async () => {
    const ctx = await store();
    const line = await (await add(ctx.shopper, wayfarer(ctx).id, 1)).json();
    const response = await setQuantity(ctx.shopper, line.id, 4);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: line.id, quantity: 4, price: 163 });
    expect(cartRows(ctx, ctx.userId)[0]!.quantity).toBe(4);

    const down = await setQuantity(ctx.shopper, line.id, 1);
    expect(down.status).toBe(200);
    expect((await down.json()).quantity).toBe(1);
  });

  test.each([0, -3, 'abc', null])('quantity %p: 400 "Quantity must be at least 1", unchanged', async (quantity) => {
    const ctx = await store();
    const line = await (await add(ctx.shopper, wayfarer(ctx).id, 2)).json();
    const response = await setQuantity(ctx.shopper, line.id, quantity);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Quantity must be at least 1');
    expect(cartRows(ctx, ctx.userId)[0]!.quantity).toBe(2);
  });

  test('above the stock: 409 "Only N left in stock.", unchanged', async () => {
    const ctx = await store();
    const line = await (await add(ctx.shopper, wayfarer(ctx).id, 2)).json();
    const response = await setQuantity(ctx.shopper, line.id, 5);
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe('Only 4 left in stock.');
    expect(cartRows(ctx, ctx.userId)[0]!.quantity).toBe(2);
  });

  test('an unknown line: 404', async () => {
    const ctx = await store();
    expect((await setQuantity(ctx.shopper, 424242, 1)).status).toBe(404);
    expect((await setQuantity(ctx.shopper, 'abc', 1)).status).toBe(404);
  });
});

describe('DELETE /api/cart/{id}', () => {
  test('removes the line', async () => {
    const ctx = await store();
    const keep = await (await add(ctx.shopper, aviator(ctx).id, 1)).json();
    const drop = await (await add(ctx.shopper, wayfarer(ctx).id, 1)).json();
    const response = await ctx.shopper.request('DELETE', `/api/cart/${drop.id}`);
    expect(response.status).toBe(200);
    expect(cartRows(ctx, ctx.userId).map((row) => row.id)).toEqual([keep.id]);
    expect((await ctx.shopper.request('DELETE', `/api/cart/${drop.id}`)).status).toBe(404);
  });
});

// ---------------------------------------------------------------- ownership

describe('another user’s cart', () => {
  test('PATCH and DELETE of another user’s line answer 404 and change nothing', async () => {
    const ctx = await store();
    const theirs = await (await add(ctx.shopper, wayfarer(ctx).id, 2)).json();
    const { client: other } = await shopper(ctx, 'shopper2');

    const patched = await setQuantity(other, theirs.id, 3);
    expect(patched.status).toBe(404);
    expect((await patched.json()).message).toBe('Cart item not found');
    const deleted = await other.request('DELETE', `/api/cart/${theirs.id}`);
    expect(deleted.status).toBe(404);
    expect((await deleted.json()).message).toBe('Cart item not found');

    const rows = cartRows(ctx);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: theirs.id, userId: ctx.userId, quantity: 2 });
  });

  test('GET /api/cart lists only your own lines, oldest first', async () => {
    const ctx = await store();
    const { client: other, id: otherId } = await shopper(ctx, 'shopper2');
    const mine1 = await (await add(ctx.shopper, aviator(ctx).id, 1)).json();
    ctx.clock.advance(1000);
    await add(other, aviator(ctx).id, 3);
    ctx.clock.advance(1000);
    const mine2 = await (await add(ctx.shopper, wayfarer(ctx).id, 2)).json();

    const response = await ctx.shopper.get('/api/cart');
    expect(response.status).toBe(200);
    const lines = await response.json();
    expect(lines.map((line: { id: number }) => line.id)).toEqual([mine1.id, mine2.id]);
    expect(lines[0]).toMatchObject({ quantity: 1, price: 171, product: { brand: 'Ray-Ban', model: 'RB3025-L0205' } });
    expect(lines[1]).toMatchObject({ quantity: 2, price: 163, product: { brand: 'Ray-Ban', model: 'RB2140-901' } });

    const theirs = await (await other.get('/api/cart')).json();
    expect(theirs).toHaveLength(1);
    expect(theirs[0].quantity).toBe(3);
    expect(cartRows(ctx, otherId)).toHaveLength(1);
  });

  test('an empty cart is an empty list', async () => {
    const ctx = await store();
    expect(await (await ctx.shopper.get('/api/cart')).json()).toEqual([]);
  });
});
