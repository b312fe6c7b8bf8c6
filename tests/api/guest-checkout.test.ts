import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema.ts';
import { CARD_ATTEMPTS_PER_ADDRESS } from '../../src/domain/payments/card-attempts.ts';
import { orderLinkKey } from '../../src/domain/orders/visitor-cart.ts';
import { allOrders, aviator, checkout, checkoutBody, checkoutStore, customer, fillCart, STANDARD, stockOf } from '../helpers/checkout.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { seededApp, type TestClient } from '../helpers/app.ts';
import { deliverOutbox } from '../helpers/outbox.ts';
import { parseHtml, textOf } from '../helpers/html.ts';

/*
 * Guest checkout (issue 27, item 5): POST /api/orders and POST /api/checkout without a session,
 * with the customer's e-mail; the receipt's signed link opens that order, and no other.
 */

const customerInfo = {
  name: 'Gus Guest',
  email: 'gus@example.com',
  phone: '949-555-0188',
  address: { line1: '5 Forest Ave', city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
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
const buyNow = (client: TestClient, json: unknown) => client.post('/api/orders', { json });

/** The order link in the receipt sent to `to`, as a path with its key. */
async function receiptLink(ctx: Parameters<typeof deliverOutbox>[0], to: string): Promise<string> {
  const sent = await deliverOutbox(ctx);
  const receipt = sent.find((mail) => mail.to === to && mail.kind === 'order_confirmation');
  expect(receipt).toBeDefined();
  const url = receipt!.text.match(/View your order: (\S+)/)?.[1];
  expect(url).toStartWith('https://shop.example.com/orders/');
  return url!.replace('https://shop.example.com', '');
}

describe('guest buy now', () => {
  test('the checkout page opens signed out and says how a guest gets the receipt and the order', async () => {
    const ctx = await seededApp();
    const page = await ctx.client().get(`/checkout?productId=${aviator(ctx).id}`);
    expect(page.status).toBe(200);
    const doc = parseHtml(await page.text());
    expect(textOf(doc.querySelector('[data-guest-checkout]')!)).toContain(
      'Buying as a guest: your receipt and a link to your order go to the e-mail you enter.',
    );
  });

  test('signed out with an e-mail: 201, charged once, the receipt links to the order with a key that opens it signed out', async () => {
    const ctx = await seededApp();
    const p = aviator(ctx);
    const visitor = ctx.client();
    const response = await buyNow(visitor, buyNowBody(p.id));
    expect(response.status).toBe(201);
    const { id } = await response.json();
    const order = allOrders(ctx).find((o) => o.id === id)!;
    expect(order).toMatchObject({ status: 'processing', customerEmail: 'gus@example.com', totalCents: 18468 });
    expect(ctx.db.select().from(users).where(eq(users.id, order.userId)).get()!.username).toStartWith('visitor:');
    expect(ctx.gateway.payments()).toHaveLength(1);
    expect(stockOf(ctx, p.id)).toBe(11);

    const link = await receiptLink(ctx, 'gus@example.com');
    expect(link).toBe(`/orders/${id}?key=${orderLinkKey(ctx.db, id)}`);
    // Someone else's browser, signed out, no cookie: the link alone opens the order.
    const page = await ctx.client().get(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    const doc = parseHtml(await page.text());
    expect(textOf(doc.querySelector('h1')!)).toBe(`Order #${id}`);
    expect(textOf(doc.querySelector('main')!)).toContain('5 Forest Ave');
    expect((await ctx.client().get(`/api/orders/${id}?key=${orderLinkKey(ctx.db, id)}`)).status).toBe(200);
    // The guest's own browser (its cart cookie) sees the confirmation page.
    expect((await visitor.get(`/order-confirmation/${id}`)).status).toBe(200);
    // The admin sees a guest checkout, not the guest account's inner name.
    const admin = await adminWithPin(ctx);
    const ordersTab = textOf(parseHtml(await (await admin.get('/admin?tab=orders')).text()).querySelector('main')!);
    expect(ordersTab).toContain('gus@example.com · Guest checkout');
    expect(ordersTab).not.toContain('visitor:');
  });

  test('without customerInfo.email: 400 naming the e-mail; no order, no guest account, nothing charged', async () => {
    const ctx = await seededApp();
    const p = aviator(ctx);
    const before = ctx.db.select().from(users).all().length;
    const { email: _omit, ...noEmail } = customerInfo;
    const response = await buyNow(ctx.client(), buyNowBody(p.id, { customerInfo: noEmail }));
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toHaveProperty('email');
    expect(allOrders(ctx)).toHaveLength(0);
    expect(ctx.db.select().from(users).all()).toHaveLength(before);
    expect(ctx.gateway.payments()).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
  });
});

describe('guests are limited like everyone', () => {
  test('declined cards from fresh browsers on one address: after CARD_ATTEMPTS_PER_ADDRESS the next is 429 and nothing is charged or ordered', async () => {
    const ctx = await seededApp();
    const p = aviator(ctx);
    for (let i = 0; i < CARD_ATTEMPTS_PER_ADDRESS; i++) {
      expect((await buyNow(ctx.client(), buyNowBody(p.id, { paymentToken: 'cnon:card-nonce-declined' }))).status).toBe(402);
    }
    const orders = allOrders(ctx).length;
    const refused = await buyNow(ctx.client(), buyNowBody(p.id));
    expect(refused.status).toBe(429);
    expect(allOrders(ctx)).toHaveLength(orders);
    expect(ctx.gateway.payments().filter((payment) => payment.status === 'COMPLETED')).toHaveLength(0);
    expect(stockOf(ctx, p.id)).toBe(12);
  });
});

describe('guest cart checkout', () => {
  test('a visitor fills a cart and pays cash on delivery: no card, no account; the e-mail carries the link', async () => {
    const ctx = await checkoutStore();
    const visitor = ctx.client();
    await fillCart(ctx, visitor);
    expect(visitor.cookies.get('csa_cart')).toBeDefined();
    const response = await checkout(visitor, await checkoutBody(visitor, STANDARD, { customer: { ...customer, email: 'vera@example.com' } }));
    expect(response.status).toBe(201);
    const { orderId } = await response.json();
    expect(allOrders(ctx).find((o) => o.id === orderId)).toMatchObject({ status: 'processing', paymentMethod: 'cod', customerEmail: 'vera@example.com' });
    expect(await (await visitor.get('/api/cart')).json()).toEqual([]);
    const link = await receiptLink(ctx, 'vera@example.com');
    expect((await ctx.client().get(link)).status).toBe(200);
  });

  test('without the customer details: 400 asking for the e-mail, nothing ordered', async () => {
    const ctx = await checkoutStore();
    const visitor = ctx.client();
    await fillCart(ctx, visitor);
    const { customer: _omit, ...body } = await checkoutBody(visitor, STANDARD);
    const response = await checkout(visitor, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      message: 'Enter your e-mail: your receipt and the link to your order go there.',
      fields: { email: 'Enter your e-mail: your receipt and the link to your order go there.' },
    });
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test('a second open cash order for the same e-mail from a fresh browser is refused (clearing cookies lifts no limit)', async () => {
    const ctx = await checkoutStore();
    for (const [i, expected] of [
      [0, 201],
      [1, 409],
    ] as const) {
      const visitor = ctx.client();
      await fillCart(ctx, visitor);
      const response = await checkout(visitor, await checkoutBody(visitor, STANDARD, { customer: { ...customer, email: 'Vera@Example.com' } }));
      expect([i, response.status]).toEqual([i, expected]);
    }
    expect(allOrders(ctx)).toHaveLength(1);
  });
});

describe('the order link refuses what it does not open', () => {
  async function twoGuestOrders() {
    const ctx = await seededApp();
    const first = await (await buyNow(ctx.client(), buyNowBody(aviator(ctx).id))).json();
    const second = await (await buyNow(ctx.client(), buyNowBody(aviator(ctx).id, { customerInfo: { ...customerInfo, email: 'other@example.com' } }))).json();
    return { ctx, first: first.id as number, second: second.id as number };
  }

  test('a wrong key: the page says the link opens no order and offers to log in, the API answers 401, nothing of the order shows', async () => {
    const { ctx, first } = await twoGuestOrders();
    const page = await ctx.client().get(`/orders/${first}?key=${'A'.repeat(32)}`);
    expect(page.status).toBe(404);
    const main = parseHtml(await page.text()).querySelector('main')!;
    expect(textOf(main)).toContain('This link does not open an order.');
    expect(textOf(main)).not.toContain('5 Forest Ave');
    expect(main.querySelector('a[href^="/auth?next="]')).not.toBeNull();
    expect((await ctx.client().get(`/api/orders/${first}?key=nope`)).status).toBe(401);
  });

  test("another order's key opens neither order for a stranger", async () => {
    const { ctx, first, second } = await twoGuestOrders();
    const key = orderLinkKey(ctx.db, second);
    expect((await ctx.client().get(`/orders/${first}?key=${key}`)).status).toBe(404);
    expect((await ctx.client().get(`/api/orders/${first}?key=${key}`)).status).toBe(401);
  });

  test('a signed-in stranger with a wrong key gets Order not found', async () => {
    const { ctx, first } = await twoGuestOrders();
    const stranger = ctx.client();
    expect((await stranger.post('/api/register', { json: { username: 'stranger', password: 'secret-pass' } })).status).toBe(201);
    expect((await stranger.get(`/orders/${first}?key=wrong`)).status).toBe(404);
    expect((await stranger.get(`/api/orders/${first}?key=wrong`)).status).toBe(404);
  });
});
