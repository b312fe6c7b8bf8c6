import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, notifications, products } from '../../src/db/schema.ts';
import { adminWithoutPin } from '../helpers/actors.ts';
import { auctionRows, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { setShelf } from '../helpers/variants.ts';

const HOUR = 60 * 60 * 1000;

describe('PUT /api/admin/products/{id}/auction', () => {
  test('sets up an auction with the defaults: starts now, ends in 7 days, ladder increment, one unit held back', async () => {
    const ctx = await auctionStore();
    const response = await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 });
    expect(response.status).toBe(200);
    const view = await response.json();
    expect(view).toMatchObject({ status: 'running', startingBid: 100, increment: null, reservePrice: null, keepBuyNow: false, bidCount: 0 });
    expect(Date.parse(view.endsAt) - Date.parse(view.startsAt)).toBe(7 * 24 * HOUR);
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(0);

    const shown = await (await ctx.client().get(`/api/products/${ctx.product.id}/auction`)).json();
    expect(shown).toMatchObject({
      status: 'running',
      currentPrice: null,
      minimumBid: 100,
      bidCount: 0,
      hasReserve: false,
      reserveMet: true,
      leading: false,
      bids: [],
    });
  });

  test('a start in the future is scheduled, and bids before it are refused', async () => {
    const ctx = await auctionStore();
    const startsAt = new Date(ctx.clock.now() + HOUR).toISOString();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 10, startsAt })).status).toBe(200);
    expect((await (await ctx.client().get(`/api/products/${ctx.product.id}/auction`)).json()).status).toBe('scheduled');
    const [alice] = bidders(ctx, ['alice1']);
    const before = auctionRows(ctx, ctx.product.id);
    const refused = await placeBid(alice!.client, ctx.product.id, 20);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe('This auction has not started yet.');
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
  });

  test('changes the terms of an auction nobody has bid in, without holding a second unit', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 });
    const changed = await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, increment: 5, reservePrice: 300, keepBuyNow: true });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ startingBid: 50, increment: 5, reservePrice: 300, keepBuyNow: true });
    const rows = auctionRows(ctx, ctx.product.id);
    expect(rows.auctions).toHaveLength(1);
    expect(rows.quantity).toBe(0);
  });

  test('invalid set-ups get 400 with a field message and change nothing', async () => {
    const ctx = await auctionStore();
    const now = ctx.clock.now();
    const cases: [unknown, string, string][] = [
      [
        { startingBid: 100, startsAt: new Date(now + 2 * HOUR).toISOString(), endsAt: new Date(now + HOUR).toISOString() },
        'endsAt',
        'The end must be after the start',
      ],
      [{ startingBid: 100, reservePrice: 50 }, 'reservePrice', 'The reserve price cannot be below the starting bid'],
      [{ startingBid: 100, increment: 0 }, 'increment', 'The bid increment must be at least $0.01'],
      [{ startingBid: 'lots' }, 'startingBid', 'The starting bid must be an amount in dollars, such as 25.00'],
      [{ startingBid: 10.001 }, 'startingBid', 'The starting bid must be in whole cents'],
      [{ startingBid: 100, endsAt: '2026-12-01 18:00' }, 'endsAt', 'The end must be an ISO 8601 time with its time zone, such as 2026-12-01T18:00:00Z'],
    ];
    for (const [body, field, message] of cases) {
      const response = await putAuction(ctx.admin, ctx.product.id, body);
      expect(response.status).toBe(400);
      const answer = await response.json();
      expect(answer.fields[field]).toBe(message);
    }
    const notJson = await ctx.admin.request('PUT', `/api/admin/products/${ctx.product.id}/auction`, { json: [1, 2] });
    expect(notJson.status).toBe(400);
    expect(auctionRows(ctx, ctx.product.id)).toMatchObject({ auctions: [], quantity: 1 });
  });

  test('refuses a product without bidding, out of stock, or unknown; and anyone but an admin with the PIN', async () => {
    const ctx = await auctionStore();
    ctx.db.update(products).set({ bidEnabled: false }).where(eq(products.id, ctx.product.id)).run();
    const off = await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    expect(off.status).toBe(409);
    expect((await off.json()).message).toBe('Auctions are off for this product: turn on Bid in its form first.');

    ctx.db.update(products).set({ bidEnabled: true }).where(eq(products.id, ctx.product.id)).run();
    setShelf(ctx.db, ctx.product.id, 0);
    const soldOut = await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    expect(soldOut.status).toBe(409);
    expect((await soldOut.json()).message).toBe('Maison Lune One-off Frames is sold out: an auction needs one in stock.');

    expect((await putAuction(ctx.admin, 999_999, { startingBid: 10 })).status).toBe(404);
    expect((await putAuction(ctx.admin, 'abc' as unknown as number, { startingBid: 10 })).status).toBe(404);
    const [shopper] = bidders(ctx, ['shopper9']);
    expect((await putAuction(shopper!.client, ctx.product.id, { startingBid: 10 })).status).toBe(403);
    expect((await putAuction(await adminWithoutPin(ctx), ctx.product.id, { startingBid: 10 })).status).toBe(403);
    expect((await putAuction(ctx.client(), ctx.product.id, { startingBid: 10 })).status).toBe(401);
    expect(auctionRows(ctx, ctx.product.id).auctions).toEqual([]);
  });
});

