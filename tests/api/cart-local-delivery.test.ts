import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { userProfiles } from '../../src/db/schema.ts';
import { LOCAL_DELIVERY } from '../../src/shared/pricing.ts';
import { allOrders, checkout, checkoutBody, checkoutStore, customer, fillCart, STANDARD, type Summary } from '../helpers/checkout.ts';
import { all, first, islandProps, textOf } from '../helpers/html.ts';
import { deliverOutbox } from '../helpers/outbox.ts';

/*
 * Issue 37, item 5: the product page promises free delivery in 92651 within 2-3 hours, so the cart
 * offers it too. Going to 92651 the cart shows 'Automatic Delivery - Free (within 2-3 hours)' first
 * and chosen, at $0 in the totals, the receipt and the order page; elsewhere only the carriers. The
 * server prices it and refuses it for an address outside 92651.
 */

/** Aviator x1 + Wayfarer x2 = 497.00, tax 39.76, delivered free. */
const LOCAL: Summary = { subtotal: 497, shipping: 0, tax: 39.76, total: 536.76 };

const shippingRadios = (html: string) =>
  all(html, 'input[name="shippingMethod"]').map((input) => ({
    value: input.getAttribute('value'),
    checked: input.hasAttribute('checked'),
    label: textOf(input.closest('label')!),
  }));

describe('the cart offers free local delivery to 92651', () => {
  test('the cart page: 92651 offers the local delivery first and chosen, free; another ZIP only Standard and Express', async () => {
    const ctx = await checkoutStore();
    await fillCart(ctx);
    const local = await (await ctx.shopper.get('/cart')).text();
    const radios = shippingRadios(local);
    expect(radios.map((r) => r.value)).toEqual(['local', 'standard', 'express']);
    expect(radios[0]).toMatchObject({ checked: true });
    expect(radios[0]!.label).toContain(LOCAL_DELIVERY.label);
    expect(radios[0]!.label).toContain('Free');
    expect(textOf(first(local, '[data-total]')!)).toBe('$536.76');

    const profile = ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, ctx.userId)).get()!;
    ctx.db
      .update(userProfiles)
      .set({ address: { ...profile.address!, city: 'New York', state: 'NY', postalCode: '10001' } })
      .where(eq(userProfiles.userId, ctx.userId))
      .run();
    const far = await (await ctx.shopper.get('/cart')).text();
    expect(shippingRadios(far).map((r) => [r.value, r.checked])).toEqual([
      ['standard', true],
      ['express', false],
    ]);
    expect(textOf(first(far, '[data-total]')!)).toBe('$542.75');
    expect(islandProps<{ customer: { zipCode: string } }>(far, 'CartCheckout').customer.zipCode).toBe('10001');
  });

  test('API: local delivery to 92651 is a $0 line in the order, the receipt and the order page', async () => {
    const ctx = await checkoutStore();
    await fillCart(ctx);
    const response = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, LOCAL, {}, 'local'));
    expect(response.status).toBe(201);
    const { orderId } = (await response.json()) as { orderId: number };
    expect(allOrders(ctx).find((o) => o.id === orderId)).toMatchObject({ shippingMethod: 'local', shippingCents: 0, totalCents: 53676 });
    const receipt = (await deliverOutbox(ctx)).find((m) => m.subject === `Your order #${orderId} is confirmed`)!;
    expect(receipt.text).toContain(LOCAL_DELIVERY.label);
    expect(receipt.text).toContain('It will be delivered to you within 2-3 hours (Laguna Beach, 92651).');
    const page = await (await ctx.shopper.get(`/orders/${orderId}`)).text();
    expect(textOf(first(page, '#items-title ~ dl')!)).toContain('Shipping Free');
    expect(textOf(first(page, 'main')!)).toContain(LOCAL_DELIVERY.label);
  });

  test('API: the server decides; local delivery outside 92651 is refused, and a $0 shipping claimed for Standard is a 409 with the real totals', async () => {
    const ctx = await checkoutStore();
    await fillCart(ctx);
    const far = { customer: { ...customer, city: 'New York', state: 'NY', zipCode: '10001' } };
    const refused = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, LOCAL, far, 'local'));
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { message: string; fields: Record<string, string> };
    expect(body.message).toStartWith('Local Delivery Only');
    expect(body.fields).toHaveProperty('zipCode');
    const claimed = await checkout(ctx.shopper, await checkoutBody(ctx.shopper, LOCAL, far, 'standard'));
    expect(claimed.status).toBe(409);
    expect(((await claimed.json()) as { summary: Summary }).summary).toEqual(STANDARD);
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test('the cart form without JavaScript: no method sent, a 92651 address gets the local delivery', async () => {
    const ctx = await checkoutStore();
    await fillCart(ctx);
    const posted = await ctx.shopper.post('/cart/checkout', { form: { paymentMethod: 'cod', ...customer } });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toStartWith('/order-confirmation/');
    expect(allOrders(ctx)[0]).toMatchObject({ shippingMethod: 'local', shippingCents: 0 });
  });
});
