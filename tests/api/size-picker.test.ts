import { describe, expect, test } from 'bun:test';
import { and, eq, isNull } from 'drizzle-orm';
import { cartItems, products, productVariants } from '../../src/db/schema.ts';
import { seededApp, type TestApp } from '../helpers/app.ts';
import { all, attribute, first, metaContent, parseHtml, textOf } from '../helpers/html.ts';
import { seeded } from '../helpers/products.ts';
import { withSizes } from '../helpers/variants.ts';

/*
 * What a shopper sees of sizes (issue 38): one card per product with the sizes left ('S–XL',
 * 'Only L left'); the product page's size picker (a radio group, sold-out sizes disabled and
 * named so), the size chosen in the URL, every buy control taking it, the page cache keyed on
 * the product's own sizes only, the JSON-LD ProductGroup and the share preview naming the size.
 */

const TEE = '38504-WHI';

/** The seeded store with a tee in S (sold out), M (its own price), L and XL, and another with only L left. */
async function store() {
  const ctx = await seededApp();
  const tee = seeded(ctx, TEE);
  const sizes = withSizes(ctx.db, tee.id, [
    { size: 'S', quantity: 0 },
    { size: 'M', quantity: 3, priceCents: 5000 },
    { size: 'L', quantity: 2 },
    { size: 'XL', quantity: 0 },
  ]);
  const other = ctx.db
    .select()
    .from(products)
    .where(eq(products.productType, 'tshirt'))
    .all()
    .find((product) => product.id !== tee.id)!;
  withSizes(ctx.db, other.id, [
    { size: 'M', quantity: 0 },
    { size: 'L', quantity: 1 },
  ]);
  const oneOf = (type: 'sunglasses' | 'book') =>
    ctx.db
      .select()
      .from(products)
      .where(and(eq(products.productType, type), isNull(products.archivedAt)))
      .get()!;
  return { ctx, tee, sizes, other, sunglasses: oneOf('sunglasses'), book: oneOf('book') };
}

