import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { cartItems, notifications, orderItems, orders, payments, products, userProfiles } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { testTokenForCard } from '../../src/shared/test-cards.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { placeOrder } from '../../src/domain/orders.ts';
import { COMPLETE_PROFILE, quickShopper, shopper } from '../helpers/actors.ts';
import { testApp, type TestClient } from '../helpers/app.ts';

// ---------------------------------------------------------------- helpers

type Ctx = Awaited<ReturnType<typeof testApp>>;

/**
 * A signed-in shopper made straight in the database (no password hashing), for tests that
 * need many of them. The session is a real one, sent in the real cookie.
 */

/** A seeded store and one signed-in shopper. */
async function store() {
  const ctx = await testApp();
  seedIfEmpty(ctx.db, ctx.clock);
  const { client, id } = await shopper(ctx);
  return { ...ctx, shopper: client, userId: id };
}

function product(ctx: Ctx, brand: string, model: string) {
  const row = ctx.db
    .select()
    .from(products)
    .where(and(eq(products.brand, brand), eq(products.model, model)))
    .get();
  if (!row) throw new Error(`no seeded product ${brand} ${model}`);
  return row;
}

// Seeded (src/db/seed-products.ts): Aviator $171.00 x12, Wayfarer $163.00 x4, Oakley Radar sold out.
const aviator = (ctx: Ctx) => product(ctx, 'Ray-Ban', 'RB3025-L0205');
const wayfarer = (ctx: Ctx) => product(ctx, 'Ray-Ban', 'RB2140-901');
const radar = (ctx: Ctx) => product(ctx, 'Oakley', 'OO9208-46');

const stockOf = (ctx: Ctx, id: number) => ctx.db.select().from(products).where(eq(products.id, id)).get()!.quantity;
const allOrders = (ctx: Ctx) => ctx.db.select().from(orders).all();
const cartOf = (ctx: Ctx, userId: number) => ctx.db.select().from(cartItems).where(eq(cartItems.userId, userId)).all();
const notificationsOf = (ctx: Ctx, userId: number) => ctx.db.select().from(notifications).where(eq(notifications.userId, userId)).all();

const customer = {
  fullName: 'Lena Ocean',
  email: 'lena@example.com',
  phone: '949-555-0123',
  address: '123 Coast Hwy',
  city: 'Laguna Beach',
  state: 'CA',
  zipCode: '92651',
};

