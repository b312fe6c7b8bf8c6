import { expect, test } from 'bun:test';
import { auctions } from '../../src/db/schema.ts';
import { closeWhenFileEnds } from '../helpers/file-end.ts';
import { auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { readEvents } from '../helpers/sse.ts';

/*
 * Issue 28, item 4: a page subscribed to a product (GET /api/events?product=ID) gets its auction's
 * public view at once, and again after every bid: the new price, the count and a moved end,
 * within a second, without the viewer's maximum or the reserve.
 */

const keepOpen = closeWhenFileEnds((stream: ReturnType<typeof readEvents>) => stream.close());
const MINUTE = 60_000;

test('a bid reaches every viewer of the product as the auction view, with the soft-close end', async () => {
  const ctx = await auctionStore();
  await putAuction(ctx.admin, ctx.product.id, { startingBid: 10, reservePrice: 77 });
  const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
  await placeBid(alice!.client, ctx.product.id, 30);

  const response = await ctx.client().get(`/api/events?product=${ctx.product.id}`);
  expect(response.status).toBe(200);
  const stream = keepOpen(readEvents(response));
  expect((await stream.next())?.event).toBe('ready');
  // The product's topics come at once: its games ('competition') and its auction, in any order.
  let first = await stream.next();
  while (first && first.event !== 'auction') first = await stream.next();
  expect(first?.event).toBe('auction');
  expect(JSON.parse(first!.data)).toMatchObject({ productId: ctx.product.id, auction: { status: 'running', currentPrice: 10, bidCount: 1, leading: false } });

  const end = ctx.db.select().from(auctions).get()!.endsAt;
  ctx.clock.set(end - MINUTE);
  expect((await placeBid(bob!.client, ctx.product.id, 20)).status).toBe(201);
  const started = Date.now();
  let seen: { auction: { currentPrice: number; bidCount: number; endsAt: string } } | null = null;
  while (!seen && Date.now() - started < 1000) {
    const message = await stream.next(1000 - (Date.now() - started));
    if (message?.event === 'auction' && JSON.parse(message.data).auction.bidCount === 3) seen = JSON.parse(message.data);
  }
  expect(seen).not.toBeNull();
  expect(seen!.auction).toMatchObject({ currentPrice: 21, endsAt: new Date(ctx.clock.now() + 2 * MINUTE).toISOString() });
  expect(JSON.stringify(seen)).not.toContain('30');
  expect(JSON.stringify(seen)).not.toContain('77');
});
