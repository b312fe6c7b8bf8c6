import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { emailOutbox, orders, products } from '../../src/db/schema.ts';
import { buyNowBody } from '../helpers/actors.ts';
import type { TestClient } from '../helpers/app.ts';
import { textOf } from '../helpers/html.ts';
import { cardCheckoutBody, squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';

/*
 * POST /api/admin/orders/{id}/ship {carrier, trackingNumber} for cart orders sent by carrier,
 * and the shopper's POST /api/orders/{id}/return-request {reason} within the guarantee.
 */

const open = squareStoresOfFile();
const DAY = 24 * 60 * 60 * 1000;

function ray(s: SquareStore) {
  return s.db.select().from(products).where(eq(products.brand, 'Ray-Ban')).get()!;
}

/** A cart order paid by card with standard shipping to Irvine. */
async function cartOrder(s: SquareStore, client: TestClient): Promise<number> {
  const product = ray(s);
  expect((await client.post('/api/cart', { json: { productId: product.id, quantity: 1 } })).status).toBe(201);
  const body = await cardCheckoutBody(client, { address: '18 Technology Dr', city: 'Irvine', state: 'CA', zipCode: '92618' });
  const placed = await client.post('/api/checkout', { json: body });
  expect(placed.status).toBe(201);
  return ((await placed.json()) as { orderId: number }).orderId;
}

async function localOrder(s: SquareStore, client: TestClient): Promise<number> {
  const product = ray(s);
  const bought = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
  expect(bought.status).toBe(201);
  return ((await bought.json()) as { id: number }).id;
}

const orderOf = (s: SquareStore, id: number) => s.db.select().from(orders).where(eq(orders.id, id)).get()!;

describe.concurrent('shipping cart orders', () => {
  test('the admin ships a cart order: shipped with carrier and tracking, shown to the shopper and e-mailed; then delivered', async () => {
    const s = await open();
    const shopper = await s.shopper('irvine');
    const admin = s.admin();
    const id = await cartOrder(s, shopper.client);
    const shipped = await admin.post(`/api/admin/orders/${id}/ship`, { json: { carrier: 'UPS', trackingNumber: '1z 999aa1 0123456784' } });
    expect(shipped.status).toBe(200);
    expect((await shipped.json()).message).toBe(`Order #${id} shipped with UPS, tracking number 1Z999AA10123456784. The customer was told.`);
    expect(orderOf(s, id)).toMatchObject({ status: 'shipped', carrier: 'UPS', trackingNumber: '1Z999AA10123456784' });

    const page = await (await shopper.client.get(`/orders/${id}`)).text();
    expect(textOf(page)).toContain('Shipped with UPS');
    expect(textOf(page)).toContain('1Z999AA10123456784');
    expect(page).toContain('https://www.ups.com/track?tracknum=1Z999AA10123456784');
    const mail = s.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.eventKey, `order:${id}:shipped`))
      .get();
    expect(mail?.subject).toBe(`Order #${id} has shipped`);
    expect(mail?.textBody).toContain('1Z999AA10123456784');

    const twice = await admin.post(`/api/admin/orders/${id}/ship`, { json: { carrier: 'UPS', trackingNumber: '1Z999AA10123456784' } });
    expect(twice.status).toBe(409);
    expect((await twice.json()).message).toContain('has already shipped');
    expect((await admin.post(`/api/admin/orders/${id}/status`, { json: { status: 'completed' } })).status).toBe(200);
    expect(orderOf(s, id).status).toBe('completed');
  });

  test('refused: a local delivery, a bad tracking number, an unknown carrier, a shopper; nothing changes', async () => {
    const s = await open();
    const shopper = await s.shopper('local');
    const admin = s.admin();
    const local = await localOrder(s, shopper.client);
    const refused = await admin.post(`/api/admin/orders/${local}/ship`, { json: { carrier: 'USPS', trackingNumber: '9400111899223100000000' } });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toContain('delivered by our own driver');
    const cart = await cartOrder(s, shopper.client);
    const bad = await admin.post(`/api/admin/orders/${cart}/ship`, { json: { carrier: 'USPS', trackingNumber: '12#' } });
    expect(bad.status).toBe(400);
    expect((await bad.json()).fields.trackingNumber).toContain('tracking number');
    const carrier = await admin.post(`/api/admin/orders/${cart}/ship`, { json: { carrier: 'Pigeon', trackingNumber: '9400111899223100000000' } });
    expect(carrier.status).toBe(400);
    expect((await shopper.client.post(`/api/admin/orders/${cart}/ship`, { json: { carrier: 'USPS', trackingNumber: '9400111899223100000000' } })).status).toBe(
      403,
    );
    expect(orderOf(s, cart).status).toBe('processing');
    expect(orderOf(s, local).status).toBe('processing');
  });
});

