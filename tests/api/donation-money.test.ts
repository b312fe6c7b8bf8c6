import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { DEMO_CHARITY } from '../../src/config.ts';
import { orders, products } from '../../src/db/schema.ts';
import { donatableTee, donationBody } from '../helpers/donations.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';

/*
 * Issue 29, item 6, for 'Buy to donate': a donation is a buy-now order on the same money engine,
 * so against the fake Square with real latency a double click pays once and an answer lost after
 * Square took the money ends in one paid donation, never a second charge.
 */

const LATENCY = 400;
const PAYMENTS_PATH = { method: 'POST', path: '/v2/payments' };
const open = squareStoresOfFile();

const completed = (s: SquareStore) => s.fake.payments().filter((p) => p.status === 'COMPLETED');
const stockOf = (s: SquareStore, id: number) => s.db.select().from(products).where(eq(products.id, id)).get()!.quantity;

describe('a donation pays once', () => {
  test('a double submit of the same donation: one order, one charge, one unit', async () => {
    const s = await open();
    const { client } = await s.shopper('giver');
    const tee = donatableTee(s);
    s.fake.setLatency(LATENCY, PAYMENTS_PATH);
    // The saved card: the same body twice, as a double click on Pay sends it.
    const body = donationBody(tee.id, tee.priceCents, { paymentToken: undefined });
    const answers = await Promise.all([client.post('/api/orders', { json: body }), client.post('/api/orders', { json: body })]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(completed(s)).toHaveLength(1);
    const placed = s.db.select().from(orders).all();
    expect(placed.map((o) => [o.status, o.donationTo])).toEqual([['processing', DEMO_CHARITY.name]]);
    expect(stockOf(s, tee.id)).toBe(tee.quantity - 1);
  });

  test('Square answers 500 after taking the money: the donation is paid, once', async () => {
    const s = await open();
    const { client } = await s.shopper('lost-gift');
    const tee = donatableTee(s);
    s.fake.failNext({ status: 500, afterProcessing: true }, PAYMENTS_PATH);
    const answer = await client.post('/api/orders', { json: donationBody(tee.id, tee.priceCents, { paymentToken: undefined }) });
    expect(answer.status).toBe(201);
    expect(completed(s)).toHaveLength(1);
    const order = s.db.select().from(orders).get()!;
    expect(order).toMatchObject({ status: 'processing', donationTo: DEMO_CHARITY.name, paymentId: completed(s)[0]!.id });
    // The reconciler, running afterwards, finds nothing left to do: still one charge.
    await s.tick();
    expect(completed(s)).toHaveLength(1);
    expect(stockOf(s, tee.id)).toBe(tee.quantity - 1);
  });
});
