import { describe, expect, test } from 'bun:test';
import { cartItems, orders } from '../../src/db/schema.ts';
import { AUCTION_HOLDS_UNIT, AUCTION_RUNNING, BUY_NOW_GONE } from '../../src/domain/auctions/buy-now.ts';
import { auctionRows, auctionStore, type AuctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { checkoutBody, customer } from '../helpers/checkout.ts';
import type { TestClient } from '../helpers/app.ts';
import { setShelf as shelve } from '../helpers/variants.ts';

/** The cart beside an auction follows Buy Now's stance: the held unit is bid on, never sold through a cart. */

const setShelf = (ctx: AuctionStore, quantity: number) => shelve(ctx.db, ctx.product.id, quantity);
const add = (client: TestClient, productId: number) => client.post('/api/cart', { json: { productId, quantity: 1 } });
const summary = { subtotal: 400, shipping: 5.99, tax: 32, total: 437.99 };

async function checkout(client: TestClient) {
  return client.post('/api/checkout', { json: await checkoutBody(client, summary, { customer }) });
}

/** Everything a refused checkout must leave as it was. */
const world = (ctx: AuctionStore) => ({
  ...auctionRows(ctx, ctx.product.id),
  cart: ctx.db.select().from(cartItems).all(),
  orders: ctx.db.select().from(orders).all(),
});

describe('adding an auctioned product to the cart', () => {
  test('refused while Buy Now is not offered beside the auction, even with units on the shelf', async () => {
    const ctx = await auctionStore();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
    setShelf(ctx, 3);
    const [alice] = bidders(ctx, ['alice1']);
    const refused = await add(alice!.client, ctx.product.id);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(AUCTION_RUNNING);
    expect(ctx.db.select().from(cartItems).all()).toEqual([]);
  });

  test('refused while the auction holds the only unit, even with Buy Now kept', async () => {
    const ctx = await auctionStore();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, keepBuyNow: true })).status).toBe(200);
    const [alice] = bidders(ctx, ['alice1']);
    const refused = await add(alice!.client, ctx.product.id);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(AUCTION_HOLDS_UNIT);
    expect(ctx.db.select().from(cartItems).all()).toEqual([]);
  });

  test('Buy Now kept, no bid and units on the shelf: a shelf unit goes in the cart', async () => {
    const ctx = await auctionStore();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, keepBuyNow: true })).status).toBe(200);
    setShelf(ctx, 2);
    const [alice] = bidders(ctx, ['alice1']);
    expect((await add(alice!.client, ctx.product.id)).status).toBe(201);
  });
});

describe('checking out a cart whose product was auctioned meanwhile', () => {
  test('an auction set up after the product went in the cart: refused with the message, nothing changed', async () => {
    const ctx = await auctionStore();
    setShelf(ctx, 3);
    const [alice] = bidders(ctx, ['alice1']);
    expect((await add(alice!.client, ctx.product.id)).status).toBe(201);
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
    const before = world(ctx);
    const refused = await checkout(alice!.client);
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: AUCTION_RUNNING, fields: { items: AUCTION_RUNNING } });
    expect(world(ctx)).toEqual(before);
  });

  test('Buy Now kept, but a bid came in after the product went in the cart: refused, nothing changed', async () => {
    const ctx = await auctionStore();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, keepBuyNow: true })).status).toBe(200);
    setShelf(ctx, 2);
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    expect((await add(alice!.client, ctx.product.id)).status).toBe(201);
    expect((await placeBid(bob!.client, ctx.product.id, 150)).status).toBe(201);
    const before = world(ctx);
    const refused = await checkout(alice!.client);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(BUY_NOW_GONE);
    expect(world(ctx)).toEqual(before);
  });
});
