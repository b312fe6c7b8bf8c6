import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { closeDueAuctions, PAYMENT_WINDOW_MS } from '../../src/domain/auctions/close.ts';
import { auctionView } from '../../src/domain/auctions/views.ts';
import { closeWhenFileEnds } from '../helpers/file-end.ts';
import { auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { type SquareStore, squareStoresOfFile } from '../helpers/square-app.ts';
import { readEvents } from '../helpers/sse.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * The viewer's own part of GET /api/products/{id}/auction (the auction panel's money step):
 * `youBid`, `yourMaximum` and the `payment` an ended auction waits on them for. Only the viewer
 * sees their own: the live broadcast and every other viewer never do.
 */

const open = squareStoresOfFile();
const keepOpen = closeWhenFileEnds((stream: ReturnType<typeof readEvents>) => stream.close());
const HOUR = 60 * 60 * 1000;
const VIEWER_FIELDS = ['youBid', 'yourMaximum', 'payment'];

const viewAs = async (client: { get(path: string): Promise<Response> }, productId: number) => (await client.get(`/api/products/${productId}/auction`)).json();

describe('the viewer fields of the auction view', () => {
  test('a bidder sees their own maximum; another bidder, a visitor and the live broadcast see none of it', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const [alice, bob, carol] = bidders(ctx, ['alice1', 'bob22', 'carol3']);
    await placeBid(alice!.client, ctx.product.id, 37);
    await placeBid(bob!.client, ctx.product.id, 20);
    await placeBid(bob!.client, ctx.product.id, 25.5);

    expect(await viewAs(alice!.client, ctx.product.id)).toMatchObject({ leading: true, youBid: true, yourMaximum: 37, payment: null });
    expect(await viewAs(bob!.client, ctx.product.id)).toMatchObject({ leading: false, youBid: true, yourMaximum: 25.5, payment: null });
    expect(await viewAs(carol!.client, ctx.product.id)).toMatchObject({ leading: false, youBid: false, yourMaximum: null, payment: null });
    const visitor = await viewAs(ctx.client(), ctx.product.id);
    for (const field of VIEWER_FIELDS) expect(visitor).not.toHaveProperty(field);
    expect(JSON.stringify(visitor)).not.toContain('37');
    expect(JSON.stringify(await viewAs(bob!.client, ctx.product.id))).not.toContain('37');

    const response = await ctx.client().get(`/api/events?product=${ctx.product.id}`);
    const stream = keepOpen(readEvents(response));
    let message = await stream.next();
    while (message && message.event !== 'auction') message = await stream.next();
    const broadcast = JSON.parse(message!.data).auction;
    expect(broadcast).toMatchObject({ currentPrice: 26.5, leading: false });
    for (const field of VIEWER_FIELDS) expect(broadcast).not.toHaveProperty(field);
    expect(message!.data).not.toContain('37');
  });
});

/** alice's $300 beats bob's $200 on a card that declines; the auction is past its end and closed. */
async function declinedWinner(s: SquareStore) {
  const product = s.db.select().from(products).limit(1).get()!;
  s.db.update(products).set({ bidEnabled: true }).where(eq(products.id, product.id)).run();
  setShelf(s.db, product.id, 1);
  const setup = await s.admin().request('PUT', `/api/admin/products/${product.id}/auction`, {
    json: { startingBid: 100, endsAt: new Date(s.clock.now() + HOUR).toISOString() },
  });
  expect(setup.status).toBe(200);
  const alice = await s.shopper('alice1', 'cnon:card-nonce-declined');
  const bob = await s.shopper('bob22');
  const carol = await s.shopper('carol3');
  expect((await alice.client.post(`/api/products/${product.id}/bids`, { json: { maxAmount: 300 } })).status).toBe(201);
  expect((await bob.client.post(`/api/products/${product.id}/bids`, { json: { maxAmount: 200 } })).status).toBe(201);
  s.clock.advance(HOUR);
  return { product, alice, bob, carol };
}

describe.concurrent('the payment an ended auction waits on the viewer for', () => {
  test('the winner after a decline: Retry at the price plus tax, until the window closes; nobody else sees it', async () => {
    const s = await open();
    const { product, alice, bob, carol } = await declinedWinner(s);
    // Before the close job's own charge, nothing is asked of the winner.
    expect((await viewAs(alice.client, product.id)).payment).toBeNull();
    await closeDueAuctions(s.games);
    const seen = await viewAs(alice.client, product.id);
    expect(seen).toMatchObject({ status: 'ended', youBid: true, yourMaximum: 300 });
    // $202.50 (bob's $200 plus the $2.50 step) and 8% tax.
    expect(seen.payment).toEqual({ kind: 'retry', amount: 218.7, price: 202.5, dueAt: new Date(s.clock.now() + PAYMENT_WINDOW_MS).toISOString() });
    expect((await viewAs(bob.client, product.id)).payment).toBeNull();
    expect((await viewAs(carol.client, product.id)).payment).toBeNull();
    const publicView = auctionView(s.db, product.id, null, s.clock.now())!;
    for (const field of VIEWER_FIELDS) expect(publicView).not.toHaveProperty(field);
  });

  test("the runner-up's second chance at their maximum; the public price stays the final bid, not their maximum", async () => {
    const s = await open();
    const { product, alice, bob } = await declinedWinner(s);
    await closeDueAuctions(s.games);
    s.clock.advance(PAYMENT_WINDOW_MS);
    await closeDueAuctions(s.games);
    const seen = await viewAs(bob.client, product.id);
    expect(seen.payment).toEqual({ kind: 'second_chance', amount: 216, price: 200, dueAt: new Date(s.clock.now() + PAYMENT_WINDOW_MS).toISOString() });
    expect((await viewAs(alice.client, product.id)).payment).toBeNull();
    expect(auctionView(s.db, product.id, null, s.clock.now())!.currentPrice).toBe(202.5);
    expect((await viewAs(alice.client, product.id)).currentPrice).toBe(202.5);

    const took = await bob.client.post(`/api/products/${product.id}/auction/pay`, { json: {} });
    expect(took.status).toBe(201);
    expect((await viewAs(bob.client, product.id)).payment).toBeNull();
  });
});
