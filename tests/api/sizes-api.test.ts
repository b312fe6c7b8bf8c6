import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { cartItems, orderItems, orders, products, productVariants, users } from '../../src/db/schema.ts';
import { buyNowBody, quickShopper, shopper } from '../helpers/actors.ts';
import { seededApp, type TestApp, type TestClient } from '../helpers/app.ts';
import { aviator, checkout, customer, wayfarer } from '../helpers/checkout.ts';
import { attributes, parseHtml, textOf } from '../helpers/html.ts';
import { propertyRuns } from '../helpers/property-runs.ts';
import { withSizes } from '../helpers/variants.ts';

/*
 * Issue 38 through the API: products carry their sizes (`variants`, with today's `size` and
 * `quantity` kept), the gallery filters by a size with a unit left, and the cart and buy now
 * take the size a shopper names, refusing a product with several sizes when none is named.
 */

const CHOOSE = 'Choose a size: S, M, L or XL.';

/** A tee in S (3), M (1), L (sold out) and XL (2, at $30 of its own); the product costs $25. */
function sizedTee(ctx: TestApp, model = 'TEE-SIZED') {
  const tee = ctx.db
    .insert(products)
    .values({ productType: 'tshirt', brand: 'Sized Co', name: 'Sized Tee', model, size: 'S', quantity: 0, priceCents: 2500, createdAt: ctx.clock.now() })
    .returning()
    .get();
  const sizes = withSizes(ctx.db, tee.id, [
    { size: 'S', quantity: 3 },
    { size: 'M', quantity: 1 },
    { size: 'L', quantity: 0 },
    { size: 'XL', quantity: 2, priceCents: 3000 },
  ]);
  return { id: tee.id, sizes };
}

const variantCount = (ctx: TestApp, variantId: number) => ctx.db.select().from(productVariants).where(eq(productVariants.id, variantId)).get()!.quantity;
const productCount = (ctx: TestApp, id: number) => ctx.db.select().from(products).where(eq(products.id, id)).get()!.quantity;

/** Everything a refused request must leave as it was. */
function snapshot(ctx: TestApp) {
  return {
    cart: ctx.db.select().from(cartItems).all(),
    orders: ctx.db.select().from(orders).all(),
    items: ctx.db.select().from(orderItems).all(),
    variants: ctx.db.select().from(productVariants).all(),
    products: ctx.db.select({ id: products.id, quantity: products.quantity }).from(products).all(),
    users: ctx.db.select({ id: users.id }).from(users).all(),
  };
}

type CartLine = { id: number; productId: number; variantId: number; size: string; quantity: number; price: number };
const cartOfClient = async (client: TestClient) => (await (await client.get('/api/cart')).json()) as CartLine[];