describe('cancel and end early', () => {
  test('cancel with no bids: cancelled, the unit back on the shelf, and the product may get a new auction', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const cancelled = await ctx.admin.post(`/api/admin/products/${ctx.product.id}/auction/cancel`, { json: {} });
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).status).toBe('cancelled');
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(1);
    expect((await (await ctx.client().get(`/api/products/${ctx.product.id}/auction`)).json()).status).toBe('cancelled');
    const bid = await placeBid(bidders(ctx, ['late1'])[0]!.client, ctx.product.id, 20);
    expect(bid.status).toBe(409);
    expect((await bid.json()).message).toBe('This product has no auction running.');
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 15 })).status).toBe(200);
    expect(auctionRows(ctx, ctx.product.id).auctions.map((a) => a.status)).toEqual(['cancelled', 'running']);
  });

  test('cancel is refused once someone has bid; end early needs a reason and tells every bidder', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    expect((await placeBid(alice!.client, ctx.product.id, 30)).status).toBe(201);
    expect((await placeBid(bob!.client, ctx.product.id, 20)).status).toBe(201);

    const cancel = await ctx.admin.post(`/api/admin/products/${ctx.product.id}/auction/cancel`, { json: {} });
    expect(cancel.status).toBe(409);
    expect((await cancel.json()).message).toBe('This auction already has bids: end it early with a reason instead.');
    const noReason = await ctx.admin.post(`/api/admin/products/${ctx.product.id}/auction/end`, { json: {} });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).fields.reason).toBe('Say why the auction ends (the bidders are told).');
    const changed = await putAuction(ctx.admin, ctx.product.id, { startingBid: 5 });
    expect(changed.status).toBe(409);

    const ended = await ctx.admin.post(`/api/admin/products/${ctx.product.id}/auction/end`, { json: { reason: 'The frames were damaged in the studio.' } });
    expect(ended.status).toBe(200);
    expect((await (await ctx.client().get(`/api/products/${ctx.product.id}/auction`)).json()).status).toBe('ended');
    for (const who of [alice!, bob!]) {
      const told = ctx.db.select().from(notifications).where(eq(notifications.userId, who.id)).all();
      expect(told.some((n) => n.type === 'auction_ended' && n.message.includes('The frames were damaged in the studio.'))).toBe(true);
    }
    const late = await placeBid(bob!.client, ctx.product.id, 50);
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe('This auction has ended.');
    expect(ctx.db.select().from(auctions).all()).toHaveLength(1);
  });

  test('end early with no bids: unsold at once and the unit is back', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const ended = await ctx.admin.post(`/api/admin/products/${ctx.product.id}/auction/end`, { json: { reason: 'Changed our mind.' } });
    expect(ended.status).toBe(200);
    expect((await ended.json()).status).toBe('unsold');
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(1);
    const again = await ctx.admin.post(`/api/admin/products/${ctx.product.id}/auction/end`, { json: { reason: 'Changed our mind.' } });
    expect(again.status).toBe(409);
  });

  test('a product whose auction is past its end (being closed) cannot be deleted; after it, deleting archives it and keeps the bids', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const [alice] = bidders(ctx, ['alice1']);
    expect((await placeBid(alice!.client, ctx.product.id, 20)).status).toBe(201);
    // Before the close job ran: the winner is about to be charged. (A running one is withdrawn: product-delete-open-sales.)
    ctx.db
      .update(auctions)
      .set({ endsAt: ctx.clock.now() - 1 })
      .where(eq(auctions.productId, ctx.product.id))
      .run();
    const before = auctionRows(ctx, ctx.product.id);
    const refused = await ctx.admin.request('DELETE', `/api/products/${ctx.product.id}`);
    expect(refused.status).toBe(409);
    const [auction] = before.auctions;
    expect((await refused.json()).message).toBe(
      `This product has an auction closing: its winner is being decided and charged (auction #${auction!.id}). Try again in a few minutes.`,
    );
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
    ctx.db.update(auctions).set({ status: 'unsold' }).where(eq(auctions.productId, ctx.product.id)).run();
    const archived = await ctx.admin.request('DELETE', `/api/products/${ctx.product.id}`);
    expect(archived.status).toBe(200);
    expect((await archived.json()).archived).toBe(true);
    expect(auctionRows(ctx, ctx.product.id).bids).toHaveLength(1);
  });
});
