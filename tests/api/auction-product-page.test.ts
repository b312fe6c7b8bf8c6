import { describe, expect, test } from 'bun:test';
import { auctions } from '../../src/db/schema.ts';
import type { AuctionView } from '../../src/shared/views/auctions.ts';
import { auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { all, attribute, islandProps, links, parseHtml } from '../helpers/html.ts';

/*
 * The product page of an auctioned product (issue 28, item 6): the auction panel in Pay Now's
 * place with the public view as its props, Buy Now beside it only while the view offers it, a
 * truthful Offer, and never a stale panel from the page cache. A product without an auction
 * ships the islands it shipped before.
 */

const islandsOf = (html: string) => all(html, '[data-island]').map((element) => element.getAttribute('data-island'));
const offerOf = (html: string) => JSON.parse(parseHtml(html).querySelector('script[type="application/ld+json"]')!.textContent!).offers;
const linkTexts = (html: string) => links(html).map((link) => link.text);

describe('the product page with an auction', () => {
  test('without an auction: Pay Now and the same islands as before, no auction code', async () => {
    const ctx = await auctionStore();
    const html = await (await ctx.client().get(`/product/${ctx.product.id}`)).text();
    expect(islandsOf(html)).toEqual(['ShareButton', 'Toaster']);
    expect(html).not.toContain('AuctionPanel');
    expect(linkTexts(html)).toContain('Pay Now');
    expect(offerOf(html).price).toBe('400.00');
  });

  test("running: the panel takes Pay Now's place with the public view, whoever looks; the Offer is the current bid", async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    await placeBid(alice!.client, ctx.product.id, 30);
    await placeBid(bob!.client, ctx.product.id, 20);
    for (const viewer of [ctx.client(), alice!.client]) {
      const html = await (await viewer.get(`/product/${ctx.product.id}`)).text();
      const props = islandProps<{ productId: number; initial: AuctionView }>(html, 'AuctionPanel');
      expect(props.productId).toBe(ctx.product.id);
      expect(props.initial).toMatchObject({ status: 'running', currentPrice: 21, bidCount: 3, leading: false });
      // The page is shared: the bidder's own part comes from the panel's own read.
      for (const field of ['youBid', 'yourMaximum', 'payment']) expect(props.initial).not.toHaveProperty(field);
      expect(html).not.toContain('30.00');
      expect(linkTexts(html)).not.toContain('Pay Now');
      expect(linkTexts(html).some((link) => link.startsWith('Buy Now'))).toBe(false);
      expect(attribute(html, 'form[action="/cart/add"]', 'action')).toBeUndefined();
      expect(offerOf(html)).toMatchObject({ price: '21.00', availability: 'https://schema.org/InStock' });
      // Its unit is held for the auction: up for auction, not 'Out of Stock'.
      expect(html).toContain('Up for auction');
      expect(html).not.toContain('Out of Stock');
    }
  });

  test('Buy Now stays beside the panel while the admin kept it and nobody bid; the cached page follows the first bid', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10, keepBuyNow: true });
    const visitor = ctx.client();
    const before = await (await visitor.get(`/product/${ctx.product.id}`)).text();
    expect(links(before).find((link) => link.text === 'Buy Now $400.00')?.href).toBe(`/checkout?productId=${ctx.product.id}`);
    expect(await (await visitor.get(`/product/${ctx.product.id}`)).text()).toBe(before);

    const [alice] = bidders(ctx, ['alice1']);
    expect((await placeBid(alice!.client, ctx.product.id, 15)).status).toBe(201);
    const after = await (await visitor.get(`/product/${ctx.product.id}`)).text();
    expect(islandProps<{ initial: AuctionView }>(after, 'AuctionPanel').initial).toMatchObject({ currentPrice: 10, bidCount: 1, buyNowOffered: false });
    expect(linkTexts(after).some((link) => link.startsWith('Buy Now'))).toBe(false);
  });

  test('the clock alone ends it: the cached page shows the ended auction, with Pay Now back only when there is stock', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const visitor = ctx.client();
    const running = await (await visitor.get(`/product/${ctx.product.id}`)).text();
    expect(islandProps<{ initial: AuctionView }>(running, 'AuctionPanel').initial.status).toBe('running');
    ctx.clock.set(ctx.db.select().from(auctions).get()!.endsAt);
    const ended = await (await visitor.get(`/product/${ctx.product.id}`)).text();
    expect(islandProps<{ initial: AuctionView }>(ended, 'AuctionPanel').initial.status).toBe('ended');
    // Its one unit is still held for the auction until the close job: sold out, not Pay Now.
    expect(linkTexts(ended)).not.toContain('Pay Now');
  });
});