describe('GET /api/products with sizes', () => {
  test('a product with several sizes: its variants in the picker order, size the sizes joined, quantity their sum', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const response = await ctx.client().get(`/api/products/${tee.id}`);
    expect(response.status).toBe(200);
    const shown = await response.json();
    expect(shown).toMatchObject({ id: tee.id, size: 'S, M, L, XL', quantity: 6, price: 25 });
    expect(shown.variants).toEqual([
      { id: tee.sizes.S, sku: 'TEE-SIZED-S', size: 'S', colour: null, price: 25, quantity: 3 },
      { id: tee.sizes.M, sku: 'TEE-SIZED-M', size: 'M', colour: null, price: 25, quantity: 1 },
      { id: tee.sizes.L, sku: 'TEE-SIZED-L', size: 'L', colour: null, price: 25, quantity: 0 },
      { id: tee.sizes.XL, sku: 'TEE-SIZED-XL', size: 'XL', colour: null, price: 30, quantity: 2 },
    ]);
    const listed = ((await (await ctx.client().get('/api/products')).json()) as { id: number }[]).find((p) => p.id === tee.id);
    expect(listed).toEqual(shown);
  });

  test("a product with one variant keeps today's size and quantity, and lists that one variant", async () => {
    const ctx = await seededApp();
    const product = aviator(ctx);
    const shown = await (await ctx.client().get(`/api/products/${product.id}`)).json();
    expect(shown).toMatchObject({ size: product.size, quantity: product.quantity, price: product.priceCents / 100 });
    expect(shown.variants).toEqual([
      { id: expect.any(Number), sku: product.model, size: product.size, colour: null, price: product.priceCents / 100, quantity: product.quantity },
    ]);
  });

  test('the list reads every product’s sizes in one statement: more sized products, no more statements', async () => {
    const ctx = await seededApp();
    // Signed in, the JSON is computed each time (a visitor's is cached).
    const { client } = quickShopper(ctx, 'counter');
    const statements = async () => {
      const text = await (await ctx.client().get('/metrics')).text();
      return Number(/^csa_db_statements_total\{route="\/api\/products"\} (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const cost = async () => {
      const before = await statements();
      expect((await client.get('/api/products')).status).toBe(200);
      return (await statements()) - before;
    };
    sizedTee(ctx, 'TEE-A');
    const few = await cost();
    expect(few).toBeGreaterThan(0);
    for (let n = 0; n < 6; n++) sizedTee(ctx, `TEE-MORE-${n}`);
    expect(await cost()).toBe(few);
  });
});

describe('the gallery by size', () => {
  test('GET /api/products?size=M: products with a unit left in M, whatever the case; L is sold out so the tee is not listed', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const ids = async (query: string) => ((await (await ctx.client().get(`/api/products${query}`)).json()) as { id: number }[]).map((p) => p.id);
    expect(await ids('?size=M')).toContain(tee.id);
    expect(await ids('?size=m')).toContain(tee.id);
    expect(await ids('?size=m&type=tshirt')).toContain(tee.id);
    expect(await ids('?size=M&type=shoe')).not.toContain(tee.id);
    expect(await ids('?size=L')).not.toContain(tee.id);
    expect(await ids('?size=M&q=Sized')).toEqual([tee.id]);
    // Every product listed has a unit left in that size.
    for (const product of (await (await ctx.client().get('/api/products?size=M')).json()) as { variants: { size: string; quantity: number }[] }[]) {
      expect(product.variants.some((v) => v.size.toLowerCase() === 'm' && v.quantity > 0)).toBe(true);
    }
  });

  test('a visitor’s GET /api/products?size=M is kept apart from L’s, and a sale of the last M drops it', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const ids = async (query: string) => ((await (await ctx.client().get(`/api/products${query}`)).json()) as { id: number }[]).map((p) => p.id);
    expect(await ids('?size=M')).toContain(tee.id);
    const hits = ctx.pageCache.hits;
    expect(await ids('?size=M')).toContain(tee.id);
    expect(ctx.pageCache.hits).toBe(hits + 1);
    expect(await ids('?size=L')).not.toContain(tee.id);
    const { client } = quickShopper(ctx, 'last-m');
    expect((await client.post('/api/orders', { json: { ...buyNowBody(tee.id, 2500), variantId: tee.sizes.M } })).status).toBe(201);
    expect(await ids('?size=M')).not.toContain(tee.id);
  });

  test('a size that is not one is a 400 naming the field; nothing is listed', async () => {
    const ctx = await seededApp();
    for (const bad of ['x'.repeat(21), '', '<b>', '%25']) {
      const response = await ctx.client().get(`/api/products?size=${encodeURIComponent(bad)}`);
      expect(response.status, bad).toBe(400);
      const body = await response.json();
      expect(body.fields.size).toBe('Use a size of at most 20 letters or digits, such as M or 10.5.');
      expect(body.message).toContain('size');
    }
  });

  test('/products?size=M shows only that size’s products, says so with a link to every size, and is cached apart from L', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const page = async (query: string) => parseHtml(await (await ctx.client().get(`/products${query}`, { headers: { accept: 'text/html' } })).text());
    const cards = (doc: ReturnType<typeof parseHtml>) => attributes(doc, 'a[href^="/product/"]', 'href');
    const m = await page('?size=M&type=tshirt');
    const chip = m.querySelector('[data-size-filter]')!;
    expect(textOf(chip)).toBe('Size M Show all sizes');
    expect(chip.querySelector('a')!.getAttribute('href')).toBe('/products?type=tshirt');
    expect(cards(m)).toContain(`/product/${tee.id}`);
    // The type pills keep the size.
    expect(attributes(m, 'nav[aria-label="Product type"] a', 'href')).toContain('/products?type=shoe&size=M');
    // L, asked for after M (and after M is kept), is its own page.
    const hitsBefore = ctx.pageCache.hits;
    expect(cards(await page('?size=M&type=tshirt'))).toContain(`/product/${tee.id}`);
    expect(ctx.pageCache.hits).toBe(hitsBefore + 1);
    const l = await page('?size=L&type=tshirt');
    expect(cards(l)).not.toContain(`/product/${tee.id}`);
    expect(textOf(l.querySelector('[data-size-filter]')!)).toContain('Size L');
    // The page reads the query leniently: a size that is not one shows every size.
    const bad = await page(`?size=${'x'.repeat(30)}&type=tshirt`);
    expect(bad.querySelector('[data-size-filter]')).toBeNull();
    expect(cards(bad)).toContain(`/product/${tee.id}`);
  });
});

