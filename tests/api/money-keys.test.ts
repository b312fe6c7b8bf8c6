import { afterAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { orders, products } from '../../src/db/schema.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { allOrders, aviator, checkoutStore, radar } from '../helpers/checkout.ts';
import { islandProps, links, mainOf, textOf } from '../helpers/html.ts';
import { squareStore, type SquareStore } from '../helpers/square-app.ts';

/*
 * Issue 25, row 1 (server side): the card save takes an Idempotency-Key like the other money
 * routes; an unconfirmed payment's answer stays with its key, so a retry after the order was
 * settled finds that order instead of paying a second time; a shopper back on a checkout they
 * just paid is told so ('You bought this ... ago') on a page no cache keeps, and can buy again.
 */

const MINUTE = 60_000;

describe('the card save (PATCH /api/user/profile) takes an Idempotency-Key', () => {
  test('the same key twice: the card is checked and saved once, the second answer is the first replayed', async () => {
    const ctx = await checkoutStore();
    const before = ctx.gateway.cards().length;
    const headers = { 'idempotency-key': 'card-save-1' };
    const json = { paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok:VISA:4242:12:2031' } };
    const first = await ctx.shopper.patch('/api/user/profile', { json, headers });
    const second = await ctx.shopper.patch('/api/user/profile', { json, headers });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(ctx.gateway.cards().length).toBe(before + 1);
  });
});

describe('an unconfirmed payment keeps its answer under its key', () => {
  let s: SquareStore;
  afterAll(() => s?.stop());

  test('Square took the money but neither the charge nor the lookup answered: the retry with the key names the same order, never a second charge', async () => {
    s = await squareStore();
    const { client } = await s.shopper('unconfirmed');
    const product = s.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
    const headers = { 'idempotency-key': 'buy-unconfirmed-1' };
    const json = buyNowBody(product.id, product.priceCents);
    s.fake.failNext({ status: 500, afterProcessing: true }, { method: 'POST', path: '/v2/payments' });
    s.fake.failNext({ status: 500 }, { method: 'GET', path: '/v2/payments' });
    const first = await client.post('/api/orders', { json, headers });
    expect(first.status).toBe(502);
    const { orderId, code } = (await first.json()) as { orderId: number; code: string };
    expect(code).toBe('PAYMENT_UNCONFIRMED');
    // The reconciler finds the payment and the order is paid meanwhile.
    s.clock.advance(MINUTE);
    await s.tick();
    expect(s.db.select().from(orders).where(eq(orders.id, orderId)).get()!.status).toBe('processing');

    const retry = await client.post('/api/orders', { json, headers });
    expect(retry.status).toBe(502);
    expect(((await retry.json()) as { orderId: number }).orderId).toBe(orderId);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(s.fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
    expect(s.db.select().from(orders).all()).toHaveLength(1);
    // The island follows the order it names.
    expect(((await (await client.get(`/api/orders/${orderId}`)).json()) as { status: string }).status).toBe('processing');
  });
});

describe("the checkout page of a product just bought: 'You bought this ... ago'", () => {
  test('names the time and links the order; a new key buys it again on purpose; another product and a day later say nothing', async () => {
    const ctx = await checkoutStore();
    const product = aviator(ctx);
    const fresh = await ctx.shopper.get(`/checkout?productId=${product.id}`);
    expect(fresh.headers.get('cache-control')).toBe('private, no-store');
    const freshHtml = await fresh.text();
    expect(mainOf(freshHtml).querySelector('[data-recent-purchase]')).toBeNull();
    expect(islandProps(freshHtml, 'BuyNowCheckout').boughtAgo).toBeNull();

    const bought = await ctx.shopper.post('/api/orders', { json: buyNowBody(product.id, product.priceCents), headers: { 'idempotency-key': 'first-buy' } });
    expect(bought.status).toBe(201);
    const { id } = (await bought.json()) as { id: number };

    ctx.clock.advance(2 * MINUTE);
    const back = await ctx.shopper.get(`/checkout?productId=${product.id}`);
    expect(back.headers.get('cache-control')).toBe('private, no-store');
    const html = await back.text();
    const notice = mainOf(html).querySelector('[data-recent-purchase]')!;
    expect(textOf(notice)).toContain('You bought this 2 minutes ago.');
    expect(links(notice)).toEqual([{ href: `/orders/${id}`, text: `See order #${id}` }]);
    // Buying again on purpose is still offered, with the same words next to Pay (where Back brings the shopper).
    expect(islandProps(html, 'BuyNowCheckout').boughtAgo).toEqual({ text: '2 minutes', orderId: id });

    const again = await ctx.shopper.post('/api/orders', { json: buyNowBody(product.id, product.priceCents), headers: { 'idempotency-key': 'second-buy' } });
    expect(again.status).toBe(201);
    expect(allOrders(ctx).filter((o) => o.status === 'processing')).toHaveLength(2);
    expect(textOf(mainOf(await (await ctx.shopper.get(`/checkout?productId=${product.id}`)).text()))).toContain('You bought this less than a minute ago.');

    const other = radar(ctx);
    expect(mainOf(await (await ctx.shopper.get(`/checkout?productId=${other.id}`)).text()).querySelector('[data-recent-purchase]')).toBeNull();
    ctx.clock.advance(25 * 60 * MINUTE);
    expect(mainOf(await (await ctx.shopper.get(`/checkout?productId=${product.id}`)).text()).querySelector('[data-recent-purchase]')).toBeNull();
  });
});
