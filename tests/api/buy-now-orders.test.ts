import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { userProfiles } from '../../src/db/schema.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { allOrders, aviator, checkoutStore, radar, stockOf, visaToken } from '../helpers/checkout.ts';
import { seededApp, type TestClient } from '../helpers/app.ts';

/*
 * POST /api/orders (spec section 7): buying one product with local delivery, as the single
 * product checkout page does.
 */

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
    const ctx = await checkoutStore();
    const p = aviator(ctx);
    const response = await buy(ctx.shopper, orderBody(p.id, { customerInfo: { ...customerInfo, address: { ...customerInfo.address, postalCode: '12345' } } }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toStartWith('Local Delivery Only');
    expect(body.message).toContain('92651');
    // Not a dead end (issue 27, item 6): the answer names the cart, which ships anywhere.
    expect(body.message).toContain('Your cart ships anywhere in the US');
    expect(body.fields['address.postalCode']).toBe(body.message);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('ZIP 92651 with the right totals: 201 {id}, free shipping, 8% tax, stock down by one, charged once', async () => {
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
    const response = await buy(ctx.shopper, orderBody(aviator(ctx).id, { paymentMethod: 'apple_pay' }));
    expect(response.status).toBe(201);
    expect(allOrders(ctx)[0]!.paymentMethod).toBe('apple_pay');
  });

  test.each([
    ['total lowered by a cent', { total: 184.67 }],
    ['shipping charged', { shipping: 5.99, total: 190.67 }],
    ['tax left out', { tax: 0, total: 171 }],
  ])('%s: 409 with the right summary, nothing ordered', async (_label, change) => {
    const ctx = await checkoutStore();
    const p = aviator(ctx);
    const response = await buy(ctx.shopper, orderBody(p.id, change));
    expect(response.status).toBe(409);
    expect((await response.json()).summary).toEqual(totals);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('a sold-out product: 409', async () => {
    const ctx = await checkoutStore();
    const p = radar(ctx);
    // 213.00, tax 17.04
    const response = await buy(ctx.shopper, orderBody(p.id, { subtotal: 213, shipping: 0, tax: 17.04, total: 230.04 }));
    expect(response.status).toBe(409);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(0);
  });

  test('an unknown product: 404', async () => {
    const ctx = await checkoutStore();
    expect((await buy(ctx.shopper, orderBody(999999))).status).toBe(404);
  });

  test('quantity 2: 400, nothing ordered', async () => {
    const ctx = await checkoutStore();
    const p = aviator(ctx);
    const response = await buy(ctx.shopper, orderBody(p.id, { quantity: 2 }));
    expect(response.status).toBe(400);
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
  });

  test('signed out without an e-mail: 400, nothing ordered (a guest order needs the e-mail its receipt goes to)', async () => {
    const ctx = await seededApp();
    const p = aviator(ctx);
    const body = orderBody(p.id);
    const response = await buy(ctx.client(), { ...body, customerInfo: { ...body.customerInfo, email: undefined } });
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toHaveProperty('email');
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
  });

  test('a declined card: 402, stock back, a failed order, nothing charged', async () => {
    const ctx = await checkoutStore();
    const p = aviator(ctx);
    const response = await buy(ctx.shopper, orderBody(p.id, { paymentToken: 'cnon:card-nonce-declined' }));
    expect(response.status).toBe(402);
    expect(stockOf(ctx, p.id)).toBe(12);
    expect(allOrders(ctx).map((o) => o.status)).toEqual(['failed']);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('without a token it pays with the card saved in the profile', async () => {
    const ctx = await checkoutStore();
    const p = aviator(ctx);
    const { paymentToken: _omit, ...body } = orderBody(p.id);

    ctx.db.delete(userProfiles).where(eq(userProfiles.userId, ctx.userId)).run();
    const noCard = await buy(ctx.shopper, body);
    expect(noCard.status).toBe(400);
    expect((await noCard.json()).fields).toEqual({ paymentToken: 'Add a payment card to your profile, or enter a card.' });
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
