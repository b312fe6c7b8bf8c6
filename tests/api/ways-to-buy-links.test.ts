import { describe, expect, test } from 'bun:test';
import { products } from '../../src/db/schema.ts';
import { quickShopper } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';
import { all, attributes, count, first, links, textOf } from '../helpers/html.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * Issue 37, item 15: auctions, mystery boxes, team buys and donations are reached from the header
 * (its Ways to buy menu), the site menu, the footer and the home page, and each link opens a page
 * that lists that way to buy. Team buys and donations start on a product's page, so their links
 * lead to the products that offer them.
 */

const WAYS = ['/auctions', '/mystery', '/products?way=team', '/products?way=donate'];

describe('the ways to buy, linked from everywhere a shopper looks', () => {
  test('the home page: header menu, site menu, footer and the Ways to buy section each link all four, for a visitor and signed in', async () => {
    const ctx = await seededApp();
    for (const client of [ctx.client(), quickShopper(ctx, 'waysshopper').client]) {
      const html = await (await client.get('/')).text();
      for (const place of ['header', 'menu', 'footer', 'home']) {
        expect(attributes(html, `[data-ways-to-buy="${place}"] a`, 'href'), place).toEqual(WAYS);
      }
      // Where each list sits: the header's menu and the site menu in the header, the footer's in the footer, the section in main.
      expect(count(html, 'header [data-menu="ways"] [data-ways-to-buy="header"]')).toBe(1);
      expect(count(html, 'header [data-menu="site"] [data-ways-to-buy="menu"]')).toBe(1);
      expect(count(html, 'footer nav[aria-label="Ways to buy"] [data-ways-to-buy="footer"]')).toBe(1);
      expect(count(html, 'main [data-ways-to-buy="home"]')).toBe(1);
      expect(textOf(first(html, 'main section[aria-labelledby="ways-to-buy"]')!)).toContain('Ways to buy');
    }
  });

  test("another page: the header menu and the footer link all four (the site menu is the home page's)", async () => {
    const ctx = await seededApp();
    const html = await (await ctx.client().get('/products')).text();
    expect(attributes(html, '[data-ways-to-buy="header"] a', 'href')).toEqual(WAYS);
    expect(attributes(html, '[data-ways-to-buy="footer"] a', 'href')).toEqual(WAYS);
  });

  test('every link opens a page: the listing pages answer 200 with their way in the heading', async () => {
    const ctx = await seededApp();
    const headings: Record<string, RegExp> = {
      '/auctions': /auction/i,
      '/mystery': /mystery/i,
      '/products?way=team': /^Team buys$/,
      '/products?way=donate': /^Buy to donate$/,
    };
    for (const href of WAYS) {
      const response = await ctx.client().get(href);
      expect(response.status, href).toBe(200);
      expect(textOf(first(await response.text(), 'main h1')!), href).toMatch(headings[href]!);
    }
  });

  test('/products?way=team lists only products ticked for half price with a unit left; way=donate only Donate ones sold and in stock', async () => {
    const ctx = await seededApp();
    const productIds = (html: string) => links(html, 'main a[href^="/product/"]').map((link) => Number(link.href.split('/').pop()));
    const rows = ctx.db.select().from(products).all();
    const soldOut = rows.find((p) => p.halfPriceEnabled)!;
    setShelf(ctx.db, soldOut.id, 0);

    const team = new Set(productIds(await (await ctx.client().get('/products?way=team')).text()));
    const wantTeam = rows.filter((p) => p.halfPriceEnabled && p.id !== soldOut.id && p.quantity > 0 && !p.archivedAt).map((p) => p.id);
    expect(wantTeam.length).toBeGreaterThan(0);
    expect([...team].sort((a, b) => a - b)).toEqual(wantTeam.sort((a, b) => a - b));

    const donate = new Set(productIds(await (await ctx.client().get('/products?way=donate')).text()));
    const wantDonate = rows.filter((p) => p.donateEnabled && p.buyNowEnabled && p.quantity > 0 && !p.archivedAt).map((p) => p.id);
    expect(wantDonate.length).toBeGreaterThan(0);
    expect([...donate].sort((a, b) => a - b)).toEqual(wantDonate.sort((a, b) => a - b));

    // The type pills keep the way: sunglasses that can be bought as a team.
    const pills = attributes(await (await ctx.client().get('/products?way=team')).text(), 'nav[aria-label="Product type"] a', 'href');
    expect(pills).toContain('/products?type=sunglasses&way=team');
    // An unknown way is the plain listing, never an error.
    const unknown = await ctx.client().get('/products?way=raffle');
    expect(unknown.status).toBe(200);
    expect(all(await unknown.text(), '[data-way-intro]')).toHaveLength(0);
  });
});
