import { afterEach, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { idempotencyKeys, orders, payments, products } from '../../src/db/schema.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { boxOf, drawsOf } from '../helpers/boxes.ts';
import { squareStore, type SquareStore } from '../helpers/square-app.ts';

/*
 * Issue 34, item 9, in one process: the request that placed an order is cut off while its charge
 * is at Square, and its process is gone (its key names a process with no liveness row). The
 * retry with the same key takes the key over at once and finishes that order: it asks Square,
 * and sends the charge again under the same key when Square holds nothing. One order, one
 * COMPLETED charge; a mystery box's draw, made in the order's claim, is not made again. (The same with two real processes and kill -9:
 * tests/e2e/crash-retry-two-processes.test.ts.)
 */

const CHARGE = { method: 'POST', path: '/v2/payments' } as const;
let s: SquareStore | undefined;
afterEach(() => s?.stop());

const cases = [
  { name: 'the charge never reached Square', fault: { hang: true } },
  { name: 'Square took the charge, its answer never came back', fault: { hang: true, afterProcessing: true } },
];

describe('a buy now whose process died mid-charge, retried with its key', () => {
  for (const { name, fault } of cases) {
    test(`${name}: the retry answers 201 with the first try's order; one order, one COMPLETED charge`, async () => {
      s = await squareStore();
      const { client } = await s.shopper('cut-off');
      const product = s.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
      const json = buyNowBody(product.id, product.priceCents);
      const headers = { 'idempotency-key': crypto.randomUUID() };
      s.fake.failNext(fault, CHARGE);
      const first = client.post('/api/orders', { json, headers });
      await s.fake.waitForRequest(CHARGE);
      // The process running the first try is gone (another machine's, its liveness row lapsed).
      s.db.update(idempotencyKeys).set({ owner: 'elsewhere:1:gone' }).run();
      const placed = s.db.select().from(idempotencyKeys).get()!.orderId;
      expect(placed).toBeNumber();

      const retry = await client.post('/api/orders', { json, headers });
      expect(retry.status).toBe(201);
      expect((await retry.json()).id).toBe(placed);
      expect(
        s.db
          .select()
          .from(orders)
          .all()
          .map((o) => [o.id, o.status]),
      ).toEqual([[placed!, 'processing']]);
      expect(s.db.select({ status: payments.status }).from(payments).where(eq(payments.orderId, placed!)).all()).toEqual([{ status: 'captured' }]);
      expect(s.fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
      // A third try replays that answer.
      expect((await (await client.post('/api/orders', { json, headers })).json()).id).toBe(placed);

      // The cut-off request ends too (Square lets go): it does not pay twice.
      s.stop();
      await first;
      expect(s.fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
      expect(s.db.select().from(orders).all()).toHaveLength(1);
    });
  }
});

describe('a mystery box whose process died mid-charge, retried with its key', () => {
  test("the retry finishes the first try's order: one order, one draw, one COMPLETED charge", async () => {
    s = await squareStore();
    boxOf(s, 'sunglasses', [2, 2]);
    const { client } = await s.shopper('cut-off-box');
    const headers = { 'idempotency-key': crypto.randomUUID() };
    const buy = () => client.post('/api/mystery-boxes/sunglasses/orders', { json: {}, headers });
    s.fake.failNext({ hang: true }, CHARGE);
    const first = buy();
    await s.fake.waitForRequest(CHARGE);
    s.db.update(idempotencyKeys).set({ owner: 'elsewhere:1:gone' }).run();
    const placed = s.db.select().from(idempotencyKeys).get()!.orderId;

    const retry = await buy();
    expect(retry.status).toBe(201);
    expect((await retry.json()).orderId).toBe(placed);
    expect(drawsOf(s)).toHaveLength(1);
    expect(
      s.db
        .select()
        .from(orders)
        .all()
        .map((o) => [o.id, o.status]),
    ).toEqual([[placed!, 'processing']]);
    expect(s.fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
    s.stop();
    await first;
    expect(s.fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
  });
});
