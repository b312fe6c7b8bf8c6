import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { orders, products } from '../../src/db/schema.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { entryRows, flagFree } from '../helpers/free-entries.ts';
import { squareStoresOfFile } from '../helpers/square-app.ts';

/*
 * Buy one, play free (issue 29) against the fake Square with latency: an order whose charge
 * answer was lost is paid by the reconciler, and its free entry is granted then, once, whoever
 * confirms it and however often the reconciler runs.
 */

const CHARGE = { method: 'POST', path: '/v2/payments' };
const LIST = { method: 'GET', path: '/v2/payments' };
const REFUNDS = { method: 'POST', path: '/v2/refunds' };
const openStore = squareStoresOfFile();

describe.concurrent('free entries and the reconciler', () => {
  test('a charge whose answer was lost: no entry while unknown; the reconciler pays the order and grants it once', async () => {
    const s = await openStore();
    const { client, id } = await s.shopper('lost');
    const product = s.db.select().from(products).where(eq(products.model, 'RB2140-901')).get()!;
    flagFree(s.db, product.id);
    s.fake.failNext({ status: 500, afterProcessing: true }, CHARGE);
    s.fake.failNext({ status: 503 }, LIST);
    const answer = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
    expect(answer.status).toBe(502);
    expect(s.db.select().from(orders).get()!.status).toBe('pending');
    expect(entryRows(s.db, id)).toHaveLength(0);
    s.clock.advance(3 * 60_000);
    await s.tick();
    const order = s.db.select().from(orders).get()!;
    expect(order.status).toBe('processing');
    expect(entryRows(s.db, id)).toEqual([expect.objectContaining({ orderId: order.id, status: 'available' })]);
    await s.tick();
    expect(entryRows(s.db, id)).toHaveLength(1);
  });

  test('a charge Square never took: the order fails and gives nothing', async () => {
    const s = await openStore();
    const { client, id } = await s.shopper('nothing');
    const product = s.db.select().from(products).where(eq(products.model, 'RB2140-901')).get()!;
    flagFree(s.db, product.id);
    s.fake.failNext({ status: 500, afterProcessing: false }, CHARGE);
    s.fake.failNext({ status: 503 }, LIST);
    expect((await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) })).status).toBe(502);
    s.clock.advance(10 * 60_000);
    await s.tick();
    expect(s.db.select().from(orders).get()!.status).toBe('failed');
    expect(entryRows(s.db, id)).toHaveLength(0);
  });

  test('a cancel whose refund Square refuses: the order is processing again and its free entry is back; a refund that goes through withdraws it', async () => {
    const s = await openStore();
    const { client, id } = await s.shopper('refused');
    const product = s.db.select().from(products).where(eq(products.model, 'RB2140-901')).get()!;
    flagFree(s.db, product.id);
    expect((await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) })).status).toBe(201);
    const order = s.db.select().from(orders).get()!;
    const admin = s.admin();
    s.fake.failNext({ status: 400 }, REFUNDS);
    expect((await admin.post(`/api/admin/orders/${order.id}/status`, { json: { status: 'canceled' } })).status).toBe(502);
    expect(s.db.select().from(orders).get()!.status).toBe('processing');
    expect(entryRows(s.db, id).map((e) => e.status)).toEqual(['available']);
    expect((await admin.post(`/api/admin/orders/${order.id}/status`, { json: { status: 'canceled' } })).status).toBe(200);
    expect(entryRows(s.db, id).map((e) => e.status)).toEqual(['withdrawn']);
  });
});
