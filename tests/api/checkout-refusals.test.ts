import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products, userProfiles } from '../../src/db/schema.ts';
import { CITY_RULE, STATE_RULE, STREET_RULE, ZIP_RULE } from '../../src/shared/schemas/profile.ts';
import {
  allOrders,
  aviator,
  cartOf,
  checkout,
  checkoutBody,
  checkoutStore,
  fillCart,
  STANDARD,
  stockOf,
  wayfarer,
  customer,
  type Summary,
} from '../helpers/checkout.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * POST /api/checkout refused (spec sections 5 and 7): a summary or cart that changed since the
 * page loaded, and bad input; nothing is ordered or charged.
 */

const profileDetails = {
  name: 'Pat Profile',
  email: 'pat@example.com',
  phone: '949-555-0456',
  address: { line1: '789 Glenneyre St', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
};

describe('POST /api/checkout: a summary or cart that changed', () => {
  test.each([
    ['total lowered by a cent', { ...STANDARD, total: 542.74 }],
    ['tax left out', { ...STANDARD, tax: 0, total: 502.99 }],
    ['shipping made free', { ...STANDARD, shipping: 0, total: 536.76 }],
    ['subtotal lowered', { ...STANDARD, subtotal: 1, total: 46.75 }],
  ])('%s: 409 with the new summary; nothing ordered, stock and cart unchanged', async (_label, summary) => {
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
    await fillCart(ctx);
    const body = await checkoutBody(ctx.shopper, STANDARD);
    const response = await checkout(ctx.shopper, { ...body, summary: undefined });
    expect(response.status).toBe(409);
    expect((await response.json()).summary).toEqual(STANDARD);
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test('a price change after the page loaded: 409 with the new totals', async () => {
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
    await fillCart(ctx);
    setShelf(ctx.db, wayfarer(ctx).id, 1);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD));
    expect(response.status).toBe(409);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, wayfarer(ctx).id)).toBe(1);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
  });
});

describe('POST /api/checkout: input checks', () => {
  test('an empty cart: 400 "Your cart is empty."', async () => {
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { paymentMethod }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields.paymentMethod).toBeTruthy();
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
  });

  test('an unknown shipping method: 400 "Please choose a shipping method"', async () => {
    const ctx = await checkoutStore();
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
    ['address', '1 A', STREET_RULE],
    ['address', '', 'Address is required'],
    ['city', 'L', CITY_RULE],
    ['state', 'C', STATE_RULE],
    ['zipCode', '9265', ZIP_RULE],
    ['zipCode', '', 'ZIP code is required'],
  ])('checkout form %s %p: 400 with its message, nothing ordered', async (field, value, message) => {
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
    // A new address needs the current password (issue 25).
    expect((await ctx.shopper.request('PATCH', '/api/user/profile', { json: { ...profileDetails, currentPassword: 'secret-pass' } })).status).toBe(200);
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

  test('without customer and without an address on the profile: 400 asking for the delivery details, nothing ordered', async () => {
    const ctx = await checkoutStore();
    await fillCart(ctx);
    ctx.db.update(userProfiles).set({ address: null }).where(eq(userProfiles.userId, ctx.userId)).run();
    const { customer: _omit, ...body } = await checkoutBody(ctx.shopper, STANDARD);
    const response = await checkout(ctx.shopper, body);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Enter your name, phone and delivery address.');
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
  });

  test('without customer and without any profile: 400', async () => {
    const ctx = await checkoutStore();
    await fillCart(ctx);
    ctx.db.delete(userProfiles).where(eq(userProfiles.userId, ctx.userId)).run();
    const { customer: _omit, ...body } = await checkoutBody(ctx.shopper, STANDARD);
    expect((await checkout(ctx.shopper, body)).status).toBe(400);
    expect(allOrders(ctx)).toHaveLength(0);
  });
});
