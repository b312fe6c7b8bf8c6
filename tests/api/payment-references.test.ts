import { describe, expect, spyOn, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { influencers, notifications, orders, payments, plays, products } from '../../src/db/schema.ts';
import { gatewayKeyPrefix } from '../../src/domain/payments/keys.ts';
import { log } from '../../src/log.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { TEST_PIN, type TestClient } from '../helpers/app.ts';
import { FAKE_SQUARE_LOCATION, FAKE_SQUARE_TOKEN } from '../helpers/fake-square.ts';
import { textOf } from '../helpers/html.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';

/*
 * Issue 25, rows 3 and 4: a payment at Square pays only the row it was made for. "Mark paid" takes
 * the order's own payment (its reference is the order's key) unless the admin gives a reason,
 * never a payment that already pays another order; and a payment found under our key whose
 * amount does not match is never taken as paid: it goes to "Needs attention".
 */

const MINUTE = 60_000;
const CHARGE = { method: 'POST', path: '/v2/payments' };
const LIST = { method: 'GET', path: '/v2/payments' };

const openStore = squareStoresOfFile();

const aviator = (s: SquareStore) => s.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
const orderOf = (s: SquareStore, id: number) => s.db.select().from(orders).where(eq(orders.id, id)).get()!;
const chargeOf = (s: SquareStore, orderId: number) => s.db.select().from(payments).where(eq(payments.orderId, orderId)).get()!;
const resolve = (admin: TestClient, id: number, json: unknown) => admin.post(`/api/admin/payments/${id}/resolve`, { json });

/** A payment made at Square outside the store (the Dashboard, another store, an older copy of this one). */
async function paymentAtSquare(s: SquareStore, amountCents: number, referenceId: string): Promise<{ id: string }> {
  const response = await fetch(`${s.fake.url}/v2/payments`, {
    method: 'POST',
    headers: { authorization: `Bearer ${FAKE_SQUARE_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      idempotency_key: crypto.randomUUID(),
      source_id: 'cnon:card-nonce-ok',
      amount_money: { amount: amountCents, currency: 'USD' },
      autocomplete: true,
      location_id: FAKE_SQUARE_LOCATION,
      reference_id: referenceId,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()).payment;
}

/** A buy-now whose answer was lost (taken at Square or not) while Square's lookups failed too: pending. */
async function unconfirmedOrder(s: SquareStore, username: string, taken: boolean): Promise<number> {
  const { client } = await s.shopper(username);
  const product = aviator(s);
  s.fake.failNext({ status: 500, afterProcessing: taken }, CHARGE);
  s.fake.failNext({ status: 503 }, LIST);
  const answer = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
  expect(answer.status).toBe(502);
  const orderId = (await answer.json()).orderId as number;
  expect(orderOf(s, orderId).status).toBe('pending');
  return orderId;
}

describe.concurrent('a gateway payment pays only its own row', () => {
  test("Mark paid refuses another order's payment of the same amount; a payment made elsewhere needs a reason, kept and logged", async () => {
    const s = await openStore();
    const twelve = await unconfirmedOrder(s, 'twelve', true);
    const thirteen = await unconfirmedOrder(s, 'thirteen', false);
    s.clock.advance(3 * MINUTE);
    const admin = s.admin();
    const [taken] = s.fake.payments();
    expect(taken.reference_id).toBe(chargeOf(s, twelve).idempotencyKey);
    const rowOf13 = chargeOf(s, thirteen).id;

    // #12's payment, same amount, offered for #13: its reference is #12's key.
    const other = await resolve(admin, rowOf13, { action: 'mark_paid', gatewayPaymentId: taken.id });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ code: 'REFERENCE_MISMATCH', fields: { overrideReason: expect.stringContaining('give the reason') } });
    expect(orderOf(s, thirteen).status).toBe('pending');

    expect((await resolve(admin, chargeOf(s, twelve).id, { action: 'mark_paid', gatewayPaymentId: taken.id })).status).toBe(200);
    expect(orderOf(s, twelve)).toMatchObject({ status: 'processing', paymentId: taken.id });
    // Now it pays #12: no reason makes it pay #13 too.
    const twice = await resolve(admin, rowOf13, { action: 'mark_paid', gatewayPaymentId: taken.id, overrideReason: 'same customer' });
    expect(twice.status).toBe(409);
    expect((await twice.json()).message).toContain(`already pays order #${twelve}`);
    expect(orderOf(s, thirteen).status).toBe('pending');

    // Taken by hand in the Square Dashboard: accepted only with the admin's reason, which is kept, shown and logged.
    const byPhone = await paymentAtSquare(s, chargeOf(s, thirteen).amountCents, 'dashboard-sale');
    expect((await resolve(admin, rowOf13, { action: 'mark_paid', gatewayPaymentId: byPhone.id })).status).toBe(409);
    const warn = spyOn(log, 'warn');
    const reason = 'Charged by phone in the Square Dashboard';
    const accepted = await resolve(admin, rowOf13, { action: 'mark_paid', gatewayPaymentId: byPhone.id, overrideReason: reason });
    expect(accepted.status).toBe(200);
    // Other tests of this file run at once: this test's line is the one naming its payment.
    const logged = warn.mock.calls.find(([line]) => {
      const fields = line as { event?: string; gatewayPaymentId?: string };
      return fields.event === 'marked_paid_override' && fields.gatewayPaymentId === byPhone.id;
    });
    warn.mockRestore();
    expect(logged?.[0]).toMatchObject({ orderId: thirteen, gatewayPaymentId: byPhone.id, reference: 'dashboard-sale', admin: 'boss', reason });
    expect(orderOf(s, thirteen)).toMatchObject({ status: 'processing', paymentId: byPhone.id });
    expect(chargeOf(s, thirteen).reviewNote).toContain(reason);
    const listed = (await (await admin.get('/api/admin/orders')).json()) as { id: number; paymentNote: string | null }[];
    expect(listed.find((o) => o.id === thirteen)?.paymentNote).toContain(reason);
    expect(textOf(await (await admin.get('/admin?tab=orders')).text())).toContain(reason);
  });

  test("the admin form: another order's payment is refused with a toast, the reason field lets it through", async () => {
    const s = await openStore();
    const paid = await unconfirmedOrder(s, 'paid-one', true);
    const stuck = await unconfirmedOrder(s, 'stuck-one', false);
    s.clock.advance(3 * MINUTE);
    const admin = s.admin();
    const html = await (await admin.get('/admin?tab=orders')).text();
    expect(textOf(html)).toContain(`Reason, only to use a payment made for another reference than ${chargeOf(s, stuck).idempotencyKey}`);
    const [taken] = s.fake.payments();
    const form = (fields: Record<string, string>) =>
      admin.post(`/admin/payments/${chargeOf(s, stuck).id}/resolve`, { form: { action: 'mark_paid', ...fields } });
    expect((await form({ gatewayPaymentId: taken.id })).status).toBe(303);
    expect(textOf(await (await admin.get('/admin?tab=orders')).text())).toContain('Payment not changed');
    expect(orderOf(s, stuck).status).toBe('pending');
    expect(orderOf(s, paid).status).toBe('pending');
    expect((await form({ gatewayPaymentId: taken.id, overrideReason: 'The customer paid for both at once' })).status).toBe(303);
    expect(orderOf(s, stuck)).toMatchObject({ status: 'processing', paymentId: taken.id });
    expect(chargeOf(s, stuck).reviewNote).toContain('The customer paid for both at once');
    // The order it was made for can no longer be marked paid with it.
    const again = await resolve(admin, chargeOf(s, paid).id, { action: 'mark_paid', gatewayPaymentId: taken.id });
    expect(again.status).toBe(409);
    expect(orderOf(s, paid).status).toBe('pending');
  });

  test('a payment under our key for another amount (an older copy of the store) never pays: Needs attention, at once and after the reconciler', async () => {
    const s = await openStore();
    const admin = s.admin();
    const { client } = await s.shopper('restored');
    const product = aviator(s);
    const nextOrder = (s.db.select({ id: orders.id }).from(orders).all().at(-1)?.id ?? 0) + 1;
    const key = `${gatewayKeyPrefix(s.db)}-charge-${nextOrder}`;
    // Square already holds $540 under the key this order is about to get, and this order's own charge is lost on the way.
    await paymentAtSquare(s, 54_000, key);
    s.fake.failNext({ status: 500 }, CHARGE);
    const answer = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
    expect(answer.status).toBe(502);
    expect((await answer.json()).orderId).toBe(nextOrder);
    expect(orderOf(s, nextOrder).status).toBe('pending');
    expect(chargeOf(s, nextOrder)).toMatchObject({ status: 'charging', idempotencyKey: key, errorCode: 'GATEWAY_MISMATCH', gatewayPaymentId: null });
    expect(chargeOf(s, nextOrder).errorDetail).toContain('it is for $540.00');

    const items = (await (await admin.get('/api/admin/payments/attention')).json()) as { problem: string; orderId: number; actions: string[] }[];
    expect(items).toEqual([expect.objectContaining({ problem: 'gateway_mismatch', orderId: nextOrder, actions: ['check', 'mark_paid', 'mark_failed'] })]);
    expect(s.db.select().from(notifications).where(eq(notifications.type, 'admin_alert')).all()).toHaveLength(1);

    // The reconciler, minutes later, finds the same payment and still does not take it.
    for (let i = 0; i < 3; i++) {
      s.clock.advance(30 * MINUTE);
      await s.tick();
    }
    expect(orderOf(s, nextOrder).status).toBe('pending');
    expect(chargeOf(s, nextOrder).status).toBe('charging');
    // It is not this order's money: marking it failed is allowed (the PIN again, after 90 minutes), and gives the unit back.
    expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);
    expect((await resolve(admin, chargeOf(s, nextOrder).id, { action: 'mark_failed' })).status).toBe(200);
    expect(orderOf(s, nextOrder).status).toBe('failed');
    expect(aviator(s).quantity).toBe(product.quantity);
  });

  test('the same for a $1 entry: a hold of another amount under its key does not enter the player', async () => {
    const s = await openStore();
    const admin = s.admin();
    const { client, id: userId } = await s.shopper('player');
    const book = s.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
    const picks = s.db
      .select({ id: influencers.id })
      .from(influencers)
      .limit(5)
      .all()
      .map((i) => String(i.id));
    expect((await client.post('/api/plays', { json: { productId: book.id, influencerIds: picks } })).status).toBe(201);
    const play = s.db.select().from(plays).where(eq(plays.userId, userId)).get()!;
    await paymentAtSquare(s, 500, `${gatewayKeyPrefix(s.db)}-hold-${play.id}-${play.createdAt.toString(36)}`);
    s.fake.failNext({ status: 500 }, CHARGE);
    const answer = await client.post('/api/payments', { json: { productId: book.id, amount: 1, type: 'play' } });
    expect(answer.status).toBe(502);
    expect(s.db.select().from(plays).where(eq(plays.id, play.id)).get()!.status).toBe('authorizing');
    const row = s.db.select().from(payments).where(eq(payments.playId, play.id)).get()!;
    expect(row).toMatchObject({ status: 'authorizing', errorCode: 'GATEWAY_MISMATCH', gatewayPaymentId: null });
    const items = (await (await admin.get('/api/admin/payments/attention')).json()) as { problem: string; paymentId: number; actions: string[] }[];
    expect(items).toEqual([expect.objectContaining({ problem: 'gateway_mismatch', paymentId: row.id, actions: ['check', 'mark_failed'] })]);
  });
});
