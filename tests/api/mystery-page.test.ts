import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { quickShopper } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';
import { boxOf, seedsOf } from '../helpers/boxes.ts';
import { all, allIslandProps, attribute, count, headingOf, text, textOf } from '../helpers/html.ts';

/*
 * /mystery (issue 29, item 2): each box, its price, its contents with each item's exact chance
 * and the commitment; a visitor gets a sign-in link and no island, a shopper the money button.
 */

describe('/mystery', () => {
  test('a visitor sees each box, its price, exact odds and commitment, and a sign-in link (no JavaScript for the box)', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [1, 3]);
    const page = await (await ctx.client().get('/mystery')).text();
    expect(headingOf(page)).toBe('Mystery Boxes');
    const box = all(page, '[data-box]');
    expect(box.map((b) => b.getAttribute('data-box'))).toEqual(['sunglasses']);
    expect(text(page, '[data-box-price]')).toBe(`$${(set.priceCents / 100).toFixed(2)}`);
    expect(all(page, '[data-chance]').map(textOf)).toEqual(['1 of 4 (25%)', '3 of 4 (75%)']);
    expect(text(page, '[data-seed-hash]')).toBe(seedsOf(ctx, 'sunglasses')[0]!.seedHash);
    expect(count(page, '[data-island="BuyMysteryBox"]')).toBe(0);
    expect(attribute(page, '[data-box] a[href^="/auth"]', 'href')).toBe('/auth?next=%2Fmystery');
  });

  test('a signed-in shopper gets Buy Mystery Box with the price, total and commitment; a box being repriced says so instead', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [2, 2]);
    const { client } = quickShopper(ctx, 'looker');
    const page = await (await client.get('/mystery')).text();
    const [props] = allIslandProps<{ type: string; price: number; total: number; seedHash: string; card: string }>(page, 'BuyMysteryBox');
    expect(props).toEqual({
      type: 'sunglasses',
      name: 'Sunglasses mystery box',
      price: set.priceCents / 100,
      total: Math.round(set.priceCents * 1.08) / 100,
      seedHash: seedsOf(ctx, 'sunglasses')[0]!.seedHash,
      card: 'Visa •••• 1111',
    } as never);
    ctx.db
      .update(products)
      .set({ priceCents: set.priceCents - 1 })
      .where(eq(products.id, set.products[0]!.id))
      .run();
    const paused = await (await client.get('/mystery')).text();
    expect(count(paused, '[data-island="BuyMysteryBox"]')).toBe(0);
    expect(textOf(paused)).toContain('being repriced');
  });

  test('no box on sale: says so', async () => {
    const ctx = await seededApp();
    ctx.db.update(products).set({ mysteryBoxEnabled: false }).run();
    expect(textOf(await (await ctx.client().get('/mystery')).text())).toContain('No mystery boxes right now');
  });

  test('a flagged product in stock links to /mystery, another product does not; /products links to it', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [1]);
    const flagged = await (await ctx.client().get(`/product/${set.products[0]!.id}`)).text();
    expect(attribute(flagged, '[data-mystery-link] a', 'href')).toBe('/mystery');
    const other = ctx.db.select().from(products).where(eq(products.mysteryBoxEnabled, false)).get()!;
    expect(count(await (await ctx.client().get(`/product/${other.id}`)).text(), '[data-mystery-link]')).toBe(0);
    expect(attribute(await (await ctx.client().get('/products')).text(), 'a[data-mystery-link]', 'href')).toBe('/mystery');
  });

  test('is in the sitemap', async () => {
    const ctx = await seededApp();
    expect(await (await ctx.client().get('/sitemap.xml')).text()).toContain('<loc>http://localhost/mystery</loc>');
  });
});