async function html(ctx: TestApp, path: string) {
  const response = await ctx.client().get(path, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(200);
  return response.text();
}

/** The size line of the card linking to the product ('' for none). */
function cardSizes(page: string, id: number): string {
  const card = all(page, 'article').find((article) => article.querySelector(`a[href="/product/${id}"]`));
  expect(card).toBeDefined();
  const line = card!.querySelector('[data-sizes]');
  return line ? textOf(line) : '';
}

const jsonLdOf = (page: string) => JSON.parse(parseHtml(page).querySelector('script[type="application/ld+json"]')!.textContent!);

describe('cards', () => {
  test('one card per product, its sizes left as a range or the last one; nothing for sunglasses and books', async () => {
    const { ctx, tee, other, sunglasses, book } = await store();
    const tees = await html(ctx, '/products?type=tshirt');
    expect(all(tees, `article a[href="/product/${tee.id}"]`).length).toBeGreaterThan(0);
    expect(all(tees, 'article').filter((card) => card.querySelector(`a[href="/product/${tee.id}"]`))).toHaveLength(1);
    // S and XL are sold out: the range runs from M to L, with an en dash.
    expect(cardSizes(tees, tee.id)).toBe('Sizes: M–L');
    expect(cardSizes(tees, other.id)).toBe('Sizes: Only L left');
    expect(cardSizes(await html(ctx, '/products?type=sunglasses'), sunglasses.id)).toBe('');
    expect(cardSizes(await html(ctx, '/products?type=book'), book.id)).toBe('');
    // The home page's tee cards name their sizes too (every seeded tee has one).
    expect(all(await html(ctx, '/'), '[data-sizes]').length).toBeGreaterThan(0);
  });

  test('a size back in stock joins the range; a one-size tee names its size', async () => {
    const { ctx, tee, sizes, other } = await store();
    ctx.db.update(productVariants).set({ quantity: 2, stocked: 2 }).where(eq(productVariants.id, sizes.XL!)).run();
    ctx.db.update(products).set({ quantity: 7 }).where(eq(products.id, tee.id)).run();
    const tees = await html(ctx, '/products?type=tshirt');
    expect(cardSizes(tees, tee.id)).toBe('Sizes: M–XL');
    const single = ctx.db
      .select()
      .from(products)
      .where(eq(products.productType, 'tshirt'))
      .all()
      .find((product) => product.id !== tee.id && product.id !== other.id && product.quantity > 0);
    expect(single?.size).toBeTruthy();
    expect(cardSizes(tees, single!.id)).toBe(`Sizes: ${single!.size}`);
  });
});

describe('the size picker', () => {
  test('a radio group named Size: sold-out sizes disabled and named so; without a choice every buy control asks for one', async () => {
    const { ctx, tee } = await store();
    const page = await html(ctx, `/product/${tee.id}`);
    const form = first(page, 'form[data-size-picker]')!;
    expect(form.getAttribute('method')).toBe('get');
    expect(form.getAttribute('action')).toBe(`/product/${tee.id}#size`);
    expect(textOf(form.querySelector('fieldset > legend')!)).toBe('Size');
    const radios = [...form.querySelectorAll('input[type="radio"][name="size"]')];
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['S', 'M', 'L', 'XL']);
    expect(radios.map((radio) => radio.hasAttribute('disabled'))).toEqual([true, false, false, true]);
    expect(radios.some((radio) => radio.hasAttribute('checked'))).toBe(false);
    // Each radio is named by its label; a sold-out one says so in its name.
    expect(radios.map((radio) => radio.getAttribute('aria-label') ?? textOf(radio.closest('label')!))).toEqual(['S, sold out', 'M', 'L', 'XL, sold out']);
    expect(textOf(form.querySelector('button[type="submit"]')!)).toBe('Choose');
    // Pay Now and Add to Cart wait for a size: no link to checkout, no form that would be refused.
    expect(all(page, 'main [aria-disabled="true"], main button[disabled]').map(textOf)).toEqual(['Choose a size', 'Choose a size']);
    expect(all(page, 'a[href^="/checkout?productId="]:not([href$="&donate=1"])')).toHaveLength(0);
    expect(all(page, 'form[action="/cart/add"]')).toHaveLength(0);
    // Donate this leads to the checkout, which asks for the size itself.
    expect(attribute(page, '[data-donate-this] a', 'href')).toBe(`/checkout?productId=${tee.id}&donate=1`);
  });

  test('?size=M chooses M: checked, its count and its own price, and every buy control takes it', async () => {
    const { ctx, tee, sizes } = await store();
    const page = await html(ctx, `/product/${tee.id}?size=M`);
    expect(attribute(page, 'input[name="size"][checked]', 'value')).toBe('M');
    expect(textOf(mainOfPage(page))).toContain('$50.00');
    expect(textOf(mainOfPage(page))).toContain('Low Stock (3 left in size M)');
    expect(attribute(page, 'a[href^="/checkout?productId="]', 'href')).toBe(`/checkout?productId=${tee.id}&size=M`);
    const cart = first(page, 'form[action="/cart/add"]')!;
    expect(cart.querySelector('input[name="variantId"]')!.getAttribute('value')).toBe(String(sizes.M));
    expect(cart.querySelector('input[name="next"]')!.getAttribute('value')).toBe(`/product/${tee.id}?size=M`);
    // The islands on the page get the size too (the teams and auction panels send it).
    const islandProps = all(page, '[data-island] > script[type="application/json"]').map((script) => JSON.parse(script.textContent!));
    expect(islandProps.find((props) => 'sizes' in props)).toEqual({
      productId: tee.id,
      sizes: [
        { size: 'S', soldOut: true },
        { size: 'M', soldOut: false },
        { size: 'L', soldOut: false },
        { size: 'XL', soldOut: true },
      ],
      chosen: 'M',
    });
  });

  test('the no-JavaScript Add to Cart puts the chosen size in the cart', async () => {
    const { ctx, tee, sizes } = await store();
    const client = ctx.client();
    const added = await client.post('/cart/add', { form: { productId: String(tee.id), variantId: String(sizes.L), next: `/product/${tee.id}?size=L` } });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe(`/product/${tee.id}?size=L`);
    const lines = ctx.db.select().from(cartItems).where(eq(cartItems.productId, tee.id)).all();
    expect(lines.map((line) => line.variantId)).toEqual([sizes.L!]);
  });

  test('a sold-out size chosen by URL says so and offers no buying', async () => {
    const { ctx, tee } = await store();
    const page = await html(ctx, `/product/${tee.id}?size=XL`);
    expect(textOf(mainOfPage(page))).toContain('Size XL is sold out.');
    expect(all(page, 'form[action="/cart/add"]')).toHaveLength(0);
    expect(all(page, 'a[href^="/checkout?productId="]')).toHaveLength(0);
  });

  test('a one-variant product has no picker and its page is as before', async () => {
    const { ctx, sunglasses } = await store();
    const page = await html(ctx, `/product/${sunglasses.id}`);
    expect(all(page, '[data-size-picker], [data-island="SizePicker"]')).toHaveLength(0);
    expect(all(page, 'form[action="/cart/add"] input[name="variantId"]')).toHaveLength(0);
    expect(attribute(page, 'a[href^="/checkout?productId="]', 'href')).toBe(`/checkout?productId=${sunglasses.id}`);
  });
});

