import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, emailOutbox, notifications, orderItems, stockReservations } from '../../src/db/schema.ts';
import { closeDueAuctions } from '../../src/domain/auctions/close.ts';
import { runTeamJobs } from '../../src/domain/promotions/teams-expiry.ts';
import { variantStockOf } from '../../src/domain/inventory/stock-counts.ts';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { DonateThis } from '../../src/components/DonateThis.tsx';
import { DEMO_CHARITY } from '../../src/config.ts';
import { findProduct, productView } from '../../src/domain/catalog/catalog.ts';
import { listDonations } from '../../src/domain/promotions/donations-admin.ts';
import { quickShopper } from '../helpers/actors.ts';
import { allOrders, checkoutStore } from '../helpers/checkout.ts';
import { donatableTee, donationBody } from '../helpers/donations.ts';
import { seededApp, type TestApp } from '../helpers/app.ts';
import { auctionRows, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { holdRows, joinTeam, readTeam, snapshot, startTeam, teamOrders, teamProduct, teamRows } from '../helpers/teams.ts';
import { all, fieldErrors, first, formFields, islandProps, textOf } from '../helpers/html.ts';
import type { ProductTeamsView } from '../../src/shared/views/teams.ts';
import { withSizes } from '../helpers/variants.ts';

/*
 * Issue 38: an auction, a team buy and a buy-to-donate are each for one size, chosen by the
 * admin (auction) or the shopper (team, donate); the unit held and the order line are that size's.
 */

const HOUR = 60 * 60 * 1000;

async function sizedAuctionStore() {
  const ctx = await auctionStore();
  const sizes = withSizes(ctx.db, ctx.product.id, [
    { size: 'M', quantity: 1 },
    { size: 'L', quantity: 2 },
  ]);
  return { ...ctx, sizes: { M: sizes.M!, L: sizes.L! } };
}

const available = (ctx: { db: Parameters<typeof variantStockOf>[0] }, variantId: number) => variantStockOf(ctx.db, variantId)!;

describe('an auction for one size', () => {
  test('set up for size L, it holds an L unit and names L on its page', async () => {
    const ctx = await sizedAuctionStore();
    const response = await putAuction(ctx.admin, ctx.product.id, { startingBid: 100, variantId: ctx.sizes.L });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ variantId: ctx.sizes.L });
    expect(available(ctx, ctx.sizes.L)).toMatchObject({ available: 1, held: 1 });
    expect(available(ctx, ctx.sizes.M)).toMatchObject({ available: 1, held: 0 });
    const shown = await (await ctx.client().get(`/api/products/${ctx.product.id}/auction`)).json();
    expect(shown.size).toBe('L');
  });

  test('a product with several sizes and no size named: 400 naming the sizes, nothing written', async () => {
    const ctx = await sizedAuctionStore();
    const before = auctionRows(ctx, ctx.product.id);
    const refused = await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: 'Choose a size: M or L.', fields: { variantId: 'Choose a size: M or L.' } });
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
    expect(ctx.db.select().from(stockReservations).all()).toHaveLength(0);
  });

  test('changing a scheduled auction from L to M moves the hold; leaving the size out keeps it', async () => {
    const ctx = await sizedAuctionStore();
    const startsAt = new Date(ctx.clock.now() + HOUR).toISOString();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, startsAt, variantId: ctx.sizes.L })).status).toBe(200);
    const moved = await putAuction(ctx.admin, ctx.product.id, { startingBid: 60, startsAt, variantId: ctx.sizes.M });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ status: 'scheduled', startingBid: 60, variantId: ctx.sizes.M });
    expect(available(ctx, ctx.sizes.L)).toMatchObject({ available: 2, held: 0 });
    expect(available(ctx, ctx.sizes.M)).toMatchObject({ available: 0, held: 1 });
    expect(ctx.db.select().from(auctions).all()).toHaveLength(1);

    // Leaving the size out keeps the one it sells.
    expect(await (await putAuction(ctx.admin, ctx.product.id, { startingBid: 70, startsAt })).json()).toMatchObject({ variantId: ctx.sizes.M });
    expect(available(ctx, ctx.sizes.M)).toMatchObject({ available: 0, held: 1 });
  });

  test('a sold-out size is refused naming it; a change to it leaves the hold where it was', async () => {
    const ctx = await auctionStore();
    const sizes = withSizes(ctx.db, ctx.product.id, [
      { size: 'M', quantity: 0 },
      { size: 'L', quantity: 1 },
    ]);
    const soldOut = 'Maison Lune One-off Frames in size M is sold out: an auction needs one in stock.';
    const before = auctionRows(ctx, ctx.product.id);
    const refused = await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, variantId: sizes.M });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toMatchObject({ message: soldOut, fields: { variantId: soldOut } });
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);

    await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, variantId: sizes.L });
    const held = auctionRows(ctx, ctx.product.id);
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 80, variantId: sizes.M })).status).toBe(409);
    expect(auctionRows(ctx, ctx.product.id)).toEqual(held);
    expect(available(ctx, sizes.L!)).toMatchObject({ available: 0, held: 1 });
  });

  test('once somebody has bid, the size cannot change', async () => {
    const ctx = await sizedAuctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, variantId: ctx.sizes.L });
    const [alice] = bidders(ctx, ['alice1']);
    expect((await placeBid(alice!.client, ctx.product.id, 60)).status).toBe(201);
    const refused = await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, variantId: ctx.sizes.M });
    expect(refused.status).toBe(409);
    expect(available(ctx, ctx.sizes.L)).toMatchObject({ held: 1 });
    expect(available(ctx, ctx.sizes.M)).toMatchObject({ held: 0, available: 1 });
  });

  test("the admin's form: a Size select with each size's available count; none chosen is a field error naming the sizes, nothing saved", async () => {
    const ctx = await sizedAuctionStore();
    const path = `/admin/products/${ctx.product.id}/auction`;
    const html = await (await ctx.admin.get(path)).text();
    expect(all(html, 'select[name="variantId"] option').map((option) => textOf(option))).toEqual(['Choose a size', 'M · 1 available', 'L · 2 available']);
    const form = formFields(first(html, `form[action="${path}"]`)!);
    const before = auctionRows(ctx, ctx.product.id);
    const refused = await ctx.admin.post(path, { form: { ...form, startingBid: '20', variantId: '' } });
    expect(refused.status).toBe(400);
    expect(fieldErrors(await refused.text(), 'field-')).toMatchObject({ variantId: 'Choose a size: M or L.' });
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);

    const saved = await ctx.admin.post(path, { form: { ...form, startingBid: '20', variantId: String(ctx.sizes.L) } });
    expect(saved.status).toBe(303);
    expect(available(ctx, ctx.sizes.L)).toMatchObject({ available: 1, held: 1 });
    const after = await (await ctx.admin.get(path)).text();
    expect(textOf(first(after, '[data-auction-state]')!)).toContain('Size L');
    expect(all(after, 'select[name="variantId"] option[selected]').map((option) => textOf(option))).toEqual(['L · held, 1 more available']);
  });

  test('the winner is told the size, and the won order line is for it', async () => {
    const ctx = await sizedAuctionStore();
    const endsAt = new Date(ctx.clock.now() + HOUR).toISOString();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, endsAt, variantId: ctx.sizes.L });
    const [alice] = bidders(ctx, ['alice1']);
    expect((await placeBid(alice!.client, ctx.product.id, 60)).status).toBe(201);
    ctx.clock.set(ctx.clock.now() + 2 * HOUR);
    await closeDueAuctions({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway });

    const auction = ctx.db.select().from(auctions).where(eq(auctions.productId, ctx.product.id)).get()!;
    expect(auction.status).toBe('ended');
    const line = ctx.db.select().from(orderItems).where(eq(orderItems.orderId, auction.winnerOrderId!)).get()!;
    expect(line).toMatchObject({ purchaseType: 'auction', variantId: ctx.sizes.L, sizeLabel: 'L' });
    expect(available(ctx, ctx.sizes.L)).toMatchObject({ available: 1, held: 0, sold: 1 });
    const told = ctx.db.select().from(notifications).where(eq(notifications.userId, alice!.id)).all();
    expect(told.map((note) => note.title)).toContain('You won Maison Lune One-off Frames in size L');
    const mails = ctx.db.select().from(emailOutbox).all();
    expect(mails.some((mail) => mail.subject.includes('One-off Frames in size L'))).toBe(true);
  });
});

