import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, orders, products } from '../../src/db/schema.ts';
import { closeDueAuctions } from '../../src/domain/auctions/close.ts';
import { all, attribute, first, links, mainOf, textOf } from '../helpers/html.ts';
import { type AuctionStore, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import type { TestClient } from '../helpers/app.ts';

/*
 * The profile's Bids tab (issue 28, item 6): Active (leading or outbid, price, time left, a way
 * back to bid), Won (paid: the order; awaiting payment: the product page to pay), Lost; empty
 * state. The same groups as GET /api/user/bids.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function anotherProduct(ctx: AuctionStore, name: string) {
  return ctx.db
    .insert(products)
    .values({ brand: 'Maison Lune', model: `ML-${name}`, name, quantity: 1, priceCents: 10_000, bidEnabled: true, createdAt: ctx.clock.now() })
    .returning()
    .get();
}

async function bidsTab(client: TestClient) {
  const response = await client.get('/profile?tab=bids');
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(attribute(html, 'a[aria-current="page"]', 'href')).toBe('/profile?tab=bids');
  return mainOf(html);
}

/** A group's rows as their text, and each row's links. */
function group(tab: Element, id: 'active' | 'won' | 'lost') {
  const section = first(tab, `[data-bids="${id}"]`)!;
  return all(section, 'li[data-bid]').map((row) => ({ text: textOf(row), links: links(row) }));
}

describe('the Bids tab', () => {
  test('active (leading, outbid), won (paid: the order; awaiting payment: pay on the product page) and lost', async () => {
    const ctx = await auctionStore();
    const lost = ctx.product;
    const leading = anotherProduct(ctx, 'Leading');
    const outbid = anotherProduct(ctx, 'Outbid');
    const owing = anotherProduct(ctx, 'Owing');
    const at = (ms: number) => new Date(ctx.clock.now() + ms).toISOString();
    expect((await putAuction(ctx.admin, lost.id, { startingBid: 100, endsAt: at(HOUR) })).status).toBe(200);
    for (const product of [leading, outbid, owing]) {
      expect((await putAuction(ctx.admin, product.id, { startingBid: 10, endsAt: at(3 * HOUR + MINUTE + 30_000) })).status).toBe(200);
    }
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    expect((await placeBid(alice!.client, lost.id, 150)).status).toBe(201);
    expect((await placeBid(bob!.client, lost.id, 200)).status).toBe(201);
    expect((await placeBid(alice!.client, leading.id, 40)).status).toBe(201);
    expect((await placeBid(alice!.client, outbid.id, 20)).status).toBe(201);
    expect((await placeBid(bob!.client, outbid.id, 60)).status).toBe(201);
    expect((await placeBid(alice!.client, owing.id, 30)).status).toBe(201);

    // The first auction ends: bob is charged by the close job; a charge declined leaves alice's won auction owing.
    ctx.clock.advance(HOUR);
    await closeDueAuctions({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway });
    const paid = ctx.db.select().from(auctions).where(eq(auctions.productId, lost.id)).get()!;
    expect(paid.status).toBe('ended');
    const dueAt = ctx.clock.now() + 24 * HOUR;
    ctx.db
      .update(auctions)
      .set({ status: 'awaiting_payment', winnerId: alice!.id, paymentDueAt: dueAt, endsAt: ctx.clock.now() - MINUTE })
      .where(eq(auctions.productId, owing.id))
      .run();

    const tab = await bidsTab(alice!.client);
    const active = group(tab, 'active');
    expect(active).toHaveLength(2);
    const mine = active.find((row) => row.text.includes('Maison Lune Leading'))!;
    expect(mine.text).toContain("You're the highest bidder");
    expect(mine.text).toContain('Current bid $10.00 · 2h 0m left');
    const theirs = active.find((row) => row.text.includes('Maison Lune Outbid'))!;
    expect(theirs.text).toContain("You've been outbid");
    // bob's $60 over alice's $20: $20 + the $1 step.
    expect(theirs.text).toContain('Current bid $21.00 · 2h 0m left');
    expect(theirs.links).toContainEqual({ href: `/product/${outbid.id}`, text: 'Bid again on Maison Lune Outbid' });

    const won = group(tab, 'won');
    expect(won).toHaveLength(1);
    expect(won[0]!.text).toContain('You won it for $10.00');
    expect(won[0]!.text).toContain('Payment needed by Nov 22, 2026, 11:00 AM');
    expect(won[0]!.links).toContainEqual({ href: `/product/${owing.id}`, text: 'Pay now for Maison Lune Owing' });

    const lostRows = group(tab, 'lost');
    expect(lostRows).toHaveLength(1);
    expect(lostRows[0]!.text).toContain('Maison Lune One-off Frames');
    expect(lostRows[0]!.text).toContain('Won by another bidder');
    expect(lostRows[0]!.text).toContain('Final bid $152.50');

    // bob won the first and paid: his Won links to the order.
    const bobs = await bidsTab(bob!.client);
    const bobWon = group(bobs, 'won');
    expect(bobWon).toHaveLength(1);
    expect(paid.winnerOrderId).not.toBeNull();
    expect(ctx.db.select().from(orders).where(eq(orders.id, paid.winnerOrderId!)).get()!.userId).toBe(bob!.id);
    expect(bobWon[0]!.text).toContain('You won it for $152.50');
    expect(bobWon[0]!.links).toContainEqual({ href: `/orders/${paid.winnerOrderId}`, text: 'View order for Maison Lune One-off Frames' });
    expect(group(bobs, 'active').map((row) => row.text)).toEqual([expect.stringContaining("You're the highest bidder")]);
    expect(group(bobs, 'lost')).toEqual([]);
  });

  test('no bids yet: the empty state leads to the auctions; signed out: sent to sign in', async () => {
    const ctx = await auctionStore();
    const [carol] = bidders(ctx, ['carol3']);
    const tab = await bidsTab(carol!.client);
    expect(textOf(tab)).toContain("You haven't bid on anything yet.");
    expect(links(tab)).toContainEqual({ href: '/auctions', text: 'See the auctions' });
    const signedOut = await ctx.client().get('/profile?tab=bids');
    expect(signedOut.status).toBe(302);
  });
});
