import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { auctions, emailOutbox, notifications, orderItems, orders, payments, products } from '../../src/db/schema.ts';
import { closeDueAuctions, PAYMENT_WINDOW_MS } from '../../src/domain/auctions/close.ts';
import { PROFILE, type SquareStore, squareStoresOfFile } from '../helpers/square-app.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * The close job against the fake Square (real latency, real faults): the winner is charged the
 * final price plus tax once, whatever is lost on the way; a decline leads to Retry, then the
 * runner-up's second chance; a reserve not met ends unsold.
 */

const open = squareStoresOfFile();
const PAYMENTS_PATH = { method: 'POST', path: '/v2/payments' };
const HOUR = 60 * 60 * 1000;

const completed = (s: SquareStore) => s.fake.payments().filter((p) => p.status === 'COMPLETED');
const auctionOf = (s: SquareStore, productId: number) => s.db.select().from(auctions).where(eq(auctions.productId, productId)).get()!;
const toldOf = (s: SquareStore, userId: number) =>
  s.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'auction_ended')))
    .all();

/** A running auction on a one-of-a-kind product: alice's maximum $300 leads bob's $200. */
async function auctionWithBids(s: SquareStore, options: { aliceCard?: string; reservePrice?: number } = {}) {
  const product = s.db.select().from(products).limit(1).get()!;
  s.db.update(products).set({ bidEnabled: true }).where(eq(products.id, product.id)).run();
  setShelf(s.db, product.id, 1);
  const admin = s.admin();
  const endsAt = new Date(s.clock.now() + HOUR).toISOString();
  const setup = await admin.request('PUT', `/api/admin/products/${product.id}/auction`, {
    json: { startingBid: 100, endsAt, reservePrice: options.reservePrice },
  });
  expect(setup.status).toBe(200);
  const alice = await s.shopper('alice1', options.aliceCard);
  const bob = await s.shopper('bob22');
  expect((await alice.client.post(`/api/products/${product.id}/bids`, { json: { maxAmount: 300 } })).status).toBe(201);
  expect((await bob.client.post(`/api/products/${product.id}/bids`, { json: { maxAmount: 200 } })).status).toBe(201);
  s.clock.advance(HOUR);
  return { product, alice, bob, admin };
}

