import { describe, expect, test } from 'bun:test';
import { adminWithoutPin, signedInUser } from '../helpers/actors.ts';
import { TEST_PIN } from '../helpers/app.ts';
import { auctionProduct, closeAuctions, setCardOutcome } from '../helpers/auction-outcomes.ts';
import { auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { all, attribute, first, hrefsOf, mainOf, textOf } from '../helpers/html.ts';

/*
 * The admin panel's Auctions tab (issue 28, item 6): each filter lists its auctions with price,
 * bids, leader or buyer and reason, and the actions that fit each (bids, cancel, end early, the
 * order); nobody but an admin past the PIN sees it.
 */

const HOUR = 60 * 60 * 1000;

/** One auction in each state: running (bid in), sold, awaiting payment (declined), unsold (ended early), cancelled. */
async function auctionsInEveryState() {
  const ctx = await auctionStore();
  const running = ctx.product;
  const sold = auctionProduct(ctx, 'Sold');
  const owed = auctionProduct(ctx, 'Owed');
  const early = auctionProduct(ctx, 'Early');
  const cancelled = auctionProduct(ctx, 'Cancelled');
  const endsAt = new Date(ctx.clock.now() + HOUR).toISOString();
  for (const product of [running, early, cancelled]) expect((await putAuction(ctx.admin, product.id, { startingBid: 50 })).status).toBe(200);
  for (const product of [sold, owed]) expect((await putAuction(ctx.admin, product.id, { startingBid: 50, endsAt })).status).toBe(200);
  const [alice, bob, carol] = bidders(ctx, ['alice1', 'bob22', 'carol3']);
  expect((await placeBid(alice!.client, running.id, 80)).status).toBe(201);
  expect((await placeBid(bob!.client, sold.id, 70)).status).toBe(201);
  expect((await placeBid(carol!.client, owed.id, 90)).status).toBe(201);
  setCardOutcome(ctx, carol!.id, 'declined');
  await ctx.admin.post(`/api/admin/products/${early.id}/auction/end`, { json: { reason: 'Photographed wrong' } });
  await ctx.admin.post(`/api/admin/products/${cancelled.id}/auction/cancel`, { json: {} });
  ctx.clock.advance(HOUR);
  await closeAuctions(ctx);
  // The PIN's unlock lapses with an hour idle, as in the shop.
  expect((await ctx.admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);
  return { ctx, running, sold, owed, early, cancelled };
}

async function tab(ctx: Awaited<ReturnType<typeof auctionStore>>, status?: string) {
  const response = await ctx.admin.get(`/admin?tab=auctions${status ? `&status=${status}` : ''}`);
  expect(response.status).toBe(200);
  const main = mainOf(await response.text());
  const rows = all(main, 'article[data-auction-id]');
  return { main, rows, names: rows.map((row) => textOf(first(row, 'h3')!)), row: (name: string) => rows.find((row) => textOf(row).includes(name))! };
}

describe('the Auctions tab', () => {
  test('each filter lists its own auctions with their facts and actions', async () => {
    const { ctx, running } = await auctionsInEveryState();

    const runningTab = await tab(ctx);
    expect(runningTab.names).toEqual(['Maison Lune One-off Frames']);
    const row = runningTab.row('One-off Frames');
    expect(textOf(first(row, '[data-fact="Price"]')!)).toBe('$50.00');
    expect(textOf(first(row, '[data-fact="Leader"]')!)).toBe('alice1');
    expect(textOf(first(row, '[data-fact="Bids"]')!)).toBe('1');
    // A bid is in: End early with a reason, no Cancel; the bids are one link away.
    expect(first(row, `form[action="/admin/products/${running.id}/auction/end"] input[name="reason"]`)).toBeDefined();
    expect(first(row, `form[action="/admin/products/${running.id}/auction/cancel"]`)).toBeUndefined();
    expect(hrefsOf(row).some((href) => href.startsWith(`/admin/products/${running.id}/auction?auction=`) && href.endsWith('#bids'))).toBe(true);
    expect(attribute(runningTab.main, '[aria-label="Auction status"] [aria-current="page"]', 'href')).toBe('/admin?tab=auctions');

    const endedTab = await tab(ctx, 'ended');
    expect(endedTab.names).toEqual(['Atelier Sold']);
    const soldRow = endedTab.row('Sold');
    expect(textOf(first(soldRow, '[data-fact="Buyer"]')!)).toBe('bob22');
    expect(hrefsOf(soldRow).find((href) => href.startsWith('/admin?tab=orders#order-'))).toBeDefined();
    expect(first(soldRow, 'form')).toBeUndefined();

    const owedTab = await tab(ctx, 'awaiting_payment');
    expect(owedTab.names).toEqual(['Atelier Owed']);
    expect(textOf(first(owedTab.row('Owed'), '[data-fact="Buyer"]')!)).toBe('carol3');
    expect(first(owedTab.row('Owed'), '[data-fact="Pay by"]')).toBeDefined();

    const unsoldTab = await tab(ctx, 'unsold');
    expect(unsoldTab.names.sort()).toEqual(['Atelier Cancelled', 'Atelier Early']);
    expect(textOf(first(unsoldTab.row('Early'), '[data-fact="Reason"]')!)).toBe('Photographed wrong');
  });

  test('a running auction with no bid offers Cancel, and Cancel from the tab comes back to it', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 50 });
    const { row } = await tab(ctx);
    const cancel = first(row('One-off Frames'), `form[action="/admin/products/${ctx.product.id}/auction/cancel"]`);
    expect(cancel).toBeDefined();
    const response = await ctx.admin.post(`/admin/products/${ctx.product.id}/auction/cancel`, { form: { back: 'running' } });
    expect(response.headers.get('location')).toBe('/admin?tab=auctions');
    expect((await tab(ctx)).names).toEqual([]);
    expect((await tab(ctx, 'unsold')).names).toEqual(['Maison Lune One-off Frames']);
  });

  test('ended early with a bid, before the close job: Closing, and nothing left to stop', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 50 });
    const [alice] = bidders(ctx, ['alice1']);
    await placeBid(alice!.client, ctx.product.id, 80);
    await ctx.admin.post(`/api/admin/products/${ctx.product.id}/auction/end`, { json: { reason: 'Sold at the shop' } });
    const row = (await tab(ctx)).row('One-off Frames');
    expect(textOf(first(row, '[data-auction-status]')!)).toBe('Closing');
    expect(first(row, 'form')).toBeUndefined();
    expect(first(row, '[data-fact="Ended"]')).toBeDefined();
  });

  test('shoppers are refused and an admin without the PIN is asked for it', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 50 });
    const shopper = signedInUser(ctx, 'dave44');
    const refused = await shopper.client.get('/admin?tab=auctions');
    expect(refused.status).toBe(403);
    expect(textOf(mainOf(await refused.text()))).not.toContain('One-off Frames');
    const noPin = await adminWithoutPin(ctx);
    const asked = mainOf(await (await noPin.get('/admin?tab=auctions')).text());
    expect(textOf(asked)).toContain('Enter the admin PIN');
    expect(textOf(asked)).not.toContain('One-off Frames');
    expect((await ctx.client().get('/admin?tab=auctions')).status).toBe(302);
  });
});
