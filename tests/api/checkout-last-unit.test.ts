import { describe, expect, test } from 'bun:test';
import { cartItems, orderItems, payments } from '../../src/db/schema.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { placeOrder } from '../../src/domain/orders/orders.ts';
import { quickShopper } from '../helpers/actors.ts';
import { addToCart, allOrders, aviator, cartOf, checkout, checkoutBody, checkoutStore, stockOf, wayfarer, type Summary } from '../helpers/checkout.ts';
import { seededApp } from '../helpers/app.ts';
import { setShelf, soleVariantId } from '../helpers/variants.ts';

/*
 * Many shoppers after the last unit at once (POST /api/checkout): exactly one order, the rest
 * refused, the stock never below zero.
 */

describe('POST /api/checkout: 50 shoppers for the last unit', () => {
  test.each(['square', 'cod'] as const)('paying by %s: exactly one order, 49 refusals, stock 0', async (paymentMethod) => {
    const ctx = await seededApp();
    const p = aviator(ctx);
    const shoppers = Array.from({ length: 50 }, (_, i) => quickShopper(ctx, `racer${i}`));
    for (const s of shoppers) await addToCart(s.client, p.id, 1);
    setShelf(ctx.db, p.id, 1);

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
    const ctx = await checkoutStore();
    const a = aviator(ctx);
    const w = wayfarer(ctx);
    setShelf(ctx.db, w.id, 1);
    const line = (productId: number, quantity: number, priceCents: number) => ({
      productId,
      variantId: soleVariantId(ctx.db, productId),
      sizeLabel: '',
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
      clientAddress: '192.0.2.1',
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
