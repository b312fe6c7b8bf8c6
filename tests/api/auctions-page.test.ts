import { describe, expect, test } from 'bun:test';
import { products } from '../../src/db/schema.ts';
import { all, attribute, first, links, mainOf, metaContent, text, textOf } from '../helpers/html.ts';
import { type AuctionStore, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';

/*
 * /auctions (issue 28, item 6): the running auctions, ending soonest first, each with its image,
 * name, price (or starting bid), bids and time left, and a link to its product page; an empty
 * state; the page's meta; found from the sitemap, /products and the tutorial's Pay Option.
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

async function auctionsPage(ctx: AuctionStore) {
  const response = await ctx.client().get('/auctions');
  expect(response.status).toBe(200);
  return response.text();
}

/** Each listed auction: [name, the line under it, the price, bids and time left], in page order. */
const listed = (html: string) =>
  all(html, 'li[data-auction]').map((item) => ({
    name: text(item, 'h2'),
    href: attribute(item, 'a', 'href'),
    image: attribute(item, 'img', 'src'),
    text: textOf(item),
  }));

describe('/auctions', () => {
  test('running auctions, ending soonest first, with price or starting bid, bids, time left and a link to bid', async () => {
    const ctx = await auctionStore();
    const soon = anotherProduct(ctx, 'Soon');
    const later = anotherProduct(ctx, 'Later');
    const notYet = anotherProduct(ctx, 'Not Yet');
    const at = (ms: number) => new Date(ctx.clock.now() + ms).toISOString();
    expect((await putAuction(ctx.admin, later.id, { startingBid: 10, endsAt: at(5 * HOUR + MINUTE + 30_000) })).status).toBe(200);
    expect((await putAuction(ctx.admin, soon.id, { startingBid: 20, endsAt: at(HOUR + MINUTE + 30_000) })).status).toBe(200);
    expect((await putAuction(ctx.admin, notYet.id, { startingBid: 30, startsAt: at(HOUR), endsAt: at(2 * HOUR) })).status).toBe(200);
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 40 })).status).toBe(200);
    expect((await ctx.admin.post(`/api/admin/products/${ctx.product.id}/auction/cancel`, { json: {} })).status).toBe(200);
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    expect((await placeBid(alice!.client, later.id, 30)).status).toBe(201);
    expect((await placeBid(bob!.client, later.id, 40)).status).toBe(201);

    let shown = listed(await auctionsPage(ctx));
    // Not started and cancelled auctions are not there.
    expect(shown.map((item) => item.name)).toEqual(['Maison Lune Soon', 'Maison Lune Later']);
    expect(shown[0]!.href).toBe(`/product/${soon.id}`);
    expect(shown[0]!.image).toStartWith('/static/images/defaults/sunglasses.svg');
    expect(shown[0]!.text).toContain('Starting bid $20.00');
    expect(shown[0]!.text).toContain('No bids yet');
    expect(shown[0]!.text).toContain('1h 0m left');
    expect(shown[0]!.text).toContain('Ends Nov 21, 2026, 11:01 AM');
    // alice at the $10 start, the store's bid for her at her $30, bob's at $30 + the $1 step below $50.
    expect(shown[1]!.text).toContain('Current bid $31.00');
    expect(shown[1]!.text).toContain('3 bids');
    expect(shown[1]!.text).toContain('5h 0m left');

    // A bid writes no product row: the kept page still follows it.
    expect((await placeBid(alice!.client, soon.id, 25)).status).toBe(201);
    shown = listed(await auctionsPage(ctx));
    expect(shown[0]!.text).toContain('Current bid $20.00');
    expect(shown[0]!.text).toContain('1 bid');

    // One ends by the clock, the scheduled one starts: the list follows the clock, not only the close job.
    ctx.clock.advance(HOUR + 2 * MINUTE);
    shown = listed(await auctionsPage(ctx));
    expect(shown.map((item) => item.name)).toEqual(['Maison Lune Not Yet', 'Maison Lune Later']);
  });

  test('no running auction: the empty state, and a way back to the shop', async () => {
    const ctx = await auctionStore();
    const html = await auctionsPage(ctx);
    expect(all(html, 'li[data-auction]')).toEqual([]);
    expect(textOf(mainOf(html))).toContain('No auctions running right now. Check back soon!');
    expect(links(mainOf(html))).toContainEqual({ href: '/products', text: 'Browse all products' });
  });

  test('meta tags like the other pages, in the sitemap, linked from /products and the Pay Option', async () => {
    const ctx = await auctionStore();
    const html = await auctionsPage(ctx);
    const title = `Auctions | ${ctx.config.siteName}`;
    expect(textOf(first(html, 'title')!)).toBe(title);
    expect(metaContent(html, 'og:title')).toBe(title);
    expect(metaContent(html, 'description')).toContain('auctions running now');
    expect(metaContent(html, 'og:url')).toBe('http://localhost/auctions');
    expect(attribute(html, 'link[rel="canonical"]', 'href')).toBe('http://localhost/auctions');
    expect(text(mainOf(html), 'h1')).toBe('Auctions');
    expect(html).not.toContain('<script');

    expect(await (await ctx.client().get('/sitemap.xml')).text()).toContain('<loc>http://localhost/auctions</loc>');
    const gallery = await (await ctx.client().get('/products')).text();
    expect(links(mainOf(gallery))).toContainEqual({ href: '/auctions', text: 'See auctions' });
    const tutorial = await (await ctx.client().get('/tutorial?tab=pay')).text();
    expect(links(mainOf(tutorial))).toContainEqual({ href: '/auctions', text: 'See the auctions' });
  });

  test("a signed-in shopper's page lists the same running auctions", async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 15 });
    const [alice] = bidders(ctx, ['alice1']);
    const mine = await (await alice!.client.get('/auctions')).text();
    expect(listed(mine).map((item) => item.name)).toEqual(['Maison Lune One-off Frames']);
  });
});
