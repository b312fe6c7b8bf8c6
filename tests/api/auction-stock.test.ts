import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, orders, userProfiles } from '../../src/db/schema.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { closeDueAuctions, PAYMENT_WINDOW_MS } from '../../src/domain/auctions/close.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { auctionRows, auctionStore, type AuctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';

/*
 * The auction's one unit, counted: held while it runs and while the winner (or the runner-up)
 * may still pay, even after a declined card; back on the shelf when it ends unsold, or when the
 * paid order is canceled and refunded.
 */

const DAY = 24 * 60 * 60 * 1000;
const stock = (ctx: AuctionStore) => auctionRows(ctx, ctx.product.id).quantity;
const auctionOf = (ctx: AuctionStore) => ctx.db.select().from(auctions).where(eq(auctions.productId, ctx.product.id)).get()!;
const close = (ctx: AuctionStore) => closeDueAuctions({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway });
const declineCardOf = (ctx: AuctionStore, userId: number) =>
  ctx.db
    .update(userProfiles)
    .set({ gatewayCardId: `ccof:test-user${userId}.declined.VISA.1111.12.2030` })
    .where(eq(userProfiles.userId, userId))
    .run();

/** Alice ($300) leads Bob ($200); the auction (7 days by default) is over. */
async function endedAuction(ctx: AuctionStore) {
  expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
  expect(stock(ctx)).toBe(0);
  const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
  expect((await placeBid(alice!.client, ctx.product.id, 300)).status).toBe(201);
  expect((await placeBid(bob!.client, ctx.product.id, 200)).status).toBe(201);
  ctx.clock.advance(7 * DAY + 60_000);
  return { alice: alice!, bob: bob! };
}

describe("an auction's unit", () => {
  test('a paid auction order canceled by the admin (refunded): the unit is back on the shelf, once', async () => {
    const ctx = await auctionStore();
    const { alice } = await endedAuction(ctx);
    await close(ctx);
    const order = ctx.db.select().from(orders).where(eq(orders.userId, alice.id)).get()!;
    expect(order.status).toBe('processing');
    expect(auctionOf(ctx).status).toBe('ended');
    expect(stock(ctx)).toBe(0);

    // Seven days on, the admin signs in again (the PIN lasts a shift, not a week).
    const admin = await adminWithPin(ctx);
    const canceled = await admin.post(`/api/admin/orders/${order.id}/status`, { json: { status: 'canceled' } });
    expect(canceled.status).toBe(200);
    expect(ctx.gateway.refunds()).toHaveLength(1);
    expect(stock(ctx)).toBe(1);
    await close(ctx);
    expect(stock(ctx)).toBe(1);
  });

  test('a declined charge keeps it held through Retry and the second chance; it goes back when the auction ends unsold', async () => {
    const ctx = await auctionStore();
    const { alice, bob } = await endedAuction(ctx);
    declineCardOf(ctx, alice.id);
    await close(ctx);
    expect(ctx.db.select().from(orders).where(eq(orders.userId, alice.id)).get()?.status).toBe('failed');
    expect(auctionOf(ctx)).toMatchObject({ status: 'awaiting_payment', stockReserved: true });
    expect(stock(ctx)).toBe(0);

    const retry = await alice.client.post(`/api/products/${ctx.product.id}/auction/pay`, { json: {} });
    expect(retry.status).toBe(402);
    expect(stock(ctx)).toBe(0);

    ctx.clock.advance(PAYMENT_WINDOW_MS);
    await close(ctx);
    expect(auctionOf(ctx)).toMatchObject({ status: 'second_chance', winnerId: bob.id });
    expect(stock(ctx)).toBe(0);

    ctx.clock.advance(PAYMENT_WINDOW_MS);
    await close(ctx);
    expect(auctionOf(ctx)).toMatchObject({ status: 'unsold', stockReserved: false });
    expect(stock(ctx)).toBe(1);
    await close(ctx);
    expect(stock(ctx)).toBe(1);
  });

  test('Buy Now of the held unit with a card that declines: the auction stays cancelled and the unit goes back on the shelf, for Buy Now', async () => {
    const ctx = await auctionStore();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, keepBuyNow: true })).status).toBe(200);
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    declineCardOf(ctx, alice!.id);
    const declined = await alice!.client.post('/api/orders', { json: buyNowBody(ctx.product.id, ctx.product.priceCents) });
    expect(declined.status).toBe(402);
    expect(auctionOf(ctx)).toMatchObject({ status: 'cancelled', reason: 'Bought with Buy Now', stockReserved: false });
    expect(stock(ctx)).toBe(1);
    expect((await bob!.client.post('/api/orders', { json: buyNowBody(ctx.product.id, ctx.product.priceCents) })).status).toBe(201);
    expect(stock(ctx)).toBe(0);
  });
});