const profileDetails = {
  name: 'Pat Profile',
  email: 'pat@example.com',
  phone: '949-555-0456',
  address: { line1: '789 Glenneyre St', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
};

async function addToCart(client: TestClient, productId: number, quantity = 1) {
  const response = await client.post('/api/cart', { json: { productId, quantity } });
  expect(response.status).toBe(201);
  return response.json() as Promise<{ id: number; productId: number; quantity: number; price: number; type: string }>;
}

type Summary = { subtotal: number; shipping: number; tax: number; total: number };

/** The body the cart page sends (spec section 7), from the cart as GET /api/cart shows it. */
async function checkoutBody(client: TestClient, summary: Summary, overrides: Record<string, unknown> = {}, method: 'standard' | 'express' = 'standard') {
  const cart = (await (await client.get('/api/cart')).json()) as { id: number; productId: number; quantity: number; price: number; type: string }[];
  return {
    paymentMethod: 'cod',
    items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
    shipping: { method, cost: summary.shipping },
    summary,
    customer,
    ...overrides,
  };
}

/** Aviator x1 + Wayfarer x2 = 171 + 326 = 497.00; 8% tax 39.76; standard 5.99. */
const STANDARD: Summary = { subtotal: 497, shipping: 5.99, tax: 39.76, total: 542.75 };
const EXPRESS: Summary = { subtotal: 497, shipping: 12.99, tax: 39.76, total: 549.75 };

async function fillCart(ctx: Awaited<ReturnType<typeof store>>, client = ctx.shopper) {
  const a = await addToCart(client, aviator(ctx).id, 1);
  const w = await addToCart(client, wayfarer(ctx).id, 2);
  return [a, w];
}

const checkout = (client: TestClient, json: unknown) => client.post('/api/checkout', { json });

function visaToken(): string {
  const made = testTokenForCard('4111111111111111', 12, 2030, '123');
  if ('error' in made) throw new Error(made.error);
  return made.token;
}

// ---------------------------------------------------------------- POST /api/checkout: success

describe('POST /api/checkout: totals and a successful order', () => {
  test('signed out: 401', async () => {
    const ctx = await testApp();
    const response = await checkout(ctx.client(), { paymentMethod: 'cod' });
    expect(response.status).toBe(401);
  });

  test('cash on delivery with the right summary: 201 {orderId}, processing, stock taken, cart emptied, nothing charged', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD));
    expect(response.status).toBe(201);
    const { orderId } = await response.json();
    expect(orderId).toEqual(expect.any(Number));

    const [order] = allOrders(ctx);
    expect(order).toMatchObject({
      id: orderId,
      userId: ctx.userId,
      status: 'processing',
      subtotalCents: 49700,
      taxCents: 3976,
      shippingCents: 599,
      totalCents: 54275,
      paymentMethod: 'cod',
      shippingMethod: 'standard',
      customerName: 'Lena Ocean',
      shippingAddress: '123 Coast Hwy',
      shippingCity: 'Laguna Beach',
      shippingState: 'CA',
      shippingZipCode: '92651',
    });
    const items = ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).all();
    expect(items.map((i) => [i.productId, i.quantity, i.priceCents])).toEqual([
      [aviator(ctx).id, 1, 17100],
      [wayfarer(ctx).id, 2, 16300],
    ]);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(11);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(2);
    expect(cartOf(ctx, ctx.userId)).toHaveLength(0);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('express shipping costs 12.99', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, EXPRESS, {}, 'express'));
    expect(response.status).toBe(201);
    expect(allOrders(ctx)[0]).toMatchObject({ shippingCents: 1299, totalCents: 54975, shippingMethod: 'express' });
  });

  test('tax is 8% of the subtotal rounded to the cent', async () => {
    const ctx = await store();
    const p = aviator(ctx);
    ctx.db.update(products).set({ priceCents: 1099 }).where(eq(products.id, p.id)).run();
    await addToCart(ctx.shopper, p.id, 3);
    // 3 x 10.99 = 32.97; 8% = 2.6376 -> 2.64; + 5.99 = 41.60
    const rounded: Summary = { subtotal: 32.97, shipping: 5.99, tax: 2.64, total: 41.6 };
    const wrongRounding = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, { ...rounded, tax: 2.63, total: 41.59 }));
    expect(wrongRounding.status).toBe(409);
    expect((await wrongRounding.json()).summary).toEqual(rounded);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, rounded));
    expect(response.status).toBe(201);
    expect(allOrders(ctx).find((o) => o.status === 'processing')).toMatchObject({ subtotalCents: 3297, taxCents: 264, totalCents: 4160 });
  });

  test('by card: processing, paymentId set, charged exactly the total once, payment_success written', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { paymentMethod: 'square', paymentToken: 'cnon:card-nonce-ok' }));
    expect(response.status).toBe(201);
    const { orderId } = await response.json();

    const charged = ctx.gateway.payments();
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ amountCents: 54275, status: 'COMPLETED' });
    const order = allOrders(ctx)[0]!;
    expect(order).toMatchObject({ id: orderId, status: 'processing', paymentMethod: 'square', paymentId: charged[0]!.id });
    const paymentRows = ctx.db.select().from(payments).all();
    expect(paymentRows).toHaveLength(1);
    expect(paymentRows[0]).toMatchObject({ orderId, status: 'captured', amountCents: 54275, gatewayPaymentId: charged[0]!.id });

    expect(stockOf(ctx, aviator(ctx).id)).toBe(11);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(2);
    expect(cartOf(ctx, ctx.userId)).toHaveLength(0);
    const notes = notificationsOf(ctx, ctx.userId);
    expect(notes.filter((n) => n.type === 'payment_success')).toHaveLength(1);
    expect(notes.filter((n) => n.type === 'payment_failed')).toHaveLength(0);
  });

  test('by card on file when no token is sent', async () => {
    const ctx = await store();
    expect((await ctx.shopper.request('PATCH', '/api/user/profile', { json: { paymentMethod: { sourceId: visaToken() } } })).status).toBe(200);
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { paymentMethod: 'square' }));
    expect(response.status).toBe(201);
    expect(ctx.gateway.payments().map((p) => p.amountCents)).toEqual([54275]);
  });

  test('by card without a token or a saved card (an incomplete profile): 403, nothing ordered', async () => {
    const ctx = await store();
    await fillCart(ctx);
    ctx.db.update(userProfiles).set({ gatewayCardId: null }).where(eq(userProfiles.userId, ctx.userId)).run();
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { paymentMethod: 'square' }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'PROFILE_INCOMPLETE', missing: ['payment card'] });
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
  });
});

