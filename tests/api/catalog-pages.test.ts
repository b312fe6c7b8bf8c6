import { all, count, first, hrefsOf, parseHtml, textOf, type Html } from '../helpers/html.ts';
import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { products } from '../../src/db/schema.ts';
import { testApp, seededApp } from '../helpers/app.ts';

async function seededVisitor() {
  const ctx = await seededApp();
  return { ...ctx, visitor: ctx.client() };
}

/** The product card headings of a page, in order. */
const cardNames = (html: Html) => all(html, 'h2[class^="m-0 text-sm font-bold"], h3[class^="m-0 text-sm font-bold"]').map(textOf);

/** The prices the product cards show, in order. */
const cardPrices = (html: string) =>
  all(html, 'span[class="text-base font-extrabold"]')
    .map((price) => /^\$(\d+\.\d\d)$/.exec(textOf(price))?.[1])
    .filter((price) => price !== undefined)
    .map(Number);

describe('home', () => {
  test('each gallery shows up to 4 of the newest 6 of its type, those in stock first', async () => {
    const { visitor, db, clock } = await seededVisitor();
    const newest = db
      .insert(products)
      .values({
        productType: 'shoe',
        brand: 'Brand New Kicks',
        model: 'BNK-1',
        size: '10',
        quantity: 3,
        priceCents: 9900,
        imageUrl: '',
        createdAt: clock.now(),
      })
      .returning()
      .get();
    const html = await (await visitor.get('/')).text();
    expect(count(html, 'section[aria-labelledby="gallery-shoe"]')).toBe(1);
    const shoes = first(html, 'section[aria-labelledby="gallery-shoe"]')!;
    expect(cardNames(shoes)).toHaveLength(4);
    expect(cardNames(shoes)[0]).toBe('Brand New Kicks');
    expect(hrefsOf(shoes)).toContain(`/product/${newest.id}`);
    expect(textOf(shoes)).not.toContain('Out of Stock');
  });

  test('cards link to the product and to /social-play, show the badge, the stock label and the purchase types they offer', async () => {
    const { visitor } = await seededVisitor();
    const html = await (await visitor.get('/products?type=sunglasses')).text();
    expect(html).toMatch(/href="\/product\/\d+"/);
    expect(html).toMatch(/href="\/social-play\/\d+"/);
    expect(html).toContain('Best Seller');
    const purchaseTypes = all(html, '[data-offer]').map(textOf);
    // No auction runs in the seeded shop: no card says Bid (issue 28); the others cycle among what each product offers.
    expect(purchaseTypes).toContain('Buy Now');
    expect(purchaseTypes).not.toContain('Bid');
    expect(html).toMatch(/In Stock|Low Stock/);
  });

  test('missing local images are answered by the type default, and remote ones get the fallback script', async () => {
    const { visitor, db } = await seededVisitor();
    db.update(products).set({ imageUrl: 'https://images.example/gone.jpg' }).where(eq(products.model, 'RB3025-L0205')).run();
    const html = await (await visitor.get('/products?type=sunglasses')).text();
    expect(html).toContain('data-fallback="/static/images/defaults/sunglasses.svg"');
    expect(html).toMatch(/<script type="module" src="\/assets\/image-fallback-[a-z0-9]+\.js">/);
    expect(html).toContain('.svg?fallback=sunglasses"');
    const home = await (await visitor.get('/')).text();
    expect(home).not.toContain('<script');
  });
});

describe('/products', () => {
  test('?type= keeps one type and is the canonical URL; the title names the type', async () => {
    const { visitor } = await seededVisitor();
    const html = await (await visitor.get('/products?type=book&sort=price-asc')).text();
    expect(html).toContain('<title>Books | CSA</title>');
    expect(html).toContain('<link rel="canonical" href="http://localhost/products?type=book"/>');
    expect(cardNames(html)).toContain('Cannery Row');
    expect(cardNames(html)).not.toContain('Ray-Ban');
  });

  test('sorts by price both ways and by newest, without JavaScript', async () => {
    const { visitor } = await seededVisitor();
    const low = cardPrices(await (await visitor.get('/products?sort=price-asc')).text());
    expect(low.length).toBe(28);
    expect(low).toEqual([...low].sort((a, b) => a - b));
    const high = cardPrices(await (await visitor.get('/products?sort=price-desc')).text());
    expect(high).toEqual([...low].sort((a, b) => b - a));
    const html = await (await visitor.get('/products?sort=newest')).text();
    expect(html).toContain('Sort: Newest Arrivals');
    for (const label of ['Featured', 'Price low to high', 'Price high to low', 'Newest Arrivals']) expect(html).toContain(`>${label}</a>`);
  });

  test('search looks at brand, model and description, combines with type, and says so when nothing matches', async () => {
    const { visitor } = await seededVisitor();
    // Named products (issue 27): each card reads its own name, no two 'Ray-Ban'.
    expect(cardNames(await (await visitor.get('/products?q=ray-ban')).text()).sort()).toEqual(['Aviator Classic', 'Original Wayfarer']);
    expect(cardNames(await (await visitor.get('/products?q=RB2140')).text())).toEqual(['Original Wayfarer']);
    expect(cardNames(await (await visitor.get('/products?q=wayfarer')).text())).toEqual(['Original Wayfarer']);
    expect(cardNames(await (await visitor.get('/products?q=steinbeck&type=book')).text())).toEqual(['Cannery Row']);
    expect(cardNames(await (await visitor.get('/products?q=steinbeck&type=shoe')).text())).toEqual([]);
    const none = await (await visitor.get('/products?q=%25_nothing')).text();
    expect(none).toContain('No products match “%_nothing”. Try another word, or browse all products.');
    expect(none).toContain('<meta name="robots" content="noindex"/>');
  });

  test('an empty store says so', async () => {
    const { client } = await testApp();
    expect(await (await client().get('/products')).text()).toContain('No products available. Check back soon!');
  });

  test('the header search opens a form that searches /products', async () => {
    const { visitor } = await seededVisitor();
    const html = await (await visitor.get('/')).text();
    const doc = parseHtml(html);
    const button = doc.querySelector('button[aria-label="Search products"]')!;
    const panel = doc.getElementById(button.getAttribute('popovertarget')!)!;
    expect(panel.getAttribute('popover')).toBe('auto');
    const form = panel.querySelector('form[role="search"]')!;
    expect([form.getAttribute('action'), form.getAttribute('method')]).toEqual(['/products', 'get']);
    expect(form.querySelector('input[name="q"]')).not.toBeNull();
  });
});