describe('the cart by size', () => {
  test('POST /api/cart with a variantId puts that size in the cart; two sizes are two lines; GET /api/cart names them', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const { client } = quickShopper(ctx, 'sizer');
    const m = await client.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.M } });
    expect(m.status).toBe(201);
    expect(await m.json()).toMatchObject({ productId: tee.id, variantId: tee.sizes.M, size: 'M', quantity: 1, price: 25 });
    expect((await client.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.XL, quantity: 2 } })).status).toBe(201);
    const lines = await cartOfClient(client);
    expect(lines.map(({ variantId, size, quantity, price }) => ({ variantId, size, quantity, price }))).toEqual([
      { variantId: tee.sizes.M, size: 'M', quantity: 1, price: 25 },
      { variantId: tee.sizes.XL, size: 'XL', quantity: 2, price: 30 },
    ]);
  });

  test('without a size, a product with several is a 400 naming them; a size of another product is a 400; nothing is written', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const { client } = quickShopper(ctx, 'unsized');
    const before = snapshot(ctx);
    const none = await client.post('/api/cart', { json: { productId: tee.id } });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ message: CHOOSE, fields: { variantId: CHOOSE } });
    const other = await client.post('/api/cart', { json: { productId: wayfarer(ctx).id, variantId: tee.sizes.M } });
    expect(other.status).toBe(400);
    expect((await other.json()).fields.variantId).toBe('That size is not sold here.');
    const otherOfSized = await client.post('/api/cart', { json: { productId: tee.id, variantId: 999_999 } });
    expect(otherOfSized.status).toBe(400);
    expect(snapshot(ctx)).toEqual(before);
  });

  test('a size refused for stock names that size and its count, not the product’s', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const { client } = quickShopper(ctx, 'stocky');
    const tooMany = await client.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.M, quantity: 2 } });
    expect(tooMany.status).toBe(409);
    expect((await tooMany.json()).message).toBe('Only 1 left in size M.');
    const soldOut = await client.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.L } });
    expect(soldOut.status).toBe(409);
    expect((await soldOut.json()).message).toBe('Size L is out of stock.');
    expect((await client.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.M } })).status).toBe(201);
    const again = await client.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.M } });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe('Only 1 left in size M, and 1 already in your cart.');
    // Changing the line's quantity counts M's stock too, not the tee's 6.
    const [line] = await cartOfClient(client);
    const more = await client.patch(`/api/cart/${line!.id}`, { json: { quantity: 3 } });
    expect(more.status).toBe(409);
    expect((await more.json()).message).toBe('Only 1 left in size M.');
    expect((await cartOfClient(client))[0]!.quantity).toBe(1);
  });

  test('a visitor’s sized lines keep their sizes when the cart joins the account on sign-in', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const account = await shopper(ctx, 'joiner');
    expect((await account.client.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.S, quantity: 2 } })).status).toBe(201);
    const visitor = ctx.client();
    // A refused add makes no guest account.
    expect((await visitor.post('/api/cart', { json: { productId: tee.id } })).status).toBe(400);
    expect(visitor.cookies.has('csa_cart')).toBe(false);
    expect((await visitor.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.S, quantity: 2 } })).status).toBe(201);
    expect((await visitor.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.M } })).status).toBe(201);
    expect((await visitor.post('/api/login', { json: { username: 'joiner', password: 'secret-pass' } })).status).toBe(200);
    const lines = await cartOfClient(visitor);
    // S: 2 + 2 is more than the 3 in stock, so 3; M stays M.
    expect(lines.map(({ variantId, size, quantity }) => ({ variantId, size, quantity }))).toEqual([
      { variantId: tee.sizes.S, size: 'S', quantity: 3 },
      { variantId: tee.sizes.M, size: 'M', quantity: 1 },
    ]);
  });

  test('a guest checks out a sized line: the order names the size at its price, and that size’s stock is taken', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const visitor = ctx.client();
    expect((await visitor.post('/api/cart', { json: { productId: tee.id, variantId: tee.sizes.XL } })).status).toBe(201);
    const lines = await cartOfClient(visitor);
    const body = {
      paymentMethod: 'cod',
      items: lines.map(({ id, productId, quantity, price }) => ({ id, productId, quantity, price, type: 'regular' })),
      shipping: { method: 'local' },
      customer: { ...customer, email: 'sized@example.com' },
    };
    // Without a summary the answer carries the totals to show before paying.
    const quote = await checkout(visitor, body);
    expect(quote.status).toBe(409);
    const { summary } = (await quote.json()) as { summary: unknown };
    const paid = await checkout(visitor, { ...body, summary });
    expect(paid.status).toBe(201);
    const { orderId } = (await paid.json()) as { orderId: number };
    expect(ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).all()).toMatchObject([
      { productId: tee.id, variantId: tee.sizes.XL, sizeLabel: 'XL', priceCents: 3000, quantity: 1 },
    ]);
    expect(variantCount(ctx, tee.sizes.XL)).toBe(1);
    expect(productCount(ctx, tee.id)).toBe(5);
  });
});

