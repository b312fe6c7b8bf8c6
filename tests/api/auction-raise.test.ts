import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, bids, notifications } from '../../src/db/schema.ts';
import { auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';

/*
 * Issue 37, item 8: a leader raising their own maximum changes only that secret maximum: no public
 * history row, no bid counted, no end moved, nobody told. The one exception is the reserve: a raise
 * that meets it lifts the price to it (proxy.ts), and the history then shows the leader at that price.
 */

const MINUTE = 60_000;
const viewOf = async (client: { get(path: string): Promise<Response> }, productId: number) => (await client.get(`/api/products/${productId}/auction`)).json();

describe('a leader raising their own maximum', () => {
  test('adds no history row and no bid to the count; the price, the end and the other bidders stay as they were', async () => {
    const ctx = await auctionStore();
    const endsAt = new Date(ctx.clock.now() + MINUTE).toISOString();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 10, endsAt })).status).toBe(200);
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    await placeBid(alice!.client, ctx.product.id, 30);
    await placeBid(bob!.client, ctx.product.id, 20);
    const before = {
      view: await viewOf(ctx.client(), ctx.product.id),
      rows: ctx.db.select().from(bids).all(),
      told: ctx.db.select().from(notifications).all(),
    };
    const auctionBefore = ctx.db.select().from(auctions).where(eq(auctions.productId, ctx.product.id)).get()!;
    expect(before.view).toMatchObject({ currentPrice: 21, bidCount: 3 });

    // With under 2 minutes left: a raise that changes nothing public does not move the end either.
    const raise = await placeBid(alice!.client, ctx.product.id, 80);
    expect(raise.status).toBe(201);
    expect(await raise.json()).toMatchObject({ leading: true, currentPrice: 21, bidCount: 3 });
    expect(await viewOf(ctx.client(), ctx.product.id)).toEqual(before.view);
    expect(ctx.db.select().from(bids).all()).toEqual(before.rows);
    expect(ctx.db.select().from(notifications).all()).toEqual(before.told);
    expect(ctx.db.select().from(auctions).where(eq(auctions.productId, ctx.product.id)).get()).toMatchObject({
      bidCount: 3,
      currentPriceCents: 2100,
      endsAt: auctionBefore.endsAt,
      leaderMaxCents: 8000,
    });
    // Her own view has the new maximum; bob now needs more than it to lead.
    expect(await viewOf(alice!.client, ctx.product.id)).toMatchObject({ yourMaximum: 80, bidCount: 3 });
    expect(await (await placeBid(bob!.client, ctx.product.id, 70)).json()).toMatchObject({ leading: false, currentPrice: 72.5 });
  });

  test('a raise that meets the reserve lifts the price to it: one row at the reserve, one bid counted', async () => {
    const ctx = await auctionStore();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 10, reservePrice: 100 })).status).toBe(200);
    const [alice] = bidders(ctx, ['alice1']);
    await placeBid(alice!.client, ctx.product.id, 50);
    expect(await viewOf(ctx.client(), ctx.product.id)).toMatchObject({ currentPrice: 10, bidCount: 1, reserveMet: false });
    const raise = await placeBid(alice!.client, ctx.product.id, 150);
    expect(await raise.json()).toMatchObject({ currentPrice: 100, bidCount: 2, reserveMet: true });
    const view = await viewOf(ctx.client(), ctx.product.id);
    expect(view.bids.map((row: { amount: number }) => row.amount)).toEqual([100, 10]);
    expect(JSON.stringify(view)).not.toContain('150');
  });
});
