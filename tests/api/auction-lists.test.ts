import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, products } from '../../src/db/schema.ts';
import { type AuctionStore, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';

const HOUR = 60 * 60 * 1000;

/** A second bid-enabled product with one in stock. */
function anotherProduct(ctx: AuctionStore, name: string) {
  return ctx.db
    .insert(products)
    .values({ brand: 'Maison Lune', model: `ML-${name}`, name, quantity: 1, priceCents: 10_000, bidEnabled: true, createdAt: ctx.clock.now() })
    .returning()
    .get();
}

describe('the auction lists', () => {
  test('GET /api/auctions: running auctions only, ending soonest first', async () => {
    const ctx = await auctionStore();
    const soon = anotherProduct(ctx, 'Soon');
    const later = anotherProduct(ctx, 'Later');
    const notYet = anotherProduct(ctx, 'NotYet');
    const at = (ms: number) => new Date(ctx.clock.now() + ms).toISOString();
    await putAuction(ctx.admin, later.id, { startingBid: 10, endsAt: at(5 * HOUR) });
    await putAuction(ctx.admin, soon.id, { startingBid: 20, endsAt: at(HOUR) });
    await putAuction(ctx.admin, notYet.id, { startingBid: 30, startsAt: at(HOUR), endsAt: at(2 * HOUR) });
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 40 });
    await ctx.admin.post(`/api/admin/products/${ctx.product.id}/auction/cancel`, { json: {} });

    const list = await (await ctx.client().get('/api/auctions')).json();
    expect(list.map((a: { name: string }) => a.name)).toEqual(['Maison Lune Soon', 'Maison Lune Later']);
    expect(list[0]).toMatchObject({ productId: soon.id, currentPrice: null, minimumBid: 20, bidCount: 0 });
  });

  test('GET /api/user/bids: active (leading or not), won, lost; signed in only', async () => {
    const ctx = await auctionStore();
    const other = anotherProduct(ctx, 'Other');
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    await putAuction(ctx.admin, other.id, { startingBid: 10 });
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    await placeBid(alice!.client, ctx.product.id, 30);
    await placeBid(bob!.client, ctx.product.id, 50);
    await placeBid(alice!.client, other.id, 30);
    ctx.db.update(auctions).set({ status: 'ended', winnerId: bob!.id }).where(eq(auctions.productId, ctx.product.id)).run();

    const mine = await (await alice!.client.get('/api/user/bids')).json();
    expect(mine.active.map((a: { productId: number; leading: boolean }) => [a.productId, a.leading])).toEqual([[other.id, true]]);
    expect(mine.won).toEqual([]);
    expect(mine.lost.map((a: { productId: number }) => a.productId)).toEqual([ctx.product.id]);
    const bobs = await (await bob!.client.get('/api/user/bids')).json();
    expect(bobs.won.map((a: { productId: number }) => a.productId)).toEqual([ctx.product.id]);
    expect((await ctx.client().get('/api/user/bids')).status).toBe(401);
  });

  test('GET /api/admin/auctions: by status, with the reserve and the leading bidder; admins with the PIN only', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10, reservePrice: 100 });
    const [alice] = bidders(ctx, ['alice1']);
    await placeBid(alice!.client, ctx.product.id, 30);
    const running = await (await ctx.admin.get('/api/admin/auctions')).json();
    expect(running).toHaveLength(1);
    expect(running[0]).toMatchObject({ productId: ctx.product.id, status: 'running', reservePrice: 100, currentPrice: 10, bidder: 'alice1' });
    expect(await (await ctx.admin.get('/api/admin/auctions?status=unsold')).json()).toEqual([]);
    const wrong = await ctx.admin.get('/api/admin/auctions?status=everything');
    expect(wrong.status).toBe(400);
    expect((await alice!.client.get('/api/admin/auctions')).status).toBe(403);
  });
});