describe('the page cache by size', () => {
  test("each of the product's sizes is kept under its own key; an unknown size shows no choice and is never kept", async () => {
    const { ctx, tee } = await store();
    const client = ctx.client();
    const get = (path: string) => client.get(path, { headers: { accept: 'text/html' } }).then((response) => response.text());
    await get(`/product/${tee.id}?size=M`);
    const kept = ctx.pageCache.size;
    let hits = ctx.pageCache.hits;
    expect(attribute(await get(`/product/${tee.id}?size=M`), 'input[name="size"][checked]', 'value')).toBe('M');
    expect(ctx.pageCache.hits).toBe(hits + 1);
    // L is another page, kept apart from M's.
    expect(attribute(await get(`/product/${tee.id}?size=L`), 'input[name="size"][checked]', 'value')).toBe('L');
    expect(ctx.pageCache.size).toBe(kept + 1);
    // XXL is a size the store might write, but not this product's; 'm' and 'huge' no size at all.
    for (const unknown of ['XXL', 'm', 'huge', '']) {
      hits = ctx.pageCache.hits;
      const page = await get(`/product/${tee.id}?size=${unknown}`);
      expect(all(page, 'input[name="size"][checked]')).toHaveLength(0);
      expect(all(page, 'main [aria-disabled="true"]').map(textOf)).toEqual(['Choose a size']);
      await get(`/product/${tee.id}?size=${unknown}`);
      expect(ctx.pageCache.hits, unknown).toBe(hits);
      expect(ctx.pageCache.size, unknown).toBe(kept + 1);
    }
  });
});

describe('what search engines and link previews read', () => {
  test('a tee in sizes is a ProductGroup varying by size, each size a Product with its SKU, price and availability', async () => {
    const { ctx, tee, sunglasses } = await store();
    const data = jsonLdOf(await html(ctx, `/product/${tee.id}`));
    expect(data['@type']).toBe('ProductGroup');
    expect(data.variesBy).toBe('https://schema.org/size');
    expect(data.productGroupID).toBe(TEE);
    expect(
      data.hasVariant.map((variant: { '@type': string; sku: string; size: string; offers: { price: string; availability: string; url: string } }) => [
        variant['@type'],
        variant.size,
        variant.offers.price,
        variant.offers.availability,
        variant.offers.url.endsWith(`/product/${tee.id}?size=${variant.size}`),
      ]),
    ).toEqual([
      ['Product', 'S', '45.00', 'https://schema.org/OutOfStock', true],
      ['Product', 'M', '50.00', 'https://schema.org/InStock', true],
      ['Product', 'L', '45.00', 'https://schema.org/InStock', true],
      ['Product', 'XL', '45.00', 'https://schema.org/OutOfStock', true],
    ]);
    expect(data.hasVariant.map((variant: { sku: string }) => variant.sku)).toEqual(['S', 'M', 'L', 'XL'].map((size) => `${TEE}-${size}`));
    expect(new Set(data.hasVariant.map((variant: { sku: string }) => variant.sku)).size).toBe(4);
    // One variant: today's Product.
    const plain = jsonLdOf(await html(ctx, `/product/${sunglasses.id}`));
    expect(plain['@type']).toBe('Product');
    expect(plain.offers['@type']).toBe('Offer');
  });

  test('the share preview names the size ?size= gives, with its price; without one, none', async () => {
    const { ctx, tee } = await store();
    const sized = await html(ctx, `/product/${tee.id}?size=M`);
    expect(metaContent(sized, 'og:title')).toContain(', size M');
    expect(metaContent(sized, 'og:description')).toStartWith('Size M, $50.00.');
    expect(metaContent(sized, 'product:price:amount')).toBe('50.00');
    const plain = await html(ctx, `/product/${tee.id}`);
    expect(metaContent(plain, 'og:title')).not.toContain('size');
    expect(metaContent(plain, 'og:description')).not.toStartWith('Size');
    // The canonical page is the product's, whichever size is chosen.
    expect(attribute(sized, 'link[rel="canonical"]', 'href')).toEndWith(`/product/${tee.id}`);
  });
});

function mainOfPage(page: string): Element {
  return parseHtml(page).querySelector('main')!;
}