describe('/product/{id}', () => {
  test('shows the product with Entry: $1, Pay Now to checkout, Play Now, stock, Share and JSON-LD', async () => {
    const { visitor, db } = await seededVisitor();
    const row = db.select().from(products).where(eq(products.model, 'RB2140-901')).get()!;
    const html = await (await visitor.get(`/product/${row.id}`)).text();
    expect(html).toContain(`<title>Ray-Ban Original Wayfarer | CSA</title>`);
    expect(html).toContain('<meta property="og:type" content="product"/>');
    expect(html).toContain('Entry: $1');
    expect(html).toContain(`href="/checkout?productId=${row.id}"`);
    expect(html).toContain(`href="/social-play/${row.id}"`);
    expect(html).toContain('data-island="ShareButton"');
    expect(html).toContain('Low Stock');
    const jsonLd = JSON.parse(first(html, 'script[type="application/ld+json"]')?.textContent ?? '');
    expect(jsonLd).toMatchObject({ '@type': 'Product', sku: 'RB2140-901', brand: { name: 'Ray-Ban' } });
    expect(jsonLd.offers).toMatchObject({ '@type': 'Offer', price: '163.00', priceCurrency: 'USD', availability: 'https://schema.org/InStock' });
    expect(jsonLd.image[0]).toMatch(/^http:\/\/localhost\/share\/product\/\d+-[a-z0-9]+\.png$/);
    expect(jsonLd.image[1]).toMatch(/^http:\/\/localhost\/static\/images\/products\//);
  });

  test("a book shows 'by {author}' and an out-of-stock product offers no checkout", async () => {
    const { visitor, db } = await seededVisitor();
    const jaws = db.select().from(products).where(eq(products.brand, 'Jaws')).get()!;
    const html = await (await visitor.get(`/product/${jaws.id}`)).text();
    expect(html).toContain('by Peter Benchley');
    expect(html).toContain('Out of Stock');
    expect(html).not.toContain(`href="/checkout?productId=${jaws.id}"`);
    expect(html).toContain('https://schema.org/OutOfStock');
  });

  test('a playable product has the two tabs; the competition tab shows the game status', async () => {
    const { visitor, db } = await seededVisitor();
    const playable = db.select().from(products).where(eq(products.playEnabled, true)).get()!;
    const details = await (await visitor.get(`/product/${playable.id}`)).text();
    expect(details).toContain('>Product Details</a>');
    expect(details).toContain('>Social Competition</a>');
    const competition = await (await visitor.get(`/product/${playable.id}?tab=competition`)).text();
    expect(competition).toContain('No game is running for this product yet.');
    const { games } = await import('../../src/db/schema.ts');
    db.insert(games).values({ productId: playable.id, requiredParticipants: 4, createdAt: 0 }).run();
    const waiting = await (await visitor.get(`/product/${playable.id}?tab=competition`)).text();
    expect(waiting).toContain('Waiting for 4 more participants. (0/4 entries)');
  });

  test.each(['/product/999999', '/product/abc', '/product/0'])('%s shows the not-found view with Go Back', async (path) => {
    const { visitor } = await seededVisitor();
    const response = await visitor.get(path);
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).toContain('Product Not Found');
    expect(html).toContain('The product you&#x27;re looking for doesn&#x27;t exist or has been removed.');
    expect(html).toContain('>Go Back</a>');
  });
});

describe('sitemap and robots', () => {
  test('/sitemap.xml lists the public pages and every product; /robots.txt points to it', async () => {
    const { visitor, db } = await seededVisitor();
    const sitemap = await visitor.get('/sitemap.xml');
    expect(sitemap.headers.get('content-type')).toContain('application/xml');
    const xml = await sitemap.text();
    for (const path of ['/', '/products', '/products?type=book', '/scoreboard', '/tutorial']) {
      expect(xml).toContain(`<loc>http://localhost${path.replace('&', '&amp;')}</loc>`);
    }
    for (const product of db.select().from(products).all()) expect(xml).toContain(`<loc>http://localhost/product/${product.id}</loc>`);
    const robots = await (await visitor.get('/robots.txt')).text();
    expect(robots).toContain('Sitemap: http://localhost/sitemap.xml');
    expect(robots).toContain('Disallow: /admin');
  });
});