// ---------------------------------------------------------------- POST /api/checkout: refusals

describe('POST /api/checkout: a summary or cart that changed', () => {
  test.each([
    ['total lowered by a cent', { ...STANDARD, total: 542.74 }],
    ['tax left out', { ...STANDARD, tax: 0, total: 502.99 }],
    ['shipping made free', { ...STANDARD, shipping: 0, total: 536.76 }],
    ['subtotal lowered', { ...STANDARD, subtotal: 1, total: 46.75 }],
  ])('%s: 409 with the new summary; nothing ordered, stock and cart unchanged', async (_label, summary) => {
    const ctx = await store();
    await fillCart(ctx);
    const response = await checkout(
      ctx.shopper,
      await checkoutBody(ctx.shopper, summary as Summary, { paymentMethod: 'square', paymentToken: 'cnon:card-nonce-ok' }),
    );
    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body.summary).toEqual(STANDARD);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(4);
    expect(cartOf(ctx, ctx.userId)).toHaveLength(2);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  // Issue 11: a JSON body carries JSON numbers; text where a number belongs is a 400 that changes nothing.
  test('a summary written as text: 400, nothing ordered or charged', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const summary = { subtotal: '497', shipping: '5.99', tax: '39.76', total: '542.75' } as unknown as Summary;
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, summary, { paymentMethod: 'square', paymentToken: 'cnon:card-nonce-ok' }));
    expect(response.status).toBe(400);
    expect(Object.keys((await response.json()).fields)).toEqual(['shipping.cost', 'summary.subtotal', 'summary.shipping', 'summary.tax', 'summary.total']);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(cartOf(ctx, ctx.userId)).toHaveLength(2);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('a missing summary: 409 with the summary', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const body = await checkoutBody(ctx.shopper, STANDARD);
    const response = await checkout(ctx.shopper, { ...body, summary: undefined });
    expect(response.status).toBe(409);
    expect((await response.json()).summary).toEqual(STANDARD);
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test('a price change after the page loaded: 409 with the new totals', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const body = await checkoutBody(ctx.shopper, STANDARD);
    ctx.db
      .update(products)
      .set({ priceCents: 18100 })
      .where(eq(products.id, aviator(ctx).id))
      .run();
    const response = await checkout(ctx.shopper, body);
    expect(response.status).toBe(409);
    // 181 + 326 = 507; tax 40.56; total 553.55
    expect((await response.json()).summary).toEqual({ subtotal: 507, shipping: 5.99, tax: 40.56, total: 553.55 });
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test.each([
    ['a quantity that differs', (items: { quantity: number }[]) => items.map((item, i) => (i === 1 ? { ...item, quantity: 1 } : item))],
    ['a line missing', (items: unknown[]) => items.slice(0, 1)],
    ['an extra line', (items: unknown[]) => [...items, { id: 999999, productId: 1, quantity: 1, price: 1, type: 'regular' }]],
    ['someone else’s line ids', (items: { id: number }[]) => items.map((item) => ({ ...item, id: item.id + 1000 }))],
  ])('items not matching the cart (%s): 409, nothing ordered', async (_label, change) => {
    const ctx = await store();
    await fillCart(ctx);
    const body = await checkoutBody(ctx.shopper, STANDARD);
    const response = await checkout(ctx.shopper, { ...body, items: change(body.items as never) });
    expect(response.status).toBe(409);
    expect((await response.json()).summary).toEqual(STANDARD);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(4);
    expect(cartOf(ctx, ctx.userId)).toHaveLength(2);
  });

  test('a line above the stock left (stock fell after it was added): 409, nothing ordered', async () => {
    const ctx = await store();
    await fillCart(ctx);
    ctx.db
      .update(products)
      .set({ quantity: 1 })
      .where(eq(products.id, wayfarer(ctx).id))
      .run();
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD));
    expect(response.status).toBe(409);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(1);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
  });
});