/** A half-price product in M (3) and L (2). */
function sizedTeamProduct(ctx: TestApp) {
  const productId = teamProduct(ctx, 5);
  const sizes = withSizes(ctx.db, productId, [
    { size: 'M', quantity: 3 },
    { size: 'L', quantity: 2 },
  ]);
  return { productId, M: sizes.M!, L: sizes.L! };
}

describe('a team buy for one size', () => {
  test('a team for M: start and join hold two M units, the page says Size M, the paid orders say M', async () => {
    const ctx = await seededApp();
    const { productId, M, L } = sizedTeamProduct(ctx);
    const alice = quickShopper(ctx, 'alice');
    const bob = quickShopper(ctx, 'bob');
    const started = await startTeam(alice.client, productId, { variantId: M });
    expect(started.status).toBe(201);
    const { code } = (await started.json()) as { code: string };
    expect(teamRows(ctx)[0]).toMatchObject({ variantId: M, status: 'open' });
    expect(available(ctx, M)).toMatchObject({ available: 2, held: 1 });
    expect(available(ctx, L)).toMatchObject({ available: 2, held: 0 });
    expect(await (await readTeam(bob.client, code)).json()).toMatchObject({ sizeLabel: 'M' });
    const page = await (await bob.client.get(`/team/${code}`)).text();
    expect(page).toContain('Size M');
    const productPage = await (await bob.client.get(`/product/${productId}`)).text();
    expect(islandProps<{ view: ProductTeamsView }>(productPage, 'TeamBuy').view.teams).toEqual([expect.objectContaining({ code, sizeLabel: 'M' })]);

    const joined = await joinTeam(bob.client, code);
    expect(joined.status).toBe(201);
    expect(available(ctx, M)).toMatchObject({ available: 1, held: 0, sold: 2 });
    expect(available(ctx, L)).toMatchObject({ available: 2, held: 0, sold: 0 });
    const orders = teamOrders(ctx);
    expect(orders).toHaveLength(2);
    for (const { item } of orders) expect(item).toMatchObject({ variantId: M, sizeLabel: 'M' });
  });

  test('a team for M that nobody joins: at expiry its M unit is back on the M shelf, the starter told of M', async () => {
    const ctx = await seededApp();
    const { productId, M } = sizedTeamProduct(ctx);
    const alice = quickShopper(ctx, 'alice');
    expect((await startTeam(alice.client, productId, { variantId: M })).status).toBe(201);
    expect(available(ctx, M)).toMatchObject({ available: 2, held: 1 });
    ctx.clock.advance(24 * HOUR);
    expect(await runTeamJobs({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway })).toMatchObject({ expired: 1 });
    expect(available(ctx, M)).toMatchObject({ available: 3, held: 0, sold: 0 });
    const told = ctx.db.select().from(notifications).where(eq(notifications.userId, alice.id)).all();
    expect(told.some((note) => note.message.includes('in size M within 24 hours'))).toBe(true);
  });

  test('a multi-size product without variantId: 400 naming the sizes, nothing held', async () => {
    const ctx = await seededApp();
    const { productId } = sizedTeamProduct(ctx);
    const alice = quickShopper(ctx, 'alice');
    const before = snapshot(ctx, productId);
    const refused = await startTeam(alice.client, productId);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: 'Choose a size: M or L.', fields: { variantId: 'Choose a size: M or L.' } });
    expect(snapshot(ctx, productId)).toEqual(before);
    expect(holdRows(ctx)).toHaveLength(0);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('a sold-out size is refused by name, nothing held', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx, 5);
    const sizes = withSizes(ctx.db, productId, [
      { size: 'M', quantity: 0 },
      { size: 'L', quantity: 2 },
    ]);
    const alice = quickShopper(ctx, 'alice');
    const before = snapshot(ctx, productId);
    const refused = await startTeam(alice.client, productId, { variantId: sizes.M });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe('This product just sold out in size M.');
    expect(snapshot(ctx, productId)).toEqual(before);
  });
});

