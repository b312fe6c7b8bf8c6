import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, orders } from '../../src/db/schema.ts';
import { PAYMENT_WINDOW_MS } from '../../src/domain/auctions/close.ts';
import { closeAuctions, setCardOutcome } from '../helpers/auction-outcomes.ts';
import { auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { allIslandProps, hrefsOf, mainOf } from '../helpers/html.ts';

/*
 * Retry payment (issue 28, item 5): an auction order whose card was declined offers it on the
 * order page and in the profile's Orders tab only while the auction still owes that buyer; once
 * paid, or once the 24 hours are over, it is gone.
 */

const HOUR = 60 * 60 * 1000;

/** carol3 wins with a card that declines: the close job leaves a failed order and the auction awaiting payment. */
async function declinedWinner() {
  const ctx = await auctionStore();
  const endsAt = new Date(ctx.clock.now() + HOUR).toISOString();
  expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, endsAt })).status).toBe(200);
  const [carol, dave] = bidders(ctx, ['carol3', 'dave44']);
  expect((await placeBid(carol!.client, ctx.product.id, 90)).status).toBe(201);
  expect((await placeBid(dave!.client, ctx.product.id, 60)).status).toBe(201);
  setCardOutcome(ctx, carol!.id, 'declined');
  ctx.clock.advance(HOUR);
  await closeAuctions(ctx);
  const order = ctx.db.select().from(orders).where(eq(orders.userId, carol!.id)).get()!;
  expect(order.status).toBe('failed');
  return { ctx, carol: carol!, dave: dave!, order };
}

const retryOf = async (client: { get(path: string): Promise<Response> }, orderId: number) => {
  const html = await (await client.get(`/orders/${orderId}`)).text();
  return allIslandProps<{ productId: number; dueText: string }>(html, 'AuctionRetry');
};

const profileRetryLinks = async (client: { get(path: string): Promise<Response> }) =>
  hrefsOf(mainOf(await (await client.get('/profile?tab=orders')).text())).filter((href) => href.endsWith('#payment-title'));

describe('Retry payment on an auction order', () => {
  test('shows while the auction owes the buyer, and is gone once the retry paid', async () => {
    const { ctx, carol, order } = await declinedWinner();
    expect(await retryOf(carol.client, order.id)).toEqual([{ productId: ctx.product.id, dueText: expect.any(String) }]);
    expect(await profileRetryLinks(carol.client)).toEqual([`/orders/${order.id}#payment-title`]);

    // Declined again: 402, and the Retry is still offered.
    const again = await carol.client.post(`/api/products/${ctx.product.id}/auction/pay`, { json: {}, headers: { 'Idempotency-Key': 'retry-1' } });
    expect(again.status).toBe(402);
    expect(await retryOf(carol.client, order.id)).toHaveLength(1);

    setCardOutcome(ctx, carol.id, 'ok');
    const paid = await carol.client.post(`/api/products/${ctx.product.id}/auction/pay`, { json: {}, headers: { 'Idempotency-Key': 'retry-2' } });
    expect(paid.status).toBe(201);
    const { orderId } = await paid.json();
    expect(ctx.db.select().from(auctions).where(eq(auctions.productId, ctx.product.id)).get()!.status).toBe('ended');
    expect(await retryOf(carol.client, order.id)).toEqual([]);
    expect(await retryOf(carol.client, orderId)).toEqual([]);
    expect(await profileRetryLinks(carol.client)).toEqual([]);
  });

  test('not offered to anyone else, nor after the 24 hours', async () => {
    const { ctx, carol, dave, order } = await declinedWinner();
    expect(await profileRetryLinks(dave.client)).toEqual([]);
    expect((await dave.client.get(`/orders/${order.id}`)).status).toBe(404);

    ctx.clock.advance(PAYMENT_WINDOW_MS);
    expect(await retryOf(carol.client, order.id)).toEqual([]);
    expect(await profileRetryLinks(carol.client)).toEqual([]);
    await closeAuctions(ctx);
    // The runner-up's second-chance offer: the winner's failed order offers nothing any more.
    expect(ctx.db.select().from(auctions).where(eq(auctions.productId, ctx.product.id)).get()).toMatchObject({ status: 'second_chance', winnerId: dave.id });
    expect(await retryOf(carol.client, order.id)).toEqual([]);
  });
});
