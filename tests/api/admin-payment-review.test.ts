import { TEST_PIN } from '../helpers/app.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { influencers, orders, payments, products } from '../../src/db/schema.ts';
import { TestClient } from '../helpers/app.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';
import { textOf } from '../helpers/html.ts';

/*
 * Issue 9, item 8: what the reconciler could not finish is listed for the admin with what
 * Square says, and the admin can settle it: check, mark paid (only what Square shows as paid),
 * mark failed (only when Square has nothing), retry a capture, dismiss.
 */

const MINUTE = 60_000;
const CHARGE = { method: 'POST', path: '/v2/payments' };
const LIST = { method: 'GET', path: '/v2/payments' };

// Each test has its own store and fake Square and mostly waits on their latency: the tests run at once.
const openStore = squareStoresOfFile();

const aviator = (s: SquareStore) => s.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
const orderRow = (s: SquareStore) => s.db.select().from(orders).get()!;

/** A buy-now whose charge Square never confirmed, two minutes later, while Square's lookups also fail. */
async function unconfirmedCharge(options: { taken: boolean }) {
  const s = await openStore();
  const { client } = await s.shopper('stuck');
  const product = aviator(s);
  s.fake.failNext({ status: 500, afterProcessing: options.taken }, CHARGE);
  s.fake.failNext({ status: 503 }, LIST);
  const answer = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
  expect(answer.status).toBe(502);
  expect(orderRow(s).status).toBe('pending');
  s.clock.advance(3 * MINUTE);
  return { s, product, admin: s.admin() };
}

type Item = { paymentId: number; problem: string; actions: string[]; gateway: { status: string; gatewayPaymentId: string | null } };

async function attention(admin: TestClient): Promise<Item[]> {
  const response = await admin.get('/api/admin/payments/attention');
  expect(response.status).toBe(200);
  return response.json();
}

const resolve = (admin: TestClient, id: number, json: unknown) => admin.post(`/api/admin/payments/${id}/resolve`, { json });