describe('buy to donate, by size', () => {
  async function sizedTee() {
    const ctx = await checkoutStore();
    const tee = donatableTee(ctx);
    const sizes = withSizes(ctx.db, tee.id, [
      { size: 'M', quantity: 3 },
      { size: 'L', quantity: 2 },
    ]);
    return { ctx, tee, M: sizes.M!, L: sizes.L! };
  }

  test('donate M: the order line is M, the stock of M down by one, the admin list names M', async () => {
    const { ctx, tee, M, L } = await sizedTee();
    const response = await ctx.shopper.post('/api/orders', { json: donationBody(tee.id, tee.priceCents, { variantId: M }) });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    expect(ctx.db.select().from(orderItems).where(eq(orderItems.orderId, id)).get()).toMatchObject({ variantId: M, sizeLabel: 'M' });
    expect(available(ctx, M)).toMatchObject({ available: 2, sold: 1 });
    expect(available(ctx, L)).toMatchObject({ available: 2, sold: 0 });
    const [row] = listDonations(ctx.db, DEMO_CHARITY.name);
    expect(row).toMatchObject({ kind: 'purchase', id });
    expect(row!.product).toContain('in size M');
  });

  test('a donation of a product with several sizes and none named: 400 naming the sizes, no order', async () => {
    const { ctx, tee } = await sizedTee();
    const response = await ctx.shopper.post('/api/orders', { json: donationBody(tee.id, tee.priceCents) });
    expect(response.status).toBe(400);
    expect((await response.json()).fields).toEqual({ variantId: 'Choose a size: M or L.' });
    expect(allOrders(ctx)).toHaveLength(0);
  });

  test("'Donate this' carries the size chosen on the page to the donation's checkout", async () => {
    const { ctx, tee, L } = await sizedTee();
    const product = productView(findProduct(ctx.db, tee.id)!);
    const html = renderToStaticMarkup(createElement(DonateThis, { product, charity: DEMO_CHARITY.name, variantId: L }));
    expect(html).toContain(`href="/checkout?productId=${tee.id}&amp;variantId=${L}&amp;donate=1"`);
    const none = renderToStaticMarkup(createElement(DonateThis, { product, charity: DEMO_CHARITY.name }));
    expect(none).toContain(`href="/checkout?productId=${tee.id}&amp;donate=1"`);
  });
});
