import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { orderItems, orders } from '../../src/db/schema.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { squareStoresOfFile } from '../helpers/square-app.ts';
import { ledgerBySize, sizedTee } from '../helpers/variants.ts';

/*
 * Issue 38: the money engine's unsure outcomes, for a size. A buy now of M whose charge Square
 * took but whose answer was lost is paid once and sells one M; one whose outcome is unknown
 * holds the M until the reconciler calls it never taken, then gives that M back. S and L are
 * untouched throughout. (kill -9 between claim and charge: tests/e2e/sizes-crash.test.ts.)
 */

const CHARGE = { method: 'POST', path: '/v2/payments' } as const;
const MINUTE = 60_000;
const open = squareStoresOfFile();
const SIZES = [
  { size: 'S', quantity: 2 },
  { size: 'M', quantity: 2 },
  { size: 'L', quantity: 1 },
];

async function storeWithTee() {
  const s = await open();
  const tee = sizedTee(s.db, SIZES, 2200, s.clock.now());
  const before = ledgerBySize(s.db, tee.id);
  const { client } = await s.shopper(`sized-${crypto.randomUUID().slice(0, 6)}`);
  const buyM = () => client.post('/api/orders', { json: { ...buyNowBody(tee.id, tee.priceCents), variantId: tee.variant.M } });
  return { s, tee, before, buyM };
}

describe.concurrent('a buy now of size M on an unsure charge', () => {
  test("Square took the charge and answered 500: paid once, one M sold, the order's line says M", async () => {
    const { s, tee, before, buyM } = await storeWithTee();
    s.fake.failNext({ status: 500, afterProcessing: true }, CHARGE);
    const answer = await buyM();
    expect(answer.status).toBe(201);
    const orderId = ((await answer.json()) as { id: number }).id;
    expect(s.fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
    expect(ledgerBySize(s.db, tee.id)).toEqual({ ...before, M: { stocked: 2, available: 1, held: 0, sold: 1 } });
    expect(s.db.select({ variantId: orderItems.variantId, size: orderItems.sizeLabel }).from(orderItems).where(eq(orderItems.orderId, orderId)).all()).toEqual([
      { variantId: tee.variant.M!, size: 'M' },
    ]);
    // The reconciler's later passes find nothing more to do for it.
    s.clock.advance(30 * MINUTE);
    await s.tick();
    expect(ledgerBySize(s.db, tee.id)).toEqual({ ...before, M: { stocked: 2, available: 1, held: 0, sold: 1 } });
  });

  test('Square answered 500 before taking anything: the M stays held while unsure, the reconciler gives it back', async () => {
    const { s, tee, before, buyM } = await storeWithTee();
    s.fake.failNext({ status: 500 }, CHARGE);
    const answer = await buyM();
    expect(answer.status).toBe(502);
    expect(ledgerBySize(s.db, tee.id)).toEqual({ ...before, M: { stocked: 2, available: 1, held: 1, sold: 0 } });
    s.clock.advance(3 * MINUTE);
    await s.tick();
    expect(s.db.select({ status: orders.status }).from(orders).all()).toEqual([{ status: 'failed' }]);
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
    // The M it gave back sells again, once.
    expect((await buyM()).status).toBe(201);
    expect(ledgerBySize(s.db, tee.id)).toEqual({ ...before, M: { stocked: 2, available: 1, held: 0, sold: 1 } });
  });

  test('the last M, its connection dropped after Square took the charge: paid once, no further M sold', async () => {
    const { s, tee, before, buyM } = await storeWithTee();
    const { client: other } = await s.shopper(`other-${crypto.randomUUID().slice(0, 6)}`);
    expect((await other.post('/api/orders', { json: { ...buyNowBody(tee.id, tee.priceCents), variantId: tee.variant.M } })).status).toBe(201);
    s.fake.failNext({ drop: true, afterProcessing: true }, CHARGE);
    expect((await buyM()).status).toBe(201);
    expect(ledgerBySize(s.db, tee.id)).toEqual({ ...before, M: { stocked: 2, available: 0, held: 0, sold: 2 } });
    // A third shopper is told M is gone; S and L still sell.
    const { client: third } = await s.shopper(`third-${crypto.randomUUID().slice(0, 6)}`);
    expect((await third.post('/api/orders', { json: { ...buyNowBody(tee.id, tee.priceCents), variantId: tee.variant.M } })).status).toBe(409);
    expect((await third.post('/api/orders', { json: { ...buyNowBody(tee.id, tee.priceCents), variantId: tee.variant.L } })).status).toBe(201);
    expect(ledgerBySize(s.db, tee.id)).toEqual({
      S: before.S!,
      M: { stocked: 2, available: 0, held: 0, sold: 2 },
      L: { stocked: 1, available: 0, held: 0, sold: 1 },
    });
  });
});