describe('the close job', () => {
  test('latency and a failure after processing: the winner is charged once, one paid order of type auction, told once', async () => {
    const s = await open();
    const { product, alice, bob } = await auctionWithBids(s);
    const price = auctionOf(s, product.id).currentPriceCents!;
    expect(price).toBe(20_250); // $200 + the $2.50 step of the ladder at $200
    s.fake.setLatency(200, PAYMENTS_PATH);
    s.fake.failNext({ status: 500, afterProcessing: true }, PAYMENTS_PATH);

    await closeDueAuctions(s.games);
    await s.tick();
    await closeDueAuctions(s.games);
    await closeDueAuctions(s.games);

    expect(completed(s)).toHaveLength(1);
    const tax = Math.round(price * 0.08);
    expect(completed(s)[0]!.amount_money).toEqual({ amount: price + tax, currency: 'USD' });
    const paid = s.db.select().from(orders).where(eq(orders.userId, alice.id)).all();
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ status: 'processing', totalCents: price + tax, shippingCents: 0, taxCents: tax, shippingMethod: 'local' });
    expect(s.db.select().from(orderItems).where(eq(orderItems.orderId, paid[0]!.id)).get()).toMatchObject({ purchaseType: 'auction', priceCents: price });
    expect(auctionOf(s, product.id)).toMatchObject({ status: 'ended', winnerId: alice.id, winnerOrderId: paid[0]!.id });
    expect(
      s.db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.userId, alice.id), eq(emailOutbox.kind, 'order_confirmation')))
        .all(),
    ).toHaveLength(1);
    const label = s.db.select().from(orderItems).where(eq(orderItems.orderId, paid[0]!.id)).get()!.productLabel;
    expect(toldOf(s, alice.id).map((n) => n.title)).toEqual([`You won ${label}`]);
    expect(toldOf(s, bob.id)).toHaveLength(1);
    // The unit held since the set-up is the one sold: the shelf stays empty.
    expect(s.db.select().from(products).where(eq(products.id, product.id)).get()!.quantity).toBe(0);
    const view = await (await bob.client.get(`/api/products/${product.id}/auction`)).json();
    expect(view).toMatchObject({ status: 'ended', currentPrice: price / 100 });
  });

  test('a decline: the winner is told, and Retry with a new card pays once', async () => {
    const s = await open();
    const { product, alice } = await auctionWithBids(s, { aliceCard: 'cnon:card-nonce-declined' });
    await closeDueAuctions(s.games);
    expect(completed(s)).toHaveLength(0);
    expect(auctionOf(s, product.id).status).toBe('awaiting_payment');
    expect(s.db.select().from(orders).where(eq(orders.userId, alice.id)).get()!.status).toBe('failed');
    expect(toldOf(s, alice.id).map((n) => n.actionUrl)).toEqual(['/profile?tab=payment']);
    await closeDueAuctions(s.games);
    expect(toldOf(s, alice.id)).toHaveLength(1);

    const saved = await alice.client.request('PATCH', '/api/user/profile', {
      json: { ...PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } },
    });
    expect(saved.status).toBe(200);
    const retry = await alice.client.post(`/api/products/${product.id}/auction/pay`, { json: {} });
    expect(retry.status).toBe(201);
    expect(completed(s)).toHaveLength(1);
    expect(auctionOf(s, product.id).status).toBe('ended');
    const again = await alice.client.post(`/api/products/${product.id}/auction/pay`, { json: {} });
    expect(again.status).toBe(409);
    await closeDueAuctions(s.games);
    expect(completed(s)).toHaveLength(1);
  });

  test('unpaid after 24 hours: the runner-up is offered it at their maximum, and pays once', async () => {
    const s = await open();
    const { product, alice, bob } = await auctionWithBids(s, { aliceCard: 'cnon:card-nonce-declined' });
    await closeDueAuctions(s.games);
    const stranger = await s.shopper('carol3');
    expect((await bob.client.post(`/api/products/${product.id}/auction/pay`, { json: {} })).status).toBe(409);

    s.clock.advance(PAYMENT_WINDOW_MS);
    await closeDueAuctions(s.games);
    expect(auctionOf(s, product.id)).toMatchObject({ status: 'second_chance', winnerId: bob.id, offerCents: 20_000 });
    expect(toldOf(s, bob.id).map((n) => n.title)).toEqual([expect.stringContaining('A second chance at')]);
    expect((await alice.client.post(`/api/products/${product.id}/auction/pay`, { json: {} })).status).toBe(409);
    expect((await stranger.client.post(`/api/products/${product.id}/auction/pay`, { json: {} })).status).toBe(409);

    const took = await bob.client.post(`/api/products/${product.id}/auction/pay`, { json: {} });
    expect(took.status).toBe(201);
    expect(completed(s).map((p) => (p.amount_money as { amount: number }).amount)).toEqual([21_600]);
    expect(auctionOf(s, product.id)).toMatchObject({ status: 'ended', winnerId: bob.id });
  });

  test('the runner-up lets the offer pass: unsold, and the unit is back on the shelf', async () => {
    const s = await open();
    const { product } = await auctionWithBids(s, { aliceCard: 'cnon:card-nonce-declined' });
    await closeDueAuctions(s.games);
    s.clock.advance(PAYMENT_WINDOW_MS);
    await closeDueAuctions(s.games);
    s.clock.advance(PAYMENT_WINDOW_MS);
    await closeDueAuctions(s.games);
    expect(auctionOf(s, product.id).status).toBe('unsold');
    expect(s.db.select().from(products).where(eq(products.id, product.id)).get()!.quantity).toBe(1);
    expect(completed(s)).toHaveLength(0);
  });

  test('the reserve not met: unsold, no charge, every bidder told, the unit back', async () => {
    const s = await open();
    const { product, alice, bob } = await auctionWithBids(s, { reservePrice: 500 });
    await closeDueAuctions(s.games);
    expect(auctionOf(s, product.id).status).toBe('unsold');
    expect(
      s.db
        .select()
        .from(payments)
        .all()
        .filter((p) => p.kind === 'order_charge'),
    ).toHaveLength(0);
    for (const who of [alice, bob]) expect(toldOf(s, who.id).map((n) => n.message)).toEqual([expect.stringContaining('the reserve price was not met')]);
    expect(s.db.select().from(products).where(eq(products.id, product.id)).get()!.quantity).toBe(1);
  });
});
