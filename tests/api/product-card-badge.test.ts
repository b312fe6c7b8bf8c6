import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { all, first, textOf } from '../helpers/html.ts';
import { type AuctionStore, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * The product card's purchase badge (issue 28, item 6): it promises only what the product
 * offers. A running auction shows 'Bid · $price · time left'; otherwise the position cycle runs
 * among the product's own options; none, no badge; and a cached page never shows a stale price.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

type Options = { buyNowEnabled?: boolean; playEnabled?: boolean; bidEnabled?: boolean; quantity?: number };

let made = 0;

/** A sunglasses product made a minute after the last one, so newest-first order is the order made. */
function product(ctx: AuctionStore, name: string, options: Options = {}) {
  made++;
  return ctx.db
    .insert(products)
    .values({ brand: 'Maison Lune', model: `ML-${name}`, name, quantity: 3, priceCents: 10_000, createdAt: ctx.clock.now() + made * MINUTE, ...options })
    .returning()
    .get();
}

/** Each card's name and badge ('' for none), newest first. */
async function cards(ctx: AuctionStore, path = '/products?sort=newest') {
  const html = await (await ctx.client().get(path)).text();
  return all(html, 'article').map((card) => [textOf(first(card, 'h2, h3')!), textOf(first(card, '[data-offer]') ?? card.ownerDocument.createElement('i'))]);
}

const badgeOf = async (ctx: AuctionStore, name: string, path?: string) => (await cards(ctx, path)).find(([card]) => card === name)?.[1];

describe('the product card badge', () => {
  test('a product with no auction never says Bid, whatever its bid flag', async () => {
    const ctx = await auctionStore();
    product(ctx, 'Flag Off', { bidEnabled: false });
    product(ctx, 'Flag On', { bidEnabled: true });
    product(ctx, 'Flag On Too', { bidEnabled: true });
    expect(await cards(ctx)).toEqual([
      ['Flag On Too', 'Buy Now'],
      ['Flag On', 'Buy Now'],
      ['Flag Off', 'Buy Now'],
      ['One-off Frames', 'Buy Now'],
    ]);
  });

  test('the cycle runs among the options each product has; none, no badge', async () => {
    const ctx = await auctionStore();
    ctx.db.delete(products).where(eq(products.id, ctx.product.id)).run();
    product(ctx, 'Nothing', { buyNowEnabled: false });
    product(ctx, 'Sold Out', { quantity: 0, playEnabled: true });
    product(ctx, 'Play Only', { buyNowEnabled: false, playEnabled: true });
    product(ctx, 'Both B', { playEnabled: true });
    product(ctx, 'Both A', { playEnabled: true });
    // Positions 0 to 4, newest first: both options cycle (Buy Now, Bet); a single one is always itself.
    expect(await cards(ctx)).toEqual([
      ['Both A', 'Buy Now'],
      ['Both B', 'Bet'],
      ['Play Only', 'Bet'],
      ['Sold Out', ''],
      ['Nothing', ''],
    ]);
  });

  test("a running auction: 'Bid · $price · time left', the starting bid before any bid, the current price after", async () => {
    const ctx = await auctionStore();
    const endsAt = ctx.clock.now() + MINUTE + 2 * HOUR + 14 * MINUTE + 30_000;
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, endsAt: new Date(endsAt).toISOString() })).status).toBe(200);
    expect(await badgeOf(ctx, 'One-off Frames')).toBe('Bid · $50.00 · 2h 14m left');
    // The home page shows the same card; both pages are now in the page cache.
    expect(await badgeOf(ctx, 'One-off Frames', '/')).toBe('Bid · $50.00 · 2h 14m left');

    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    expect((await placeBid(alice!.client, ctx.product.id, 80)).status).toBe(201);
    expect((await placeBid(bob!.client, ctx.product.id, 100)).status).toBe(201);
    // A bid writes no product row: the cached pages must still follow it ($80 + the $2.50 step).
    expect(await badgeOf(ctx, 'One-off Frames')).toBe('Bid · $82.50 · 2h 14m left');
    expect(await badgeOf(ctx, 'One-off Frames', '/')).toBe('Bid · $82.50 · 2h 14m left');

    ctx.clock.advance(HOUR + 10 * MINUTE);
    expect(await badgeOf(ctx, 'One-off Frames')).toBe('Bid · $82.50 · 1h 4m left');
    ctx.clock.set(endsAt - 3 * MINUTE);
    expect(await badgeOf(ctx, 'One-off Frames')).toBe('Bid · $82.50 · 2m left');
    // Past its end, before the close job: no Bid (and its unit is held, so no Buy Now either).
    ctx.clock.set(endsAt);
    expect(await badgeOf(ctx, 'One-off Frames')).toBe('');
  });

  test('a scheduled auction offers Bid in the cycle, not Buy Now; a cancelled one gives Buy Now back', async () => {
    const ctx = await auctionStore();
    ctx.db.update(products).set({ playEnabled: true }).where(eq(products.id, ctx.product.id)).run();
    setShelf(ctx.db, ctx.product.id, 2);
    const at = (ms: number) => new Date(ctx.clock.now() + ms).toISOString();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 50, startsAt: at(HOUR), endsAt: at(3 * HOUR) })).status).toBe(200);
    product(ctx, 'Newer', { playEnabled: true });
    // Position 1 of [Bid, Bet]: Bet; at position 0 (alone in its type's gallery) it says Bid.
    expect(await badgeOf(ctx, 'One-off Frames')).toBe('Bet');
    ctx.db.delete(products).where(eq(products.model, 'ML-Newer')).run();
    expect(await badgeOf(ctx, 'One-off Frames')).toBe('Bid');
    // Once it starts by the clock, the card says so with the price and time.
    ctx.clock.advance(HOUR);
    expect(await badgeOf(ctx, 'One-off Frames')).toBe('Bid · $50.00 · 1h 59m left');
    const admin = await adminWithPin(ctx);
    expect((await admin.post(`/api/admin/products/${ctx.product.id}/auction/cancel`, { json: {} })).status).toBe(200);
    expect(await badgeOf(ctx, 'One-off Frames')).toBe('Buy Now');
  });
});
