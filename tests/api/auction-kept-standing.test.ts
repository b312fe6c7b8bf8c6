import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctionMaximums, auctions } from '../../src/db/schema.ts';
import { rulesOf } from '../../src/domain/auctions/auction-rows.ts';
import { standingOf } from '../../src/domain/auctions/proxy.ts';
import { auctionStore, type AuctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';

/*
 * A bid decides from the standing the auction row keeps (price, leader, the leader's secret
 * maximum), never from a replay of every maximum; the kept standing is always the replay's, and a
 * row that lacks it (bid on before the column existed) is rebuilt from the maximums once.
 */

const row = (ctx: AuctionStore) => ctx.db.select().from(auctions).where(eq(auctions.productId, ctx.product.id)).get()!;
const replayed = (ctx: AuctionStore) => {
  const auction = row(ctx);
  const maximums = ctx.db
    .select({ bidderId: auctionMaximums.userId, maxCents: auctionMaximums.maxCents, at: auctionMaximums.createdAt })
    .from(auctionMaximums)
    .where(eq(auctionMaximums.auctionId, auction.id))
    .orderBy(auctionMaximums.id)
    .all();
  return standingOf(rulesOf(auction), maximums);
};
const kept = (ctx: AuctionStore) => {
  const { currentPriceCents, leaderId, leaderMaxCents } = row(ctx);
  return { priceCents: currentPriceCents, leaderId, leaderMaxCents };
};

describe('the standing the auction row keeps', () => {
  test("after every bid it is the replay's: price, leader and the leader's maximum", async () => {
    const ctx = await auctionStore();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, reservePrice: 260 })).status).toBe(200);
    const [alice, bob, carol] = bidders(ctx, ['alice1', 'bob22', 'carol3']);
    const steps: [typeof alice, number][] = [
      [alice, 150],
      [bob, 140],
      [bob, 200],
      [alice, 300],
      [carol, 300],
      [carol, 310],
      [carol, 400],
    ];
    for (const [who, amount] of steps) {
      await placeBid(who!.client, ctx.product.id, amount);
      const { priceCents, leaderId, leaderMaxCents } = replayed(ctx);
      expect(kept(ctx)).toEqual({ priceCents, leaderId, leaderMaxCents });
    }
    expect(kept(ctx)).toEqual({ priceCents: 30_500, leaderId: carol!.id, leaderMaxCents: 40_000 });
  });

  test("a row without the leader's maximum is rebuilt from the maximums, and the next bid decides as if it had it", async () => {
    const ctx = await auctionStore();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    expect((await placeBid(alice!.client, ctx.product.id, 300)).status).toBe(201);
    ctx.db
      .update(auctions)
      .set({ leaderMaxCents: null })
      .where(eq(auctions.id, row(ctx).id))
      .run();
    // $200 against a kept maximum of $300: outbid at once, the price $202.50 (not a new leader at $100).
    const outbid = await placeBid(bob!.client, ctx.product.id, 200);
    expect(outbid.status).toBe(201);
    expect(await outbid.json()).toMatchObject({ leading: false, currentPrice: 202.5 });
    expect(kept(ctx)).toEqual({ priceCents: 20_250, leaderId: alice!.id, leaderMaxCents: 30_000 });
  });
});
