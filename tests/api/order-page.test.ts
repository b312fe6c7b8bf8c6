import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { emailOutbox, orders, products, userProfiles } from '../../src/db/schema.ts';
import { buyNowBody, completeProfile } from '../helpers/actors.ts';
import { type Store, seededStore, signedInAdmin, signedInUser } from '../helpers/admin-tools.ts';
import { count, mainOf, text, textOf } from '../helpers/html.ts';

/* /orders/{id}: one order for its owner, the order history's grouping, and the order e-mails. */

function firstProduct(ctx: Store) {
  return ctx.db.select().from(products).where(eq(products.productType, 'sunglasses')).get()!;
}

async function shopperWithOrder(ctx: Store, token?: string) {
  const shopper = signedInUser(ctx, 'lena');
  completeProfile(ctx, shopper.id);
  const product = firstProduct(ctx);
  const body = { ...buyNowBody(product.id, product.priceCents), ...(token ? { paymentToken: token } : {}) };
  const response = await shopper.client.post('/api/orders', { json: body });
  return { shopper, product, response, body };
}

const emailsOf = (ctx: Store) => ctx.db.select().from(emailOutbox).all();

describe('/order-confirmation/{id}', () => {
  test('one link to the order, and the delivery address', async () => {
    const ctx = await seededStore();
    const { shopper, response } = await shopperWithOrder(ctx);
    const { id } = (await response.json()) as { id: number };
    const html = await (await shopper.client.get(`/order-confirmation/${id}`)).text();
    expect(count(mainOf(html), `a[href="/orders/${id}"]`)).toBe(1);
    expect(text(html, '[data-delivery-address]')).toBe('123 Coast Hwy, Laguna Beach CA 92651, USA');
  });
});