describe.concurrent('the shopper asks to return an order', () => {
  test('within the guarantee: requested once, on the order page, e-mailed to support, listed for the admin until refunded', async () => {
    const s = await open();
    const shopper = await s.shopper('returner');
    const admin = s.admin();
    const id = await localOrder(s, shopper.client);
    expect((await admin.post(`/api/admin/orders/${id}/status`, { json: { status: 'completed' } })).status).toBe(200);

    const asked = await shopper.client.post(`/api/orders/${id}/return-request`, { json: { reason: 'Too small for my face' } });
    expect(asked.status).toBe(201);
    const page = textOf(await (await shopper.client.get(`/orders/${id}`)).text());
    expect(page).toContain('Return requested');
    expect(page).toContain('Too small for my face');
    const mail = s.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.eventKey, `order:${id}:return-request`))
      .get();
    expect(mail?.toAddress).toBe('help@localhost');
    expect(mail?.textBody).toContain('Too small for my face');

    const again = await shopper.client.post(`/api/orders/${id}/return-request`, { json: { reason: 'Still too small' } });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(`You already asked to return order #${id}. We will e-mail you within one business day.`);

    const tab = textOf(await (await admin.get('/admin?tab=orders')).text());
    expect(tab).toContain(`Needs attention: Return requests (1) Order #${id}`);
    expect(tab).toContain('Too small for my face');
    expect((await admin.post(`/api/admin/orders/${id}/refund`, { json: { amountCents: 1000, reason: 'Return accepted' } })).status).toBe(200);
    const after = textOf(await (await admin.get('/admin?tab=orders')).text());
    expect(after).not.toContain('Needs attention: Return requests');
    expect(after).toContain('"Too small for my face" (refunded)');
  });

  test('refused: not delivered yet, past the guarantee, no reason, someone else, signed out', async () => {
    const s = await open();
    const shopper = await s.shopper('early');
    const other = await s.shopper('other');
    const admin = s.admin();
    const id = await localOrder(s, shopper.client);
    const early = await shopper.client.post(`/api/orders/${id}/return-request`, { json: { reason: 'Changed my mind' } });
    expect(early.status).toBe(409);
    expect((await early.json()).message).toContain('has not been delivered yet');
    expect((await admin.post(`/api/admin/orders/${id}/status`, { json: { status: 'completed' } })).status).toBe(200);
    const noReason = await shopper.client.post(`/api/orders/${id}/return-request`, { json: { reason: ' ' } });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).fields).toHaveProperty('reason');
    expect((await other.client.post(`/api/orders/${id}/return-request`, { json: { reason: 'Not mine' } })).status).toBe(404);
    const visitor = await s.app.request(`/api/orders/${id}/return-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost' },
      body: JSON.stringify({ reason: 'Who am I' }),
    });
    expect(visitor.status).toBe(401);
    s.db
      .update(orders)
      .set({ deliveredAt: s.clock.now() - 31 * DAY })
      .where(eq(orders.id, id))
      .run();
    const late = await shopper.client.post(`/api/orders/${id}/return-request`, { json: { reason: 'Changed my mind' } });
    expect(late.status).toBe(409);
    expect((await late.json()).message).toContain('30-day money-back guarantee');
    expect(orderOf(s, id).returnRequestedAt).toBeNull();
  });
});