describe('POST /api/checkout: a declined card', () => {
  test('402; a failed order, stock restored, cart kept, nothing charged, a "Payment Failed" notification', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const response = await checkout(
      ctx.shopper,
      await checkoutBody(ctx.shopper, STANDARD, { paymentMethod: 'square', paymentToken: 'cnon:card-nonce-declined' }),
    );
    expect(response.status).toBe(402);
    const body = await response.json();
    expect(body.message).toBe('Your card was declined. Please check your card details or use another card.');

    const all = allOrders(ctx);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ id: body.orderId, status: 'failed', paymentId: null, totalCents: 54275 });
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(4);
    expect(cartOf(ctx, ctx.userId).map((line) => line.quantity)).toEqual([1, 2]);
    expect(ctx.gateway.payments()).toHaveLength(0);
    expect(ctx.db.select().from(payments).all()).toMatchObject([{ status: 'failed', errorCode: 'GENERIC_DECLINE' }]);

    const failed = notificationsOf(ctx, ctx.userId).filter((n) => n.type === 'payment_failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.title).toBe('Payment Failed');
    expect(failed[0]!.read).toBe(false);
    expect(notificationsOf(ctx, ctx.userId).filter((n) => n.type === 'payment_success')).toHaveLength(0);
  });

  test('the same cart can then be paid with a good card', async () => {
    const ctx = await store();
    await fillCart(ctx);
    expect(
      (await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { paymentMethod: 'square', paymentToken: 'cnon:card-nonce-declined' }))).status,
    ).toBe(402);
    const retry = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { paymentMethod: 'square', paymentToken: 'cnon:card-nonce-ok' }));
    expect(retry.status).toBe(201);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(2);
    expect(ctx.gateway.payments().map((p) => p.amountCents)).toEqual([54275]);
    expect(cartOf(ctx, ctx.userId)).toHaveLength(0);
  });
});