describe.concurrent('payments that need an admin', () => {
  describe('the list of payments that need attention', () => {
    test('only for an admin who passed the PIN', async () => {
      const { s } = await unconfirmedCharge({ taken: false });
      expect((await new TestClient(s.app).get('/api/admin/payments/attention')).status).toBe(401);
      const { client } = await s.shopper('nosy');
      expect((await client.get('/api/admin/payments/attention')).status).toBe(403);
      expect((await client.post('/api/admin/payments/1/resolve', { json: { action: 'check' } })).status).toBe(403);
    });

    test('an unconfirmed charge that Square never took: listed with "no such payment"; marked failed, its stock returns', async () => {
      const { s, product, admin } = await unconfirmedCharge({ taken: false });
      const [item] = await attention(admin);
      expect(item).toMatchObject({ problem: 'unconfirmed_charge', actions: ['check', 'mark_paid', 'mark_failed'], gateway: { status: 'NOT_FOUND' } });
      expect(s.db.select().from(products).where(eq(products.id, product.id)).get()!.quantity).toBe(product.quantity - 1);
      // Marking paid needs a payment Square shows as paid.
      const wrong = await resolve(admin, item!.paymentId, { action: 'mark_paid', gatewayPaymentId: 'no-such-id' });
      expect(wrong.status).toBe(409);
      expect(orderRow(s).status).toBe('pending');
      const failed = await resolve(admin, item!.paymentId, { action: 'mark_failed' });
      expect(failed.status).toBe(200);
      expect(orderRow(s).status).toBe('failed');
      expect(s.db.select().from(products).where(eq(products.id, product.id)).get()!.quantity).toBe(product.quantity);
      expect(await attention(admin)).toEqual([]);
    });

    test('an unconfirmed charge that Square did take: shown COMPLETED; "mark failed" is refused, "mark paid" with its id pays the order', async () => {
      const { s, admin } = await unconfirmedCharge({ taken: true });
      const [item] = await attention(admin);
      expect(item!.gateway.status).toBe('COMPLETED');
      const squareId = item!.gateway.gatewayPaymentId!;
      expect(squareId).toBe(s.fake.payments()[0].id);
      const refused = await resolve(admin, item!.paymentId, { action: 'mark_failed' });
      expect(refused.status).toBe(409);
      expect((await refused.json()).message).toContain('Mark it paid instead');
      expect(orderRow(s).status).toBe('pending');
      const paid = await resolve(admin, item!.paymentId, { action: 'mark_paid', gatewayPaymentId: squareId });
      expect(paid.status).toBe(200);
      expect(orderRow(s)).toMatchObject({ status: 'processing', paymentId: squareId });
    });

    test('"Check with Square" settles it when Square answers again', async () => {
      const { s, admin } = await unconfirmedCharge({ taken: true });
      const [item] = await attention(admin);
      const checked = await resolve(admin, item!.paymentId, { action: 'check' });
      expect(checked.status).toBe(200);
      expect(orderRow(s).status).toBe('processing');
    });

    test('a capture that failed 5 times: Retry captures it once Square accepts; an expired hold can be dismissed', async () => {
      const s = await openStore();
      const admin = s.admin();
      const book = s.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
      const picks = s.db
        .select({ id: influencers.id })
        .from(influencers)
        .limit(5)
        .all()
        .map((i) => String(i.id));
      for (const name of ['cap-a', 'cap-b']) {
        const { client } = await s.shopper(name);
        expect((await client.post('/api/plays', { json: { productId: book.id, influencerIds: picks } })).status).toBe(201);
        expect((await client.post('/api/payments', { json: { productId: book.id, amount: 1, type: 'play' } })).status).toBe(201);
      }
      // One hold lapses at Square; every capture of the other is refused.
      const [lapsed] = s.fake.payments();
      await fetch(`${s.fake.url}/v2/payments/${lapsed.id}/cancel`, { method: 'POST', headers: { authorization: 'Bearer EAAAfake-square-sandbox-token' } });
      for (let i = 0; i < 20; i++) s.fake.failNext({ status: 400 }, { method: 'POST', path: /\/complete$/ });
      s.clock.advance(2 * 60 * MINUTE);
      for (let i = 0; i < 8; i++) {
        await s.tick();
        s.clock.advance(30 * MINUTE);
      }
      s.fake.reset();
      // Hours passed without an admin request: the PIN unlock idled out.
      expect((await admin.get('/api/admin/payments/attention')).status).toBe(403);
      expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);
      const items = await attention(admin);
      expect(items.map((i) => i.problem).sort()).toEqual(['capture_failed', 'expired']);
      const failed = items.find((i) => i.problem === 'capture_failed')!;
      expect(failed.actions).toEqual(['retry', 'dismiss']);
      expect(failed.gateway.status).toBe('APPROVED');
      expect((await resolve(admin, failed.paymentId, { action: 'mark_paid', gatewayPaymentId: 'x' })).status).toBe(409);
      expect((await resolve(admin, failed.paymentId, { action: 'retry' })).status).toBe(200);
      expect(s.db.select().from(payments).where(eq(payments.id, failed.paymentId)).get()!.status).toBe('captured');
      const expired = items.find((i) => i.problem === 'expired')!;
      expect((await resolve(admin, expired.paymentId, { action: 'dismiss' })).status).toBe(200);
      expect(await attention(admin)).toEqual([]);
    });

    test('bad actions: 400; unknown payment: 404', async () => {
      const { admin } = await unconfirmedCharge({ taken: false });
      const [item] = await attention(admin);
      expect((await resolve(admin, item!.paymentId, { action: 'refund-everything' })).status).toBe(400);
      expect((await resolve(admin, 99_999, { action: 'check' })).status).toBe(404);
      expect((await admin.post('/api/admin/payments/abc/resolve', { json: { action: 'check' } })).status).toBe(404);
      expect((await resolve(admin, item!.paymentId, { action: 'retry' })).status).toBe(409);
    });
  });

  describe('the Orders tab', () => {
    test('shows "Needs attention" with what Square says and the buttons; "Mark failed" needs the tick', async () => {
      const { s, admin } = await unconfirmedCharge({ taken: false });
      const html = await (await admin.get('/admin?tab=orders')).text();
      const text = textOf(html);
      expect(text).toContain('Needs attention (1)');
      expect(text).toContain(`Card charge for order #${orderRow(s).id}`);
      expect(text).toContain('The card processor has not confirmed this charge.');
      expect(text).toContain('Square: no such payment');
      expect(text).toContain('Payment being confirmed with the card processor');
      for (const label of ['Check with Square', 'Mark paid', 'Mark failed']) expect(text).toContain(label);
      expect(html).toContain('I checked: no money was taken');
      const [item] = await attention(admin);
      const unticked = await admin.post(`/admin/payments/${item!.paymentId}/resolve`, { form: { action: 'mark_failed' } });
      expect(unticked.status).toBe(303);
      expect(orderRow(s).status).toBe('pending');
      const ticked = await admin.post(`/admin/payments/${item!.paymentId}/resolve`, { form: { action: 'mark_failed', confirmed: 'yes' } });
      expect(ticked.status).toBe(303);
      expect(ticked.headers.get('location')).toBe('/admin?tab=orders');
      expect(orderRow(s).status).toBe('failed');
      expect(textOf(await (await admin.get('/admin?tab=orders')).text())).not.toContain('Needs attention');
    });
  });
});
