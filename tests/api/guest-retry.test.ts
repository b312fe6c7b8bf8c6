import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema.ts';
import { allOrders, aviator, checkoutBody, checkoutStore, customer, fillCart, STANDARD, stockOf } from '../helpers/checkout.ts';
import { seededApp, type TestApp } from '../helpers/app.ts';

/*
 * Issue 34, item 7: a guest's retry is the same purchase. The answer to a first-time guest's
 * POST /api/orders is lost, and with it the cart cookie that answer set: the retry comes with the
 * same Idempotency-Key and body but no cookie. The key alone finds the first try: the same order,
 * one charge, and the browser gets a cookie for that guest again. A key sent with another body
 * learns nothing and gets no cookie.
 */

const customerInfo = {
  name: 'Rita Retry',
  email: 'rita@example.com',
  phone: '949-555-0187',
  address: { line1: '7 Ocean Way', city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
};
// Aviator: 171.00, tax 13.68, free local delivery.
const buyNowBody = (productId: number, extra: Record<string, unknown> = {}) => ({
  productId,
  quantity: 1,
  subtotal: 171,
  shipping: 0,
  tax: 13.68,
  total: 184.68,
  customerInfo,
  paymentToken: 'cnon:card-nonce-ok',
  ...extra,
});

const guestCount = (ctx: TestApp) =>
  ctx.db
    .select()
    .from(users)
    .all()
    .filter((u) => u.username.startsWith('visitor:')).length;

describe("a first-time guest's buy now whose answer is lost", () => {
  test('the retry without the cookie, same key and body: the same order, one charge, one order row, and a cookie that opens it', async () => {
    const ctx = await seededApp();
    const p = aviator(ctx);
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await ctx.client().post('/api/orders', { json: buyNowBody(p.id), headers });
    expect(first.status).toBe(201);
    const { id } = await first.json();
    // That answer never arrived: a new browser state, no cookie, the same request again.
    const browser = ctx.client();
    const retry = await browser.post('/api/orders', { json: buyNowBody(p.id), headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await retry.json()).id).toBe(id);
    expect(allOrders(ctx)).toHaveLength(1);
    expect(ctx.gateway.payments()).toHaveLength(1);
    expect(stockOf(ctx, p.id)).toBe(11);
    expect(guestCount(ctx)).toBe(1);
    // The cookie given again belongs to the guest who bought: its order and confirmation open.
    expect(browser.cookies.get('csa_cart')).toBeDefined();
    expect((await browser.get(`/api/orders/${id}`)).status).toBe(200);
    expect((await browser.get(`/order-confirmation/${id}`)).status).toBe(200);
    // Once more with that cookie: the same answer, and the cookie stays.
    const again = await browser.post('/api/orders', { json: buyNowBody(p.id), headers });
    expect((await again.json()).id).toBe(id);
    expect(again.headers.getSetCookie()).toEqual([]);
    expect(ctx.gateway.payments()).toHaveLength(1);
  });

  test('the same key with another body: 422, no order, no cookie, no guest made, nothing about the first', async () => {
    const ctx = await seededApp();
    const p = aviator(ctx);
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await ctx.client().post('/api/orders', { json: buyNowBody(p.id), headers });
    const { id } = await first.json();
    const guests = guestCount(ctx);

    const stranger = ctx.client();
    const other = { ...customerInfo, email: 'mallory@example.com' };
    const guessed = await stranger.post('/api/orders', { json: buyNowBody(p.id, { customerInfo: other }), headers });
    expect(guessed.status).toBe(422);
    expect(await guessed.text()).not.toContain(String(id));
    expect(guessed.headers.getSetCookie()).toEqual([]);
    expect(stranger.cookies.size).toBe(0);
    expect(guestCount(ctx)).toBe(guests);
    expect(allOrders(ctx)).toHaveLength(1);
    expect(ctx.gateway.payments()).toHaveLength(1);
  });

  test('a key is one purchase per route: the same key on the cart checkout is a checkout of its own', async () => {
    const ctx = await checkoutStore();
    const key = crypto.randomUUID();
    const buyer = ctx.client();
    expect((await buyer.post('/api/orders', { json: buyNowBody(aviator(ctx).id), headers: { 'idempotency-key': key } })).status).toBe(201);
    const visitor = ctx.client();
    await fillCart(ctx, visitor);
    const body = await checkoutBody(visitor, STANDARD, { customer: { ...customer, email: 'vera@example.com' } });
    const paid = await visitor.post('/api/checkout', { json: body, headers: { 'idempotency-key': key } });
    expect(paid.status).toBe(201);
    expect(allOrders(ctx)).toHaveLength(2);
  });
});

describe("a guest's cart checkout retried without its cookie", () => {
  test('finds the first try: the same order, and no cookie handed out (the cart cookie was made before, not by that try)', async () => {
    const ctx = await checkoutStore();
    const visitor = ctx.client();
    await fillCart(ctx, visitor);
    const body = await checkoutBody(visitor, STANDARD, { customer: { ...customer, email: 'vera@example.com' } });
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const first = await visitor.post('/api/checkout', { json: body, headers });
    expect(first.status).toBe(201);
    const { orderId } = await first.json();
    const cookieless = ctx.client();
    const retry = await cookieless.post('/api/checkout', { json: body, headers });
    expect(retry.status).toBe(201);
    expect((await retry.json()).orderId).toBe(orderId);
    expect(cookieless.cookies.size).toBe(0);
    expect(allOrders(ctx).filter((o) => o.customerEmail === 'vera@example.com')).toHaveLength(1);
    const guest = allOrders(ctx).find((o) => o.id === orderId)!.userId;
    expect(ctx.db.select().from(users).where(eq(users.id, guest)).get()!.username).toStartWith('visitor:');
  });
});
