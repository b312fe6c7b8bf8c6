import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { emailOutbox, notifications, orders, payments, products } from '../../src/db/schema.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { afterRedirect, postForm } from '../helpers/admin-tools.ts';
import { attribute, textOf } from '../helpers/html.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';

/*
 * POST /api/admin/orders/{id}/refund against the fake Square: full or part of a delivered
 * order within the 30-day guarantee, once under a double submit, never more than was paid,
 * and a lost answer finished by the reconciler with the same key.
 */

const open = squareStoresOfFile();
const DAY = 24 * 60 * 60 * 1000;
const REFUNDS = { method: 'POST', path: '/v2/refunds' };

/** The Orders tab's refund form as the confirmation step sends it (the button alone only asks: tests/api/admin-confirmations). */
const confirmedRefund = (admin: Parameters<typeof postForm>[0], orderId: number, fields: Record<string, string>) =>
  postForm(admin, `/admin/orders/${orderId}/refund`, { ...fields, confirmed: 'yes' });

async function deliveredOrder(s: SquareStore, username: string, { deliver = true } = {}) {
  const shopper = await s.shopper(username);
  const product = s.db.select().from(products).where(eq(products.brand, 'Ray-Ban')).get()!;
  const bought = await shopper.client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
  expect(bought.status).toBe(201);
  const orderId = ((await bought.json()) as { id: number }).id;
  const admin = s.admin(`admin-${username}`);
  if (deliver) expect((await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'completed' } })).status).toBe(200);
  const totalCents = s.db.select().from(orders).where(eq(orders.id, orderId)).get()!.totalCents;
  return { shopper, admin, orderId, totalCents };
}

const refundRows = (s: SquareStore, orderId: number) =>
  s.db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'refund')))
    .all();

