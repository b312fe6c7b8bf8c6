import { describe, expect, test } from 'bun:test';
import { shopper } from '../helpers/actors.ts';
import { addToCart, aviator, checkout, checkoutBody, checkoutStore, fillCart, STANDARD, type Summary } from '../helpers/checkout.ts';
import { testApp } from '../helpers/app.ts';

/*
 * Reading orders (spec section 7): GET /api/orders/{id} for its owner only, and
 * GET /api/user/orders, newest first.
 */

describe('GET /api/orders/{id} and GET /api/user/orders', () => {
  test('the owner sees the order with items (product brand, model, image) and totals in dollars', async () => {
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
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
    const ctx = await checkoutStore();
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
