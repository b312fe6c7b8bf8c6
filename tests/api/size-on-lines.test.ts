import { describe, expect, test } from 'bun:test';
import { bootstrapAdmin } from '../../src/domain/accounts/bootstrap-admin.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { signedInAdmin } from '../helpers/admin-tools.ts';
import { aviator, checkout, checkoutStore, type CheckoutStore, customer, product } from '../helpers/checkout.ts';
import { all, islandProps, mainOf, text, textOf } from '../helpers/html.ts';
import { deliverOutbox } from '../helpers/outbox.ts';
import { sellInSizes } from '../helpers/variants.ts';

/*
 * Issue 38: the size a shopper chose is named on every line after it is chosen: the cart, the
 * checkout, the order page, the order API, the receipt e-mail, the admin's orders and their CSV.
 * A product without sizes to tell apart (one pair of sunglasses) names none.
 */

type ApiOrder = { items: { productId: number; size: string; quantity: number; label: string }[] };

/** The seeded Patagonia tee, sold in S (2 left), M (3 left) and L (sold out). */
function teeInSizes(ctx: CheckoutStore) {
  const tee = product(ctx, 'Patagonia', '38504-WHI');
  const sizes = sellInSizes(ctx.db, tee.id, [
    { size: 'S', quantity: 2 },
    { size: 'M', quantity: 3 },
    { size: 'L', quantity: 0 },
  ]);
  return { tee, sizes };
}

/** A cart line's `<li>` on the cart page, found by its size (or by the absence of one). */
function cartLineTexts(html: string): string[] {
  return all(mainOf(html), 'section[aria-labelledby="cart-items"] li').map((li) => textOf(li));
}

const addLine = async (ctx: CheckoutStore, productId: number, variantId?: number, quantity = 1) => {
  const response = await ctx.shopper.post('/api/cart', { json: { productId, variantId, quantity } });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; size: string };
};