describe.concurrent('admin refunds after delivery', () => {
  test('a part, then the rest: two refunds at Square, the reason on the shopper page and in the e-mail, then nothing left', async () => {
    const s = await open();
    const { shopper, admin, orderId, totalCents } = await deliveredOrder(s, 'partial');
    const part = await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { amountCents: 2500, reason: 'Scratched lens' } });
    expect(part.status).toBe(200);
    expect((await part.json()).message).toBe(`Refunded $25.00 of order #${orderId}.`);
    expect(s.fake.refunds().map((r) => r.amount_money.amount)).toEqual([2500]);

    const page = textOf(await (await shopper.client.get(`/orders/${orderId}`)).text());
    expect(page).toContain('Scratched lens');
    expect(page).toContain('-$25.00');
    const mail = s.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.eventKey, `order:${orderId}:refund:1`))
      .get();
    expect(mail?.textBody).toContain('Reason: Scratched lens');
    expect(mail?.subject).toBe(`Refund of $25.00 for order #${orderId}`);

    const over = await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { amountCents: totalCents, reason: 'Everything' } });
    expect(over.status).toBe(409);
    expect((await over.json()).message).toBe(`At most $${((totalCents - 2500) / 100).toFixed(2)} of order #${orderId} can still be refunded.`);
    expect(s.fake.refunds()).toHaveLength(1);

    const rest = await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { reason: 'Returned the frame too' } });
    expect(rest.status).toBe(200);
    expect(s.fake.refunds().map((r) => r.amount_money.amount)).toEqual([2500, totalCents - 2500]);
    const charge = s.db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.kind, 'order_charge')))
      .get()!;
    expect(charge.status).toBe('refunded');

    const again = await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { amountCents: 1, reason: 'One more cent' } });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe(`Order #${orderId} has already been refunded in full.`);
    expect(s.fake.refunds()).toHaveLength(2);
  });

  test('a double submit with one Idempotency-Key refunds once and answers the same twice', async () => {
    const s = await open();
    const { admin, orderId } = await deliveredOrder(s, 'doubled');
    s.fake.setLatency(300, REFUNDS);
    const headers = { 'idempotency-key': 'refund-form-1' };
    const body = { json: { amountCents: 1000, reason: 'Late delivery' }, headers };
    const [first, second] = await Promise.all([
      admin.post(`/api/admin/orders/${orderId}/refund`, body),
      admin.post(`/api/admin/orders/${orderId}/refund`, body),
    ]);
    expect([first!.status, second!.status]).toEqual([200, 200]);
    expect(await first!.text()).toBe(await second!.text());
    expect(s.fake.refunds()).toHaveLength(1);
    expect(refundRows(s, orderId)).toHaveLength(1);
  });

  test('refused: past the guarantee, not delivered yet, cash on delivery, no reason, a shopper, a missing order; nothing reaches Square', async () => {
    const s = await open();
    const late = await deliveredOrder(s, 'late');
    // Delivered 31 days ago (moving the clock instead would end the admin's session too).
    s.db
      .update(orders)
      .set({ deliveredAt: s.clock.now() - 31 * DAY })
      .where(eq(orders.id, late.orderId))
      .run();
    const past = await late.admin.post(`/api/admin/orders/${late.orderId}/refund`, { json: { reason: 'Changed my mind' } });
    expect(past.status).toBe(409);
    expect((await past.json()).message).toContain('past the 30-day money-back guarantee');

    const waiting = await deliveredOrder(s, 'waiting', { deliver: false });
    const early = await waiting.admin.post(`/api/admin/orders/${waiting.orderId}/refund`, { json: { reason: 'Changed my mind' } });
    expect(early.status).toBe(409);
    expect((await early.json()).message).toBe(`Order #${waiting.orderId} has not been delivered or shipped yet: cancel it to refund it in full.`);

    s.db.update(orders).set({ paymentMethod: 'cod' }).where(eq(orders.id, waiting.orderId)).run();
    await waiting.admin.post(`/api/admin/orders/${waiting.orderId}/status`, { json: { status: 'completed' } });
    const cash = await waiting.admin.post(`/api/admin/orders/${waiting.orderId}/refund`, { json: { reason: 'Changed my mind' } });
    expect(cash.status).toBe(409);
    expect((await cash.json()).message).toContain('paid in cash on delivery');

    const noReason = await waiting.admin.post(`/api/admin/orders/${late.orderId}/refund`, { json: { amountCents: 100 } });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).fields).toHaveProperty('reason');
    const badAmount = await waiting.admin.post(`/api/admin/orders/${late.orderId}/refund`, { json: { amountCents: -5, reason: 'Refund' } });
    expect(badAmount.status).toBe(400);
    const byShopper = await late.shopper.client.post(`/api/admin/orders/${late.orderId}/refund`, { json: { reason: 'Give it back' } });
    expect(byShopper.status).toBe(403);
    const missing = await late.admin.post('/api/admin/orders/999999/refund', { json: { reason: 'Nobody' } });
    expect(missing.status).toBe(404);
    expect(s.fake.refunds()).toHaveLength(0);
    expect(refundRows(s, late.orderId)).toHaveLength(0);
  });

  test('an answer lost after Square refunded: 202, then the reconciler confirms it with the same key; the card is refunded once', async () => {
    const s = await open();
    const { shopper, admin, orderId } = await deliveredOrder(s, 'lost');
    s.fake.failNext({ status: 500, afterProcessing: true }, REFUNDS);
    const sent = await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { amountCents: 1500, reason: 'Box was damaged' } });
    expect(sent.status).toBe(202);
    expect(refundRows(s, orderId).map((r) => r.status)).toEqual(['refunding']);
    s.clock.advance(2 * 60_000);
    await s.tick();
    expect(refundRows(s, orderId).map((r) => r.status)).toEqual(['refunded']);
    expect(s.fake.refunds()).toHaveLength(1);
    const told = s.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, shopper.id), eq(notifications.title, 'Refund on its way')))
      .all();
    expect(told).toHaveLength(1);
    // A lost answer never moves the order: it stays delivered, not canceled.
    expect(s.db.select().from(orders).where(eq(orders.id, orderId)).get()!.status).toBe('completed');
  });

  test('refused by Square: 502, nothing refunded, the row failed; the next try goes through', async () => {
    const s = await open();
    const { admin, orderId } = await deliveredOrder(s, 'refused');
    s.fake.failNext({ status: 400 }, REFUNDS);
    const refused = await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { amountCents: 700, reason: 'Wrong colour' } });
    expect(refused.status).toBe(502);
    expect((await refused.json()).message).toContain('Nothing was refunded');
    expect(refundRows(s, orderId).map((r) => r.status)).toEqual(['failed']);
    const retried = await admin.post(`/api/admin/orders/${orderId}/refund`, { json: { amountCents: 700, reason: 'Wrong colour' } });
    expect(retried.status).toBe(200);
    expect(s.fake.refunds()).toHaveLength(1);
  });

  test("the Orders tab's refund form sent twice (same key) refunds once; its dollars are read as typed; a zero is refused", async () => {
    const s = await open();
    const { admin, orderId } = await deliveredOrder(s, 'formed');
    const form = { amount: '$12.5', reason: 'Strap missing', key: 'refund-1' };
    const [first, second] = await Promise.all([confirmedRefund(admin, orderId, form), confirmedRefund(admin, orderId, form)]);
    expect([first!.status, second!.status]).toEqual([303, 303]);
    expect(first!.headers.get('location')).toBe(`/admin?tab=orders#order-${orderId}`);
    expect(s.fake.refunds().map((r) => r.amount_money.amount)).toEqual([1250]);
    expect(refundRows(s, orderId)).toHaveLength(1);
    const zero = await confirmedRefund(admin, orderId, { amount: '0', reason: 'Nothing', key: 'refund-2' });
    expect(zero.status).toBe(303);
    expect(refundRows(s, orderId)).toHaveLength(1);
    const next = await confirmedRefund(admin, orderId, { amount: '2', reason: 'Postage back', key: 'refund-2' });
    expect(next.status).toBe(303);
    expect(s.fake.refunds().map((r) => r.amount_money.amount)).toEqual([1250, 200]);
  });
  test('two tabs, two forms: each form has its own key, so two different refunds both go through; one form sent twice refunds once', async () => {
    const s = await open();
    const { admin, orderId, totalCents } = await deliveredOrder(s, 'twotabs');
    // The refund form as a tab shows it: its key is made when the page is rendered.
    const formKey = async () => {
      const html = await (await admin.get('/admin?tab=orders')).text();
      return attribute(html, `form[action="/admin/orders/${orderId}/refund"] input[name="key"]`, 'value')!;
    };
    const [tabA, tabB] = [await formKey(), await formKey()];
    expect(tabA).toMatch(/^refund-[0-9a-f-]{36}$/);
    expect(tabB).not.toBe(tabA);

    const first = await confirmedRefund(admin, orderId, { amount: '10', reason: 'Scratched lens', key: tabA });
    expect((await afterRedirect(admin, first)).toast).toMatchObject({ title: 'Refunded' });
    const second = await confirmedRefund(admin, orderId, { amount: '5', reason: 'Late delivery', key: tabB });
    expect((await afterRedirect(admin, second)).toast).toMatchObject({ title: 'Refunded', description: `Refunded $5.00 of order #${orderId}.` });
    expect(s.fake.refunds().map((r) => r.amount_money.amount)).toEqual([1000, 500]);

    // Tab A's form sent again (a double click, a reload): the first refund, not a third.
    const again = await confirmedRefund(admin, orderId, { amount: '10', reason: 'Scratched lens', key: tabA });
    expect((await afterRedirect(admin, again)).toast).toMatchObject({ title: 'Refunded', description: `Refunded $10.00 of order #${orderId}.` });
    // ... or sent again with other words: told why not, nothing refunded.
    const edited = await confirmedRefund(admin, orderId, { amount: '7', reason: 'Scratched lens', key: tabA });
    expect((await afterRedirect(admin, edited)).toast).toMatchObject({
      title: 'Not refunded',
      description: `This refund form was already sent: it refunded $10.00 of order #${orderId}. Open the order again for another refund.`,
    });
    expect(s.fake.refunds()).toHaveLength(2);
    expect(refundRows(s, orderId)).toHaveLength(2);

    // A third tab asks for more than is left: told how much is.
    const left = totalCents - 1500;
    const tabC = await formKey();
    const over = await confirmedRefund(admin, orderId, { amount: ((left + 100) / 100).toFixed(2), reason: 'Everything', key: tabC });
    expect((await afterRedirect(admin, over)).toast).toMatchObject({
      title: 'Not refunded',
      description: `At most $${(left / 100).toFixed(2)} of order #${orderId} can still be refunded.`,
    });
    expect(s.fake.refunds()).toHaveLength(2);
  });
});