describe('buy now by size', () => {
  test('POST /api/orders with a variantId buys that size at its price; the order line names it', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const { client } = quickShopper(ctx, 'buyer');
    const response = await client.post('/api/orders', { json: { ...buyNowBody(tee.id, 3000), variantId: tee.sizes.XL } });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    expect(ctx.db.select().from(orderItems).where(eq(orderItems.orderId, id)).all()).toMatchObject([
      { variantId: tee.sizes.XL, sizeLabel: 'XL', priceCents: 3000, quantity: 1 },
    ]);
    expect(variantCount(ctx, tee.sizes.XL)).toBe(1);
    expect(variantCount(ctx, tee.sizes.S)).toBe(3);
    expect(productCount(ctx, tee.id)).toBe(5);
  });

  test('without a size: 400 naming the sizes; another product’s size: 400; a sold-out size: 409 naming it; nothing written', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const { client } = quickShopper(ctx, 'refused');
    const before = snapshot(ctx);
    const none = await client.post('/api/orders', { json: buyNowBody(tee.id, 2500) });
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ message: CHOOSE, fields: { variantId: CHOOSE } });
    const other = await client.post('/api/orders', { json: { ...buyNowBody(aviator(ctx).id, aviator(ctx).priceCents), variantId: tee.sizes.S } });
    expect(other.status).toBe(400);
    const soldOut = await client.post('/api/orders', { json: { ...buyNowBody(tee.id, 2500), variantId: tee.sizes.L } });
    expect(soldOut.status).toBe(409);
    expect((await soldOut.json()).message).toBe('Sized Co Sized Tee in size L is sold out.');
    expect(snapshot(ctx)).toEqual(before);
  });

  test('property: a request naming no size of a product with several, or a size of another product, changes nothing', async () => {
    const ctx = await seededApp();
    const tee = sizedTee(ctx);
    const shirt = sizedTee(ctx, 'TEE-OTHER');
    const { client } = quickShopper(ctx, 'prop');
    const otherSizes = [...Object.values(shirt.sizes), 999_999];
    const before = snapshot(ctx);
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          via: fc.constantFrom('cart', 'buy', 'guest-cart', 'guest-buy'),
          variantId: fc.option(fc.constantFrom(...otherSizes), { nil: undefined }),
          quantity: fc.integer({ min: 1, max: 3 }),
        }),
        async ({ via, variantId, quantity }) => {
          const who = via.startsWith('guest') ? ctx.client() : client;
          const response = via.endsWith('cart')
            ? await who.post('/api/cart', { json: { productId: tee.id, variantId, quantity } })
            : await who.post('/api/orders', { json: { ...buyNowBody(tee.id, 2500), variantId } });
          expect(response.status).toBe(400);
          expect((await response.json()).fields.variantId).toBe(CHOOSE);
          expect(snapshot(ctx)).toEqual(before);
        },
      ),
      { numRuns: propertyRuns(25) },
    );
  });
});