describe('the chosen size on every line', () => {
  test('cart: two sizes of one tee are two lines, each named; quantities are checked against their own size', async () => {
    const ctx = await checkoutStore();
    const { tee, sizes } = teeInSizes(ctx);
    const m = await addLine(ctx, tee.id, sizes.M);
    const s = await addLine(ctx, tee.id, sizes.S);
    await addLine(ctx, aviator(ctx).id);
    expect([m.size, s.size]).toEqual(['M', 'S']);

    const lines = cartLineTexts(await (await ctx.shopper.get('/cart')).text());
    expect(lines).toHaveLength(3);
    expect(lines.filter((line) => line.includes('Size M'))).toHaveLength(1);
    expect(lines.filter((line) => line.includes('Size S'))).toHaveLength(1);
    const sunglasses = lines.find((line) => line.includes('Ray-Ban'))!;
    expect(sunglasses).not.toContain('Size');

    // M has 3 left, S has 2: the tee's 5 in all never let one size take the other's units.
    expect((await ctx.shopper.patch(`/api/cart/${m.id}`, { json: { quantity: 3 } })).status).toBe(200);
    const tooMany = await ctx.shopper.patch(`/api/cart/${s.id}`, { json: { quantity: 3 } });
    expect(tooMany.status).toBe(409);
    expect((await tooMany.json()).message).toBe('Only 2 left in size S.');

    // M sells down to 1 while 3 wait in the cart: the checkout names the size that ran short.
    sellInSizes(ctx.db, tee.id, [
      { size: 'S', quantity: 2 },
      { size: 'M', quantity: 1 },
      { size: 'L', quantity: 0 },
    ]);
    const short = await checkout(ctx.shopper, { paymentMethod: 'cod', shipping: { method: 'standard' }, customer });
    expect(short.status).toBe(409);
    expect((await short.json()).message).toBe('Only 1 of Patagonia P-6 Logo Responsibili-Tee in size M left.');
  });

  test('cart checkout: the order page, the order API, the receipt, the admin list and the CSV name each size; sunglasses none', async () => {
    const ctx = await checkoutStore();
    await bootstrapAdmin(ctx);
    const { tee, sizes } = teeInSizes(ctx);
    await addLine(ctx, tee.id, sizes.M);
    await addLine(ctx, tee.id, sizes.S);
    await addLine(ctx, aviator(ctx).id);
    // Without a summary the answer carries the totals; the second try pays them.
    const body = { paymentMethod: 'cod', shipping: { method: 'standard' }, customer };
    const totals = (await (await checkout(ctx.shopper, body)).json()).summary;
    const placed = await checkout(ctx.shopper, { ...body, summary: totals });
    expect(placed.status).toBe(201);
    const { orderId } = (await placed.json()) as { orderId: number };

    const api = (await (await ctx.shopper.get(`/api/orders/${orderId}`)).json()) as ApiOrder;
    expect(api.items.map((item) => [item.productId, item.size])).toEqual([
      [tee.id, 'M'],
      [tee.id, 'S'],
      [aviator(ctx).id, ''],
    ]);
    const history = (await (await ctx.shopper.get('/api/user/orders')).json()) as ApiOrder[];
    expect(history[0]!.items.map((item) => item.size)).toEqual(['M', 'S', '']);

    const page = await (await ctx.shopper.get(`/orders/${orderId}`)).text();
    const items = all(mainOf(page), 'section[aria-labelledby="items-title"] li').map((li) => textOf(li));
    expect(items[0]).toContain('Size M');
    expect(items[1]).toContain('Size S');
    expect(items[2]).not.toContain('Size');
    const confirmation = await (await ctx.shopper.get(`/order-confirmation/${orderId}`)).text();
    expect(textOf(mainOf(confirmation))).toContain('Size M');

    const receipt = (await deliverOutbox(ctx)).find((mail) => mail.kind === 'order_confirmation')!;
    expect(receipt.text).toContain('Patagonia P-6 Logo Responsibili-Tee · Size M x 1');
    expect(receipt.text).toContain('Patagonia P-6 Logo Responsibili-Tee · Size S x 1');
    expect(receipt.text).toMatch(/Ray-Ban [^\n·]* x 1/);

    const admin = await signedInAdmin(ctx);
    const listed = all(await (await admin.get('/admin?tab=orders')).text(), `[aria-label="Items of order #${orderId}"] li`).map((li) => textOf(li));
    expect(listed.map((line) => line.includes('· Size M'))).toEqual([true, false, false]);
    expect(listed.map((line) => line.includes('· Size S'))).toEqual([false, true, false]);

    const csv = (await (await admin.get('/admin/orders.csv')).text()).trim().split('\r\n');
    const header = csv[0]!.split(',');
    expect(header).toContain('Sizes');
    const row = csv.find((line) => line.startsWith(`${orderId},`))!;
    expect(row).toContain('1 x Patagonia P-6 Logo Responsibili-Tee · Size M; 1 x Patagonia P-6 Logo Responsibili-Tee · Size S; 1 x Ray-Ban');
    expect(row).toContain(',M; S; -,');

    // Delivered: the message says what was in the parcel, each line in its size.
    expect((await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'completed' } })).status).toBe(200);
    const delivered = (await deliverOutbox(ctx)).find((mail) => mail.kind === 'order_delivered')!;
    expect(delivered.text).toContain('Patagonia P-6 Logo Responsibili-Tee · Size M');
    expect(delivered.text).toContain('Patagonia P-6 Logo Responsibili-Tee · Size S');
  });

  test('buy now in M: the checkout names it, the order holds it, the API and e-mail say it', async () => {
    const ctx = await checkoutStore();
    const { tee, sizes } = teeInSizes(ctx);

    // The product page sends the shopper on with the size in the URL.
    const inM = await (await ctx.shopper.get(`/checkout?productId=${tee.id}&size=M`)).text();
    expect(text(inM, 'aside [data-size]')).toBe('Size M');
    expect(islandProps<{ product: { variantId: number } }>(inM, 'BuyNowCheckout').product.variantId).toBe(sizes.M!);
    // Posted without JavaScript, the form comes back to the same checkout in the same size.
    const body = new FormData();
    body.set('productId', String(tee.id));
    body.set('variantId', String(sizes.M));
    const back = await ctx.shopper.request('POST', '/checkout/submit', { body });
    expect(back.headers.get('location')).toBe(`/checkout?productId=${tee.id}&variantId=${sizes.M}`);
    // No size named: the sizes to choose from, the sold-out one said so, not a link.
    const unsized = await (await ctx.shopper.get(`/checkout?productId=${tee.id}`)).text();
    expect(all(unsized, '[data-choose-size] a').map((a) => a.getAttribute('href'))).toEqual([
      `/checkout?productId=${tee.id}&size=S`,
      `/checkout?productId=${tee.id}&size=M`,
    ]);
    expect(all(unsized, '[data-choose-size] li').map((li) => textOf(li))).toEqual(['S', 'M', 'L: sold out']);

    const bought = await ctx.shopper.post('/api/orders', { json: { ...buyNowBody(tee.id, tee.priceCents), variantId: sizes.M } });
    expect(bought.status).toBe(201);
    const { id } = (await bought.json()) as { id: number };
    const api = (await (await ctx.shopper.get(`/api/orders/${id}`)).json()) as ApiOrder;
    expect(api.items.map((item) => item.size)).toEqual(['M']);
    expect(textOf(mainOf(await (await ctx.shopper.get(`/orders/${id}`)).text()))).toContain('Size M');
    const receipt = (await deliverOutbox(ctx)).find((mail) => mail.kind === 'order_confirmation')!;
    expect(receipt.text).toContain('· Size M x 1');
  });

  test('one pair of sunglasses bought now: no size anywhere', async () => {
    const ctx = await checkoutStore();
    const sunglasses = aviator(ctx);
    expect(text(await (await ctx.shopper.get(`/checkout?productId=${sunglasses.id}`)).text(), 'aside [data-size]')).toBeUndefined();
    const bought = await ctx.shopper.post('/api/orders', { json: buyNowBody(sunglasses.id, sunglasses.priceCents) });
    expect(bought.status).toBe(201);
    const { id } = (await bought.json()) as { id: number };
    const api = (await (await ctx.shopper.get(`/api/orders/${id}`)).json()) as ApiOrder;
    expect(api.items.map((item) => item.size)).toEqual(['']);
    expect(textOf(mainOf(await (await ctx.shopper.get(`/orders/${id}`)).text()))).not.toContain('Size ');
    const receipt = (await deliverOutbox(ctx)).find((mail) => mail.kind === 'order_confirmation')!;
    expect(receipt.text).not.toContain('Size');
  });
});
