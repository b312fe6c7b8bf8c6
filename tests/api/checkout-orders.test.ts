import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { orderItems, payments, products, userProfiles } from '../../src/db/schema.ts';
import {
  addToCart,
  allOrders,
  aviator,
  cartOf,
  checkout,
  checkoutBody,
  checkoutStore,
  EXPRESS,
  fillCart,
  notificationsOf,
  STANDARD,
  stockOf,
  visaToken,
  wayfarer,
  type Summary,
} from '../helpers/checkout.ts';
import { testApp } from '../helpers/app.ts';

/*
 * POST /api/checkout (spec section 7) when it goes through: the totals it checks, the order it
 * makes by cash on delivery or by card, and what a declined card leaves.
 */

describe('POST /api/checkout: totals and a successful order', () => {
  test('signed out with no cart: 400 "Your cart is empty."', async () => {
    const ctx = await testApp();
    const response = await checkout(ctx.client(), { paymentMethod: 'cod', shipping: { method: 'standard' } });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe('Your cart is empty.');
  });

  test('cash on delivery with the right summary: 201 {orderId}, processing, stock taken, cart emptied, nothing charged', async () => {
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, EXPRESS, {}, 'express'));
    expect(response.status).toBe(201);
    expect(allOrders(ctx)[0]).toMatchObject({ shippingCents: 1299, totalCents: 54975, shippingMethod: 'express' });
  });

  test('tax is 8% of the subtotal rounded to the cent', async () => {
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
    expect((await ctx.shopper.request('PATCH', '/api/user/profile', { json: { paymentMethod: { sourceId: visaToken() } } })).status).toBe(200);
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { paymentMethod: 'square' }));
    expect(response.status).toBe(201);
    expect(ctx.gateway.payments().map((p) => p.amountCents)).toEqual([54275]);
  });

  test('by card without a token or a saved card: 400 naming the card, nothing ordered', async () => {
    const ctx = await checkoutStore();
    await fillCart(ctx);
    ctx.db.update(userProfiles).set({ gatewayCardId: null }).where(eq(userProfiles.userId, ctx.userId)).run();
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, STANDARD, { paymentMethod: 'square' }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toEqual({ paymentToken: 'Add a payment card to your profile, or enter a card.' });
    expect(allOrders(ctx)).toHaveLength(0);
    expect(stockOf(ctx, aviator(ctx).id)).toBe(12);
  });
});

describe('POST /api/checkout: a declined card', () => {
  test('402; a failed order, stock restored, cart kept, nothing charged, a "Payment Failed" notification', async () => {
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
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