describe('POST /api/checkout: input checks', () => {
  test('an empty cart: 400 "Your cart is empty."', async () => {
    const ctx = await store();
    const response = await checkout(ctx.shopper, {
      paymentMethod: 'cod',
      items: [],
      shipping: { method: 'standard', cost: 5.99 },
      summary: { subtotal: 0, shipping: 5.99, tax: 0, total: 5.99 },
      customer,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Your cart is empty.');
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test.each([['bitcoin'], [''], [undefined], ['apple_pay']])('paymentMethod %p: 400, nothing ordered', async (paymentMethod) => {
    const ctx = await store();
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { paymentMethod }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields.paymentMethod).toBeTruthy();
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
  });

  test('an unknown shipping method: 400 "Please choose a shipping method"', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const body = await checkoutBody(ctx.shopper, STANDARD);
    const response = await checkout(ctx.shopper, { ...body, shipping: { method: 'drone', cost: 0 } });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Please choose a shipping method');
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test.each([
    ['fullName', 'L', 'Full name must be at least 2 characters'],
    ['email', 'not-an-email', 'Please enter a valid email'],
    ['phone', '555-0123', 'Please enter a valid phone number'],
    ['address', '1 A', 'Address is required'],
    ['city', 'L', 'City is required'],
    ['state', 'C', 'State is required'],
    ['zipCode', '9265', 'ZIP code is required'],
  ])('checkout form %s %p: 400 with its message, nothing ordered', async (field, value, message) => {
    const ctx = await store();
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { customer: { ...customer, [field]: value } }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.fields).toEqual({ [field]: message });
    expect(body.message).toBe(message);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
    expect(cartOf(ctx, ctx.userId)).toHaveLength(2);
  });

  test('without customer the profile address is used', async () => {
    const ctx = await store();
    expect((await ctx.shopper.request('PATCH', '/api/user/profile', { json: profileDetails })).status).toBe(200);
    await fillCart(ctx);
    const { customer: _omit, ...body } = await checkoutBody(ctx.shopper, STANDARD);
    const response = await checkout(ctx.shopper, body);
    expect(response.status).toBe(201);
    expect(allOrders(ctx)[0]).toMatchObject({
      status: 'processing',
      customerName: 'Pat Profile',
      // The profile already had an address: the new one waits for its confirmation link.
      customerEmail: 'lena@example.com',
      customerPhone: '949-555-0456',
      shippingAddress: '789 Glenneyre St',
      shippingCity: 'Laguna Beach',
      shippingState: 'CA',
      shippingZipCode: '92651',
      shippingCountry: 'USA',
    });
  });

  test('without customer and with an incomplete profile: 403 "Please complete your profile...", nothing ordered', async () => {
    const ctx = await store();
    await fillCart(ctx);
    ctx.db.update(userProfiles).set({ address: null }).where(eq(userProfiles.userId, ctx.userId)).run();
    const { customer: _omit, ...body } = await checkoutBody(ctx.shopper, STANDARD);
    const response = await checkout(ctx.shopper, body);
    expect(response.status).toBe(403);
    expect((await response.json()).message).toBe('Please complete your profile information before making purchases or entering games.');
    expect(notificationsOf(ctx, ctx.userId).filter((n) => n.title === 'Complete Your Profile')).toHaveLength(1);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
  });

  test('without any profile: 403', async () => {
    const ctx = await store();
    await fillCart(ctx);
    ctx.db.delete(userProfiles).where(eq(userProfiles.userId, ctx.userId)).run();
    const { customer: _omit, ...body } = await checkoutBody(ctx.shopper, STANDARD);
    expect((await checkout(ctx.shopper, body)).status).toBe(403);
    expect(allOrders(ctx)).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- the last unit

describe('POST /api/checkout: 50 shoppers for the last unit', () => {
  test.each(['square', 'cod'] as const)('paying by %s: exactly one order, 49 refusals, stock 0', async (paymentMethod) => {
    const ctx = await testApp();
    seedIfEmpty(ctx.db, ctx.clock);
    const p = aviator(ctx);
    const shoppers = Array.from({ length: 50 }, (_, i) => quickShopper(ctx, `racer${i}`));
    for (const s of shoppers) await addToCart(s.client, p.id, 1);
    ctx.db.update(products).set({ quantity: 1 }).where(eq(products.id, p.id)).run();

    // 171.00 + 13.68 tax + 5.99 shipping
    const summary: Summary = { subtotal: 171, shipping: 5.99, tax: 13.68, total: 190.67 };
    const bodies = await Promise.all(
      shoppers.map((s) => checkoutBody(s.client, summary, paymentMethod === 'square' ? { paymentMethod, paymentToken: 'cnon:card-nonce-ok' } : {})),
    );
    const responses = await Promise.all(shoppers.map((s, i) => checkout(s.client, bodies[i])));
    const statuses = responses.map((r) => r.status);

    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);

    const all = allOrders(ctx);
    expect(all).toHaveLength(1);
    expect(all[0]!.status).toBe('processing');
    expect(ctx.db.select().from(orderItems).all()).toHaveLength(1);
    expect(stockOf(ctx, p.id)).toBe(0);
    expect(ctx.gateway.payments()).toHaveLength(paymentMethod === 'square' ? 1 : 0);

    const winner = shoppers[statuses.indexOf(201)]!;
    expect(all[0]!.userId).toBe(winner.id);
    expect(cartOf(ctx, winner.id)).toHaveLength(0);
    // Everyone else still has the item in their cart.
    expect(ctx.db.select().from(cartItems).all()).toHaveLength(49);
  });

  test('the stock is taken with a conditional update: an order for more than is left is refused whole', async () => {
    // Within one process the cart's stock check already stops most late buyers; this drives
    // placeOrder past it, as a second server process could, and checks the UPDATE itself.
    const ctx = await store();
    const a = aviator(ctx);
    const w = wayfarer(ctx);
    ctx.db.update(products).set({ quantity: 1 }).where(eq(products.id, w.id)).run();
    const line = (productId: number, quantity: number, priceCents: number) => ({
      productId,
      quantity,
      priceCents,
      purchaseType: 'buy_now' as const,
      label: `line ${productId}`,
      stockReserved: false,
    });
    const attempt = placeOrder(ctx, {
      userId: ctx.userId,
      lines: [line(a.id, 1, 17100), line(w.id, 2, 16300)],
      totals: { subtotalCents: 49700, shippingCents: 599, taxCents: 3976, totalCents: 54275 },
      shippingMethod: 'standard',
      address: {
        name: 'Lena Ocean',
        email: 'lena@example.com',
        phone: '949-555-0123',
        line1: '123 Coast Hwy',
        city: 'Laguna Beach',
        state: 'CA',
        postalCode: '92651',
        country: 'USA',
      },
      payment: { method: 'square', sourceId: 'cnon:card-nonce-ok' },
      checkoutKey: `cart:${ctx.userId}`,
    });
    const error = await attempt.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).status).toBe(409);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(ctx.db.select().from(orderItems).all()).toHaveLength(0);
    expect(ctx.db.select().from(payments).all()).toHaveLength(0);
    expect(stockOf(ctx, a.id)).toBe(12);
    expect(stockOf(ctx, w.id)).toBe(1);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });
});

// ---------------------------------------------------------------- POST /api/orders

describe('POST /api/orders (single product, local delivery)', () => {
  const customerInfo = {
    name: 'Lena Ocean',
    email: 'lena@example.com',
    phone: '949-555-0123',
    address: { line1: '123 Coast Hwy', city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
  };
  // Aviator: 171.00, tax 13.68, free shipping.
  const totals = { subtotal: 171, shipping: 0, tax: 13.68, total: 184.68 };

  const orderBody = (productId: number, extra: Record<string, unknown> = {}) => ({
    productId,
    quantity: 1,
    ...totals,
    shippingMethod: 'standard',
    customerInfo,
    paymentToken: 'cnon:card-nonce-ok',
    ...extra,
  });
  const buy = (client: TestClient, json: unknown) => client.post('/api/orders', { json });

  test('ZIP 12345 is refused: 400 "Local Delivery Only...", nothing ordered or charged', async () => {
    const ctx = await store();
    const p = aviator(ctx);
    const response = await buy(ctx.shopper, orderBody(p.id, { customerInfo: { ...customerInfo, address: { ...customerInfo.address, postalCode: '12345' } } }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toStartWith('Local Delivery Only');
    expect(body.message).toContain('92651');
    expect(body.fields['address.postalCode']).toBe(body.message);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('ZIP 92651 with the right totals: 201 {id}, free shipping, 8% tax, stock down by one, charged once', async () => {
    const ctx = await store();
    const p = aviator(ctx);
    const response = await buy(ctx.shopper, orderBody(p.id));
    expect(response.status).toBe(201);
    const { id } = await response.json();
    expect(id).toEqual(expect.any(Number));
    expect(stockOf(ctx, p.id)).toBe(11);
    const order = allOrders(ctx)[0]!;
    expect(order).toMatchObject({
      id,
      userId: ctx.userId,
      status: 'processing',
      subtotalCents: 17100,
      shippingCents: 0,
      taxCents: 1368,
      totalCents: 18468,
      shippingZipCode: '92651',
      paymentMethod: 'square',
    });
    const charged = ctx.gateway.payments();
    expect(charged).toHaveLength(1);
    expect(charged[0]!.amountCents).toBe(18468);
    expect(order.paymentId).toBe(charged[0]!.id);
  });

  test('an Apple Pay token records apple_pay as the payment method', async () => {
    const ctx = await store();
    const response = await buy(ctx.shopper, orderBody(aviator(ctx).id, { paymentMethod: 'apple_pay' }));
    expect(response.status).toBe(201);
    expect(allOrders(ctx)[0]!.paymentMethod).toBe('apple_pay');
  });

  test.each([
    ['total lowered by a cent', { total: 184.67 }],
    ['shipping charged', { shipping: 5.99, total: 190.67 }],
    ['tax left out', { tax: 0, total: 171 }],
  ])('%s: 409 with the right summary, nothing ordered', async (_label, change) => {
    const ctx = await store();
    const p = aviator(ctx);
    const response = await buy(ctx.shopper, orderBody(p.id, change));
    expect(response.status).toBe(409);
    expect((await response.json()).summary).toEqual(totals);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('a sold-out product: 409', async () => {
    const ctx = await store();
    const p = radar(ctx);
    // 213.00, tax 17.04
    const response = await buy(ctx.shopper, orderBody(p.id, { subtotal: 213, shipping: 0, tax: 17.04, total: 230.04 }));
    expect(response.status).toBe(409);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(0);
  });

  test('an unknown product: 404', async () => {
    const ctx = await store();
    expect((await buy(ctx.shopper, orderBody(999999))).status).toBe(404);
  });

  test('quantity 2: 400, nothing ordered', async () => {
    const ctx = await store();
    const p = aviator(ctx);
    const response = await buy(ctx.shopper, orderBody(p.id, { quantity: 2 }));
    expect(response.status).toBe(400);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
  });

  test('signed out: 401, nothing ordered', async () => {
    const ctx = await testApp();
    seedIfEmpty(ctx.db, ctx.clock);
    const p = aviator(ctx);
    const response = await buy(ctx.client(), orderBody(p.id));
    expect(response.status).toBe(401);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
  });

  test('a declined card: 402, stock back, a failed order, nothing charged', async () => {
    const ctx = await store();
    const p = aviator(ctx);
    const response = await buy(ctx.shopper, orderBody(p.id, { paymentToken: 'cnon:card-nonce-declined' }));
    expect(response.status).toBe(402);
    expect(stockOf(ctx, p.id)).toBe(12);
    expect(allOrders(ctx).map((o) => o.status)).toEqual(['failed']);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('without a token it pays with the card saved in the profile', async () => {
    const ctx = await store();
    const p = aviator(ctx);
    const { paymentToken: _omit, ...body } = orderBody(p.id);

    ctx.db.delete(userProfiles).where(eq(userProfiles.userId, ctx.userId)).run();
    const noCard = await buy(ctx.shopper, body);
    expect(noCard.status).toBe(403);
    expect((await noCard.json()).missing).toContain('payment card');
    expect(allOrders(ctx)).toHaveLength(0);

    expect(
      (await ctx.shopper.request('PATCH', '/api/user/profile', { json: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: visaToken() } } }))
        .status,
    ).toBe(200);
    const response = await buy(ctx.shopper, body);
    expect(response.status).toBe(201);
    const { id } = await response.json();
    const charged = ctx.gateway.payments();
    expect(charged).toHaveLength(1);
    expect(charged[0]!.amountCents).toBe(18468);
    expect(allOrders(ctx)[0]).toMatchObject({ id, status: 'processing', paymentId: charged[0]!.id });
    expect(stockOf(ctx, p.id)).toBe(11);
  });
});

// ---------------------------------------------------------------- reading orders

describe('GET /api/orders/{id} and GET /api/user/orders', () => {
  test('the owner sees the order with items (product brand, model, image) and totals in dollars', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const { orderId } = await (await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD))).json();
    const response = await ctx.shopper.get(`/api/orders/${orderId}`);
    expect(response.status).toBe(200);
    const order = await response.json();
    expect(order).toMatchObject({
      id: orderId,
      status: 'processing',
      subtotal: 497,
      shipping: 5.99,
      tax: 39.76,
      total: 542.75,
      totalAmount: 542.75,
      shippingMethod: 'standard',
      paymentMethod: 'cod',
    });
    expect(order.items).toHaveLength(2);
    expect(order.items[0]).toMatchObject({
      quantity: 1,
      price: 171,
      product: { brand: 'Ray-Ban', model: 'RB3025-L0205', imageUrl: '/static/images/products/rayban-aviator-classic.svg' },
    });
    expect(order.items[1]).toMatchObject({
      quantity: 2,
      price: 163,
      product: { brand: 'Ray-Ban', model: 'RB2140-901', imageUrl: '/static/images/products/rayban-original-wayfarer.svg' },
    });
  });

  test('another user and an unknown id get 404; signed out gets 401', async () => {
    const ctx = await store();
    await fillCart(ctx);
    const { orderId } = await (await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD))).json();
    const { client: other } = await shopper(ctx, 'shopper2');

    const theirs = await other.get(`/api/orders/${orderId}`);
    expect(theirs.status).toBe(404);
    expect((await theirs.json()).message).toBe('Order not found');
    expect((await ctx.shopper.get('/api/orders/999999')).status).toBe(404);
    expect((await ctx.shopper.get('/api/orders/abc')).status).toBe(404);
    expect((await ctx.client().get(`/api/orders/${orderId}`)).status).toBe(401);
    expect(await (await other.get('/api/user/orders')).json()).toEqual([]);
  });

  test('GET /api/user/orders lists your orders newest first, with status', async () => {
    const ctx = await store();
    await addToCart(ctx.shopper, aviator(ctx).id, 1);
    const one: Summary = { subtotal: 171, shipping: 5.99, tax: 13.68, total: 190.67 };
    const first = await (await checkout(ctx.shopper, await checkoutBody(ctx.shopper, one))).json();

    ctx.clock.advance(60_000);
    await addToCart(ctx.shopper, aviator(ctx).id, 1);
    const declined = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, one, { paymentMethod: 'square', paymentToken: 'cnon:card-nonce-declined' }));
    expect(declined.status).toBe(402);
    const second = await declined.json();

    // Past the attempt window, so the next checkout is an order of its own (within it, it would pay the failed one).
    ctx.clock.advance(16 * 60_000);
    const third = await (
      await checkout(ctx.shopper, await checkoutBody(ctx.shopper, one, { paymentMethod: 'square', paymentToken: 'cnon:card-nonce-ok' }))
    ).json();

    const response = await ctx.shopper.get('/api/user/orders');
    expect(response.status).toBe(200);
    const list = await response.json();
    // The declined attempt is counted under the order that went through after it, not listed on its own.
    expect(list.map((o: { id: number; status: string; declinedAttempts: number }) => [o.id, o.status, o.declinedAttempts])).toEqual([
      [third.orderId, 'processing', 1],
      [first.orderId, 'processing', 0],
    ]);
    expect(second.orderId).toBeGreaterThan(first.orderId);
    expect(list[0]).toMatchObject({ total: 190.67, items: [{ quantity: 1, price: 171, product: { brand: 'Ray-Ban', model: 'RB3025-L0205' } }] });
    expect(list[0].createdAt).toBeGreaterThan(list[1].createdAt);
  });

  test('GET /api/user/orders signed out: 401', async () => {
    const ctx = await testApp();
    expect((await ctx.client().get('/api/user/orders')).status).toBe(401);
  });
});