describe('/orders/{id}', () => {
  test('its owner sees items linked to the product, address, delivery, card and last four, totals and the timeline; a receipt e-mail is queued once', async () => {
    const ctx = await seededStore();
    const { shopper, product, response } = await shopperWithOrder(ctx);
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    const html = await (await shopper.client.get(`/orders/${id}`)).text();
    const text = textOf(html);
    expect(html).toContain(`href="/product/${product.id}"`);
    expect(text).toContain(`Order #${id}`);
    expect(text).toContain('123 Coast Hwy, Laguna Beach CA 92651');
    expect(text).toContain('Automatic Delivery - Free (within 2-3 hours)');
    expect(text).toContain('Card: Visa ending in 1111');
    expect(text).toContain(`$${(product.priceCents / 100).toFixed(2)}`);
    expect(text).toContain('Print receipt');
    expect(html).toContain('data-step="Placed"');
    expect(html).toContain('data-step="Paid"');
    expect(ctx.db.select().from(orders).where(eq(orders.id, id)).get()).toMatchObject({ cardBrand: 'VISA', cardLast4: '1111' });

    const mails = emailsOf(ctx);
    expect(mails.map((m) => [m.kind, m.eventKey, m.toAddress, m.status])).toEqual([
      ['order_confirmation', `order:${id}:confirmation`, 'lena@example.com', 'pending'],
    ]);
    expect(mails[0]?.subject).toBe(`Your order #${id} is confirmed`);
    expect(mails[0]?.textBody).toContain('Visa ending in 1111');
    expect(mails[0]?.textBody).toContain(`/orders/${id}`);
    expect(mails[0]?.htmlBody).toContain('Total');
  });

  test('someone else gets the not-found page, a visitor goes to /auth first, nonsense ids are 404', async () => {
    const ctx = await seededStore();
    const { response } = await shopperWithOrder(ctx);
    const { id } = (await response.json()) as { id: number };
    const other = signedInUser(ctx, 'mallory');
    const theirs = await other.client.get(`/orders/${id}`);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).not.toContain('123 Coast Hwy');
    for (const path of ['/orders/0', '/orders/-1', '/orders/abc', '/orders/99999999999999999999', '/orders/1.5'])
      expect((await other.client.get(path)).status).toBe(404);
    const visitor = await ctx.client().get(`/orders/${id}`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toBe(`/auth?next=${encodeURIComponent(`/orders/${id}`)}`);
  });

  test('canceled by the admin: the timeline shows Canceled and Refunded with the amount, the refund e-mail goes out once', async () => {
    const ctx = await seededStore();
    const { shopper, product, response } = await shopperWithOrder(ctx);
    const { id } = (await response.json()) as { id: number };
    const admin = await signedInAdmin(ctx);
    expect((await admin.post(`/api/admin/orders/${id}/status`, { json: { status: 'canceled' } })).status).toBe(200);
    const html = await (await shopper.client.get(`/orders/${id}`)).text();
    const total = Math.round(product.priceCents * 1.08) / 100;
    expect(html).toContain('data-step="Canceled"');
    expect(html).toContain('data-step="Refunded"');
    expect(textOf(html)).toContain(`$${total.toFixed(2)} to your Visa ending in 1111`);
    expect(textOf(html)).toContain(`Refunded -$${total.toFixed(2)}`);
    const refund = emailsOf(ctx).filter((m) => m.kind === 'order_refund');
    expect(refund.map((m) => m.eventKey)).toEqual([`order:${id}:refunded`]);
    expect(refund[0]?.textBody).toContain(`$${total.toFixed(2)} has been refunded`);
    // Asking again changes nothing and sends nothing more.
    expect((await admin.post(`/api/admin/orders/${id}/status`, { json: { status: 'canceled' } })).status).toBe(409);
    expect(emailsOf(ctx).filter((m) => m.kind === 'order_refund')).toHaveLength(1);
  });

  test('delivered: timeline and a delivered e-mail, which respects the e-mail preference', async () => {
    const ctx = await seededStore();
    const { shopper, response } = await shopperWithOrder(ctx);
    const { id } = (await response.json()) as { id: number };
    const admin = await signedInAdmin(ctx);
    expect((await admin.post(`/api/admin/orders/${id}/status`, { json: { status: 'completed' } })).status).toBe(200);
    expect(await (await shopper.client.get(`/orders/${id}`)).text()).toContain('data-step="Delivered"');
    expect(emailsOf(ctx).find((m) => m.kind === 'order_delivered')).toMatchObject({ eventKey: `order:${id}:delivered`, status: 'pending' });

    // With e-mail notifications off, the delivery notice is kept as skipped; receipts still go out.
    ctx.db.update(userProfiles).set({ emailNotifications: false }).where(eq(userProfiles.userId, shopper.id)).run();
    const product = firstProduct(ctx);
    const second = (await (await shopper.client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) })).json()) as { id: number };
    expect((await admin.post(`/api/admin/orders/${second.id}/status`, { json: { status: 'completed' } })).status).toBe(200);
    const mails = emailsOf(ctx).filter((m) => m.eventKey.startsWith(`order:${second.id}:`));
    expect(mails.map((m) => [m.kind, m.status])).toEqual([
      ['order_confirmation', 'pending'],
      ['order_delivered', 'skipped'],
    ]);
  });

  test('history: declined attempts are grouped under the order that went through; a lone failure shows for a day, then hides', async () => {
    const ctx = await seededStore();
    const shopper = signedInUser(ctx, 'lena');
    completeProfile(ctx, shopper.id);
    const product = firstProduct(ctx);
    const declined = await shopper.client.post('/api/orders', {
      json: { ...buyNowBody(product.id, product.priceCents), paymentToken: 'cnon:card-nonce-declined' },
    });
    expect(declined.status).toBe(402);
    let history = (await (await shopper.client.get('/api/user/orders')).json()) as { id: number; status: string; declinedAttempts: number }[];
    expect(history.map((o) => o.status)).toEqual(['failed']);
    ctx.clock.advance(60_000);
    const paid = await shopper.client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
    expect(paid.status).toBe(201);
    const { id } = (await paid.json()) as { id: number };
    history = (await (await shopper.client.get('/api/user/orders')).json()) as typeof history;
    expect(history.map((o) => [o.id, o.status, o.declinedAttempts])).toEqual([[id, 'processing', 1]]);
    expect(textOf(await (await shopper.client.get('/profile?tab=orders')).text())).toContain('1 declined attempt before this order');

    // Another product, declined and never retried: listed today, hidden after a day.
    const other = ctx.db.select().from(products).where(eq(products.productType, 'shoe')).get()!;
    expect(
      (await shopper.client.post('/api/orders', { json: { ...buyNowBody(other.id, other.priceCents), paymentToken: 'cnon:card-nonce-declined' } })).status,
    ).toBe(402);
    history = (await (await shopper.client.get('/api/user/orders')).json()) as typeof history;
    expect(history.map((o) => o.status)).toEqual(['failed', 'processing']);
    ctx.clock.advance(25 * 3_600_000);
    history = (await (await shopper.client.get('/api/user/orders')).json()) as typeof history;
    expect(history.map((o) => o.status)).toEqual(['processing']);
  });
});
