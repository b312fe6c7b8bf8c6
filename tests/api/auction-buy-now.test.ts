import { describe, expect, test } from 'bun:test';
import { auctions, orders, payments } from '../../src/db/schema.ts';
import { buyNowBody } from '../helpers/actors.ts';
import { auctionRows, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { setShelf } from '../helpers/variants.ts';

/** Buy Now beside an auction: only when the admin kept it and nobody has bid; buying ends the auction. */

const buy = (client: { post: (path: string, options: { json: unknown }) => Promise<Response> }, productId: number, priceCents: number) =>
  client.post('/api/orders', { json: buyNowBody(productId, priceCents) });

describe('Buy Now while an auction runs', () => {
  test('refused when the admin did not keep Buy Now, with nothing written', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 });
    setShelf(ctx.db, ctx.product.id, 3);
    const [alice] = bidders(ctx, ['alice1']);
    const refused = await buy(alice!.client, ctx.product.id, ctx.product.priceCents);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe('This product is being auctioned: place a bid instead.');
    expect(ctx.db.select().from(orders).all()).toEqual([]);
  });

  test('kept and nobody has bid: buying the held unit ends the auction, and a later bid is refused', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, keepBuyNow: true });
    expect((await (await ctx.client().get(`/api/products/${ctx.product.id}/auction`)).json()).buyNowOffered).toBe(true);
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    const bought = await buy(alice!.client, ctx.product.id, ctx.product.priceCents);
    expect(bought.status).toBe(201);
    expect(ctx.db.select().from(auctions).get()).toMatchObject({ status: 'cancelled', reason: 'Bought with Buy Now', stockReserved: false });
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(0);
    const late = await placeBid(bob!.client, ctx.product.id, 150);
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe('This product has no auction running.');
  });

  test('kept, but a bid is in: Buy Now is refused and the auction goes on', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, keepBuyNow: true });
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    expect((await placeBid(bob!.client, ctx.product.id, 150)).status).toBe(201);
    expect((await (await ctx.client().get(`/api/products/${ctx.product.id}/auction`)).json()).buyNowOffered).toBe(false);
    const before = auctionRows(ctx, ctx.product.id);
    const refused = await buy(alice!.client, ctx.product.id, ctx.product.priceCents);
    expect(refused.status).toBe(409);
    // Named, so the checkout says it as 'place a bid' with the way to the bid form, not 'Payment Failed' (issue 37 item 6).
    expect(await refused.json()).toMatchObject({
      message: 'Someone has just bid on this product, so Buy Now is no longer offered: place a bid instead.',
      code: 'BIDDING_INSTEAD',
    });
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
    expect(ctx.db.select().from(orders).all()).toEqual([]);
    expect(ctx.db.select().from(payments).all()).toEqual([]);
  });

  test('the checkout page: the held unit is for sale until the first bid, then the page says to bid (issue 37 item 6)', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, keepBuyNow: true });
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    // One of a kind: the auction holds the only unit, and Buy Now still sells it.
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(0);
    const before = await (await alice!.client.get(`/checkout?productId=${ctx.product.id}`)).text();
    expect(before).toContain('data-island="BuyNowCheckout"');
    expect(before).not.toContain('just sold out');
    expect((await placeBid(bob!.client, ctx.product.id, 150)).status).toBe(201);
    const after = await (await alice!.client.get(`/checkout?productId=${ctx.product.id}`)).text();
    expect(after).not.toContain('data-island="BuyNowCheckout"');
    expect(after).toContain('data-bid-instead');
    expect(after).toContain('place a bid instead');
    expect(after).toContain(`href="/product/${ctx.product.id}#bid"`);
  });
});
