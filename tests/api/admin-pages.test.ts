import { describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { products, type Product } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { TEST_PIN, testApp, type TestClient } from '../helpers/app.ts';
import { adminWithPin, adminWithoutPin } from '../helpers/actors.ts';

/*
 * The server-rendered admin pages (spec section 2, "Admin panel" and "Admin product forms";
 * section 8, product save/delete toasts and PIN messages), driven like a browser without
 * JavaScript: plain GETs and multipart form posts through app.request().
 */

// ---------------------------------------------------------------- setup helpers

type Ctx = Awaited<ReturnType<typeof testApp>>;
type Kind = 'sunglasses' | 'tshirt' | 'shoe' | 'book';

const PNG_1X1 = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (ch) =>
  ch.charCodeAt(0),
);
const UPLOAD_URL = /^\/uploads\/[a-f0-9]{32}\.png$/;
const IMAGE_TYPE_MESSAGE = 'The image must be a JPEG, PNG, WebP or GIF file.';
const FLAGS = ['buyNowEnabled', 'bidEnabled', 'playEnabled', 'halfPriceEnabled', 'mysteryBoxEnabled', 'buyOnePlayFreeEnabled', 'donateEnabled'] as const;

/** Each type's form route (spec section 2's route table). */
const ROUTE: Record<Kind, string> = { sunglasses: '/admin/product', tshirt: '/admin/tshirt', shoe: '/admin/shoe', book: '/admin/book' };
const LABEL: Record<Kind, string> = { sunglasses: 'Sunglasses', tshirt: 'T-Shirt', shoe: 'Shoe', book: 'Book' };
/** One seeded product of each type (by SKU), and one that belongs to another type. */
const SEEDED: Record<Kind, { model: string; name: string; otherModel: string; otherName: string }> = {
  sunglasses: { model: 'RB3025-L0205', name: 'Ray-Ban', otherModel: '38504-WHI', otherName: 'Patagonia' },
  tshirt: { model: '38504-WHI', name: 'Patagonia', otherModel: 'CW2288-111', otherName: 'Nike' },
  shoe: { model: 'CW2288-111', name: 'Nike', otherModel: 'BK-JAWS-001', otherName: 'Jaws' },
  book: { model: 'BK-OLDMAN-001', name: 'The Old Man and the Sea', otherModel: 'RB3025-L0205', otherName: 'Ray-Ban' },
};

const png = (name = 'photo.png') => new File([PNG_1X1], name, { type: 'image/png' });
/** What a browser sends for a file input left empty. */
const noFile = () => new File([], '', { type: 'application/octet-stream' });

async function setup({ seed = true } = {}): Promise<Ctx> {
  const ctx = await testApp();
  if (seed) seedIfEmpty(ctx.db, ctx.clock);
  return ctx;
}

async function shopper(ctx: Ctx): Promise<TestClient> {
  const client = ctx.client();
  expect((await client.post('/api/register', { json: { username: 'shopper1', password: 'secret-pass' } })).status).toBe(201);
  return client;
}

// ---------------------------------------------------------------- database helpers

const allProducts = (ctx: Ctx): Product[] => ctx.db.select().from(products).all();
const productCount = (ctx: Ctx) => allProducts(ctx).length;
const byModel = (ctx: Ctx, model: string) => ctx.db.select().from(products).where(eq(products.model, model)).get();
const byId = (ctx: Ctx, id: number) => ctx.db.select().from(products).where(eq(products.id, id)).get();
const seeded = (ctx: Ctx, model: string): Product => byModel(ctx, model)!;
const uploads = (ctx: Ctx) => readdirSync(ctx.uploadsDir);
const idsOfType = (ctx: Ctx, type: Kind) =>
  allProducts(ctx)
    .filter((p) => p.productType === type)
    .map((p) => p.id)
    .sort((a, b) => a - b);

// ---------------------------------------------------------------- HTML helpers

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec) => String.fromCodePoint(Number(dec)))
    .replace(/&amp;/g, '&');
}

/** The page's own content (without the shared header, navigation and toaster). */
function mainOf(html: string): string {
  const match = /<main\b[^>]*>([\s\S]*)<\/main>/.exec(html);
  expect(match).not.toBeNull();
  return match![1]!;
}

/** Visible text with tags removed and whitespace collapsed. */
const textOf = (html: string) =>
  decode(html.replace(/<script\b[\s\S]*?<\/script>/g, ' ').replace(/<[^>]+>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();

const headingOf = (html: string) => textOf(/<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(mainOf(html))?.[1] ?? '');

function attributes(tag: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const [, name, value] of tag.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[name!] = decode(value!);
  return attrs;
}

/** Attributes of the first element `<tag ...>` carrying name="{name}". */
function elementNamed(html: string, tag: string, name: string): Record<string, string> | undefined {
  for (const [element] of html.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'g'))) {
    const attrs = attributes(element);
    if (attrs.name === name) return attrs;
  }
  return undefined;
}

const inputValue = (html: string, name: string) => elementNamed(html, 'input', name)?.value;

function textareaValue(html: string, name: string): string | undefined {
  const match = new RegExp(`<textarea\\b[^>]*name="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html);
  return match ? decode(match[1]!) : undefined;
}

function selectedOption(html: string, name: string): string | undefined {
  const select = new RegExp(`<select\\b[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html)?.[1] ?? '';
  return /<option value="([^"]*)" selected=""/.exec(select)?.[1];
}

const isChecked = (html: string, name: string) => elementNamed(html, 'input', name)?.checked !== undefined;

/** The message shown under a field (its `field-{name}-error` element), if any. */
function fieldError(html: string, name: string): string | undefined {
  const match = new RegExp(`<p id="field-${name}-error"[^>]*>([\\s\\S]*?)</p>`).exec(html);
  return match ? textOf(match[1]!) : undefined;
}

const allFieldErrors = (html: string) =>
  [...html.matchAll(/<p id="field-([\w]+)-error"[^>]*>([\s\S]*?)<\/p>/g)].map(([, name, text]) => `${name}: ${textOf(text!)}`);

/** The toast the page opens with (the Toaster island's initial props), or null. */
function toastOf(html: string): { title: string; description?: string; variant?: string } | null {
  const json = /data-island="Toaster"[^>]*><script type="application\/json">([^<]*)<\/script>/.exec(html)?.[1];
  expect(json).toBeDefined();
  return JSON.parse(json!).initial ?? null;
}

const hrefsOf = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map(([, href]) => decode(href!));

/** Product ids listed on the panel, from the rows' Edit links. */
function listedIds(html: string): number[] {
  return [...mainOf(html).matchAll(/href="\/admin\/(?:product|tshirt|shoe|book)\/(\d+)"/g)].map(([, id]) => Number(id)).sort((a, b) => a - b);
}

/** The fields a browser would submit from the page's product form, unchanged. */
function formFieldsOf(html: string): Record<string, string> {
  const form = /<form\b[^>]*encType="multipart\/form-data"[^>]*>([\s\S]*?)<\/form>/.exec(mainOf(html))?.[1];
  expect(form).toBeDefined();
  const fields: Record<string, string> = {};
  for (const [tag] of form!.matchAll(/<input\b[^>]*>/g)) {
    const attrs = attributes(tag);
    if (!attrs.name || attrs.type === 'file') continue;
    if (attrs.type === 'checkbox') {
      if (attrs.checked !== undefined) fields[attrs.name] = 'on';
    } else fields[attrs.name] = attrs.value ?? '';
  }
  for (const [, attrs] of form!.matchAll(/<select\b([^>]*)>/g)) {
    const name = attributes(attrs!).name!;
    fields[name] = selectedOption(form!, name) ?? '';
  }
  for (const [, attrs, text] of form!.matchAll(/<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g)) fields[attributes(attrs!).name!] = decode(text!);
  return fields;
}

/** A multipart body as a browser builds it; `image` defaults to an empty file input. */
function multipart(fields: Record<string, string | File>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (!('image' in fields)) form.append('image', noFile());
  return form;
}

/** Valid new-product fields for each type, as typed into its form. */
const NEW_FIELDS: Record<Kind, Record<string, string>> = {
  sunglasses: {
    productType: 'sunglasses',
    brand: 'Form Optics',
    sku: 'FO-100',
    size: '52-18-140',
    badge: 'New',
    price: '149.5',
    quantity: '4',
    description: 'Hand-made acetate frames.',
    playEnabled: 'on',
    donateEnabled: 'on',
  },
  tshirt: {
    productType: 'tshirt',
    brand: 'Form Tees',
    sku: 'FT-200',
    size: 'L',
    price: '29.99',
    quantity: '10',
    description: 'Organic cotton.',
    buyNowEnabled: 'on',
  },
  shoe: {
    productType: 'shoe',
    brand: 'Form Kicks',
    sku: 'FK-300',
    size: '10.5',
    price: '120',
    quantity: '0',
    description: 'Trail runner.',
    bidEnabled: 'on',
    halfPriceEnabled: 'on',
  },
  book: {
    productType: 'book',
    name: 'Salt & Sand',
    author: 'Jane Doe',
    pages: '320',
    sku: 'BK-SALT-001',
    price: '15',
    quantity: '2',
    summary: 'Stories from the coast.',
    mysteryBoxEnabled: 'on',
    buyOnePlayFreeEnabled: 'on',
  },
};

function newForm(type: Kind, changes: Record<string, string | File | undefined> = {}): FormData {
  const fields: Record<string, string | File> = { ...NEW_FIELDS[type], image: png() };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete fields[name];
    else fields[name] = value;
  }
  return multipart(fields);
}

// ---------------------------------------------------------------- who may see the admin pages

describe('access to the admin pages', () => {
  const formPaths = [
    '/admin/product/new',
    '/admin/product/new?type=book',
    '/admin/tshirt/new',
    '/admin/shoe/new',
    '/admin/book/new',
    '/admin/product/1',
    '/admin/tshirt/8',
    '/admin/shoe/15',
    '/admin/book/22',
  ];

  test('signed out: /admin and every form route redirect (302) to /auth?next={path}', async () => {
    const ctx = await setup();
    const visitor = ctx.client();
    for (const path of ['/admin', '/admin?tab=book', ...formPaths, '/admin/products/1/delete']) {
      const response = await visitor.get(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe(`/auth?next=${encodeURIComponent(path)}`);
    }
  });

  test('signed out: a form post is redirected to /auth and stores nothing', async () => {
    const ctx = await setup({ seed: false });
    const response = await ctx.client().post('/admin/tshirt/new', { body: newForm('tshirt') });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`/auth?next=${encodeURIComponent('/admin/tshirt/new')}`);
    expect(productCount(ctx)).toBe(0);
  });

  test('a signed-in non-admin gets the 403 Access Denied page on /admin and the form routes', async () => {
    const ctx = await setup();
    const client = await shopper(ctx);
    for (const path of ['/admin', ...formPaths, '/admin/products/1/delete']) {
      const response = await client.get(path);
      expect(response.status, path).toBe(403);
      const main = mainOf(await response.text());
      expect(headingOf(`<main>${main}</main>`)).toBe('Access Denied');
      expect(textOf(main)).toContain('Admin Access Required');
      expect(main).toMatch(/<a href="\/"[^>]*>Go to Home<\/a>/);
      expect(textOf(main)).not.toContain('Admin Panel');
    }
  });

  test('a signed-in non-admin cannot create or delete through the forms', async () => {
    const ctx = await setup();
    const client = await shopper(ctx);
    const before = productCount(ctx);
    const create = await client.post('/admin/tshirt/new', { body: newForm('tshirt') });
    expect(create.status).toBe(403);
    expect(textOf(mainOf(await create.text()))).toContain('Access Denied');
    const target = seeded(ctx, 'RB3025-L0205');
    const remove = await client.post(`/admin/products/${target.id}/delete`);
    expect(remove.status).toBe(403);
    expect(productCount(ctx)).toBe(before);
    expect(byId(ctx, target.id)).toBeDefined();
    expect(uploads(ctx)).toEqual([]);
  });
});

describe('the PIN screen in front of the admin pages', () => {
  test('GET /admin without the PIN shows Admin Authentication with Cancel (to /) and Verify PIN', async () => {
    const ctx = await setup();
    const admin = await adminWithoutPin(ctx);
    const response = await admin.get('/admin');
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe('Admin Authentication');
    expect(main).toMatch(/<a href="\/"[^>]*>Cancel<\/a>/);
    expect(main).toMatch(/<button type="submit"[^>]*>Verify PIN<\/button>/);
    expect(main).toContain('action="/admin/pin"');
    expect(inputValue(main, 'next')).toBe('/admin');
    expect(elementNamed(main, 'input', 'pin')?.type).toBe('password');
    expect(textOf(main)).not.toContain('Ray-Ban');
    expect(main).not.toContain('Back to Store');
  });

  test('GET /admin/tshirt/new without the PIN shows the PIN screen, whose next is that path; the right PIN leads back there', async () => {
    const ctx = await setup();
    const admin = await adminWithoutPin(ctx);
    const response = await admin.get('/admin/tshirt/new');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(headingOf(html)).toBe('Admin Authentication');
    expect(inputValue(mainOf(html), 'next')).toBe('/admin/tshirt/new');
    expect(mainOf(html)).not.toContain('name="sku"');

    const verified = await admin.post('/admin/pin', { form: { pin: TEST_PIN, next: '/admin/tshirt/new' } });
    expect(verified.status).toBe(303);
    expect(verified.headers.get('location')).toBe('/admin/tshirt/new');

    const form = await admin.get('/admin/tshirt/new');
    expect(form.status).toBe(200);
    const formHtml = await form.text();
    expect(headingOf(formHtml)).toBe('Add T-Shirt');
    expect(toastOf(formHtml)).toEqual({ title: 'Access granted', description: 'Welcome to the admin panel.', variant: 'default' });
  });

  test('the PIN screen keeps the query of the page asked for', async () => {
    const ctx = await setup();
    const admin = await adminWithoutPin(ctx);
    const html = await (await admin.get('/admin/product/new?type=book')).text();
    expect(inputValue(mainOf(html), 'next')).toBe('/admin/product/new?type=book');
  });

  test('a form post without the PIN is refused (403, PIN screen) and stores nothing', async () => {
    const ctx = await setup({ seed: false });
    const admin = await adminWithoutPin(ctx);
    const response = await admin.post('/admin/tshirt/new', { body: newForm('tshirt') });
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(headingOf(html)).toBe('Admin Authentication');
    expect(fieldError(html, 'pin') ?? textOf(mainOf(html))).toContain('Enter the admin PIN to continue.');
    expect(toastOf(html)).toEqual({ title: 'Access denied', description: 'Enter the admin PIN to continue.', variant: 'destructive' });
    expect(productCount(ctx)).toBe(0);
    expect(uploads(ctx)).toEqual([]);
  });

  test('a delete post without the PIN is refused and the product stays', async () => {
    const ctx = await setup();
    const admin = await adminWithoutPin(ctx);
    const target = seeded(ctx, 'BK-JAWS-001');
    const response = await admin.post(`/admin/products/${target.id}/delete`);
    expect(response.status).toBe(403);
    expect(headingOf(await response.text())).toBe('Admin Authentication');
    expect(byId(ctx, target.id)).toBeDefined();
  });
});

// ---------------------------------------------------------------- the panel

describe('the admin panel', () => {
  test('default tab is Sunglasses: heading, tabs, Back to Store, Add button, only sunglasses listed', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const response = await admin.get('/admin');
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe('Admin Panel');
    expect(main).toMatch(/<a href="\/"[^>]*>Back to Store<\/a>/);
    expect(main).toMatch(/<a href="\/admin\?tab=sunglasses" aria-current="page"[^>]*>Sunglasses<\/a>/);
    for (const [tab, label] of [
      ['tshirt', 'T-Shirts'],
      ['shoe', 'Shoes'],
      ['book', 'Books'],
      ['orders', 'Orders'],
      ['settings', 'Settings'],
    ]) {
      expect(main).toMatch(new RegExp(`<a href="/admin\\?tab=${tab}" class="[^"]*">${label}</a>`));
    }
    expect(main).toMatch(/<a href="\/admin\/product\/new\?type=sunglasses"[^>]*>Add Sunglasses<\/a>/);
    expect(listedIds(html)).toEqual(idsOfType(ctx, 'sunglasses'));
    expect(textOf(main)).toContain('Ray-Ban');
    expect(textOf(main)).toContain('RB3025-L0205');
    expect(textOf(main)).not.toContain('Patagonia');
    expect(textOf(main)).not.toContain('BK-JAWS-001');
  });

  test.each(['sunglasses', 'tshirt', 'shoe', 'book'] as Kind[])('?tab=%s lists only that type, with Edit and Delete links per row', async (type) => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const html = await (await admin.get(`/admin?tab=${type}`)).text();
    const main = mainOf(html);
    const { model, name, otherModel, otherName } = SEEDED[type];
    expect(textOf(main)).toContain(name);
    expect(textOf(main)).toContain(model);
    expect(textOf(main)).not.toContain(otherName);
    expect(textOf(main)).not.toContain(otherModel);

    const ids = idsOfType(ctx, type);
    expect(ids).toHaveLength(7);
    expect(listedIds(html)).toEqual(ids);
    const hrefs = hrefsOf(main);
    for (const id of ids) {
      expect(hrefs).toContain(`${ROUTE[type]}/${id}`);
      expect(hrefs).toContain(`/admin/products/${id}/delete`);
    }
    // No row links to another type's form route.
    const otherRoutes = Object.values(ROUTE).filter((route) => route !== ROUTE[type]);
    expect(hrefs.filter((href) => otherRoutes.some((route) => new RegExp(`^${route}/\\d+$`).test(href)))).toEqual([]);
    expect(main).toMatch(new RegExp(`<a href="/admin\\?tab=${type}" aria-current="page"`));
  });

  test('an unknown tab falls back to Sunglasses', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const html = await (await admin.get('/admin?tab=nonsense')).text();
    expect(listedIds(html)).toEqual(idsOfType(ctx, 'sunglasses'));
  });

  test('search is case-insensitive on brand', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const html = await (await admin.get('/admin?q=ray-ban')).text();
    expect(listedIds(html)).toEqual([seeded(ctx, 'RB3025-L0205').id, seeded(ctx, 'RB2140-901').id].sort((a, b) => a - b));
    expect(inputValue(mainOf(html), 'q')).toBe('ray-ban');
    expect(inputValue(mainOf(html), 'tab')).toBe('sunglasses');

    const vans = await (await admin.get('/admin?tab=tshirt&q=VANS')).text();
    expect(listedIds(vans)).toEqual([seeded(ctx, 'VN000GGG-BLK').id]);
  });

  test('search matches part of a SKU, in any case', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    expect(listedIds(await (await admin.get('/admin?q=l0205')).text())).toEqual([seeded(ctx, 'RB3025-L0205').id]);
    expect(listedIds(await (await admin.get('/admin?tab=book&q=bk-jaws')).text())).toEqual([seeded(ctx, 'BK-JAWS-001').id]);
    expect(listedIds(await (await admin.get('/admin?tab=shoe&q=m990')).text())).toEqual([seeded(ctx, 'M990GL6').id]);
  });

  test('search does not match words found only in the description', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const html = await (await admin.get('/admin?q=teardrop')).text();
    expect(listedIds(html)).toEqual([]);
    expect(textOf(mainOf(html))).toContain('No products match “teardrop”.');
    // A book's author lives in its description.
    expect(listedIds(await (await admin.get('/admin?tab=book&q=hemingway')).text())).toEqual([]);
  });

  test('search is limited to the tab', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    expect(listedIds(await (await admin.get('/admin?tab=shoe&q=rb3025')).text())).toEqual([]);
  });

  test("an empty store shows 'No products available. Add your first product.' on every product tab", async () => {
    const ctx = await setup({ seed: false });
    const admin = await adminWithPin(ctx);
    for (const type of ['sunglasses', 'tshirt', 'shoe', 'book']) {
      const html = await (await admin.get(`/admin?tab=${type}`)).text();
      expect(textOf(mainOf(html))).toContain('No products available. Add your first product.');
      expect(listedIds(html)).toEqual([]);
    }
  });

  test('the Orders tab lists orders (none yet) and Settings shows its coming-soon text; no products', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const orders = await admin.get('/admin?tab=orders');
    expect(orders.status).toBe(200);
    const ordersHtml = await orders.text();
    expect(textOf(mainOf(ordersHtml))).toContain('No orders yet.');
    expect(listedIds(ordersHtml)).toEqual([]);
    expect(mainOf(ordersHtml)).toMatch(/<a href="\/admin\?tab=orders" aria-current="page"/);

    const settingsHtml = await (await admin.get('/admin?tab=settings')).text();
    expect(textOf(mainOf(settingsHtml))).toContain('Store settings are coming soon');
    expect(listedIds(settingsHtml)).toEqual([]);
  });
});

// ---------------------------------------------------------------- the form pages

describe('the form pages', () => {
  test.each([
    ['/admin/product/new', 'Add Sunglasses', 'sunglasses', '/admin/product/new'],
    ['/admin/product/new?type=sunglasses', 'Add Sunglasses', 'sunglasses', '/admin/product/new'],
    ['/admin/product/new?type=book', 'Add Book', 'book', '/admin/product/new?type=book'],
    ['/admin/tshirt/new', 'Add T-Shirt', 'tshirt', '/admin/tshirt/new'],
    ['/admin/shoe/new', 'Add Shoe', 'shoe', '/admin/shoe/new'],
    ['/admin/book/new', 'Add Book', 'book', '/admin/book/new'],
  ])('GET %s answers 200 with %p', async (path, heading, type, action) => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const response = await admin.get(path);
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe(heading);
    expect(main).toContain(`action="${action}"`);
    expect(main).toContain('method="post"');
    expect(main).toContain('encType="multipart/form-data"');
    expect(inputValue(main, 'productType')).toBe(type);
    expect(main).toMatch(/<a href="\/"[^>]*>Back to Store<\/a>/);
    expect(hrefsOf(main)).toContain(`/admin?tab=${type}`);
    // A new product: the type can still be chosen, nothing is kept, empty fields but the defaults.
    expect(main).toContain('aria-label="Product type"');
    expect(inputValue(main, 'keepExistingImage')).toBeUndefined();
    expect(inputValue(main, 'sku')).toBe('');
    expect(inputValue(main, 'price')).toBe('');
    expect(inputValue(main, 'quantity')).toBe('1');
    expect(isChecked(main, 'buyNowEnabled')).toBe(true);
    expect(isChecked(main, 'playEnabled')).toBe(false);
    if (type === 'book') {
      for (const name of ['name', 'author', 'pages']) expect(inputValue(main, name)).toBe('');
      expect(textareaValue(main, 'summary')).toBe('');
      expect(inputValue(main, 'brand')).toBeUndefined();
    } else {
      expect(inputValue(main, 'brand')).toBe('');
      expect(inputValue(main, 'author')).toBeUndefined();
    }
    expect(main).toContain(`Create ${LABEL[type as Kind]}`);
  });

  test.each(['sunglasses', 'tshirt', 'shoe', 'book'] as Kind[])('the edit form of a %s is pre-filled and its type locked', async (type) => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, SEEDED[type].model);
    const response = await admin.get(`${ROUTE[type]}/${product.id}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe(`Edit ${LABEL[type]}`);
    expect(main).toContain(`action="${ROUTE[type]}/${product.id}"`);
    expect(inputValue(main, 'sku')).toBe(product.model);
    expect(inputValue(main, 'price')).toBe((product.priceCents / 100).toFixed(2));
    expect(inputValue(main, 'quantity')).toBe(String(product.quantity));
    expect(inputValue(main, 'keepExistingImage')).toBe('true');
    expect(inputValue(main, 'productType')).toBe(type);
    expect(main).toContain(`src="${product.imageUrl}?fallback=${type}"`);
    expect(textOf(main)).toContain(`Type: ${LABEL[type]} (a product's type cannot be changed)`);
    expect(main).not.toContain('aria-label="Product type"');
    expect(main).toContain('Save Changes');
    for (const flag of FLAGS) expect(isChecked(main, flag), flag).toBe(product[flag]);
    if (type === 'book') {
      expect(inputValue(main, 'name')).toBe(product.brand);
      expect(inputValue(main, 'author')).toBe('Ernest Hemingway');
      expect(inputValue(main, 'pages')).toBe(product.size);
      expect(textareaValue(main, 'summary')).toBe(product.description!.replace(/^AUTHOR:[^;]*;;/, ''));
    } else {
      expect(inputValue(main, 'brand')).toBe(product.brand);
      if (type === 'tshirt') expect(selectedOption(main, 'size')).toBe(product.size);
      else expect(inputValue(main, 'size')).toBe(product.size);
    }
  });

  test('the sunglasses edit form splits the badge out of the description', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'RB3025-L0205');
    const main = mainOf(await (await admin.get(`/admin/product/${product.id}`)).text());
    expect(inputValue(main, 'badge')).toBe('Best Seller');
    expect(textareaValue(main, 'description')).toStartWith('The original Aviator in a gold metal frame');
  });

  test.each([
    ['/admin/shoe/{tshirt}', 'tshirt', '/admin/tshirt/{tshirt}'],
    ['/admin/product/{tshirt}', 'tshirt', '/admin/tshirt/{tshirt}'],
    ['/admin/product/{book}', 'book', '/admin/book/{book}'],
    ['/admin/book/{sunglasses}', 'sunglasses', '/admin/product/{sunglasses}'],
    ['/admin/tshirt/{shoe}', 'shoe', '/admin/shoe/{shoe}'],
  ] as [string, Kind, string][])('GET %s redirects (302) to the product’s own route', async (from, type, to) => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const id = String(seeded(ctx, SEEDED[type].model).id);
    const response = await admin.get(from.replace(/\{\w+\}/, id));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(to.replace(/\{\w+\}/, id));
  });

  test("an unknown id answers 404 'Product Not Found' on every form route and on the delete page", async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    for (const path of ['/admin/product/99999', '/admin/tshirt/99999', '/admin/shoe/99999', '/admin/book/99999', '/admin/products/99999/delete']) {
      const response = await admin.get(path);
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(headingOf(html), path).toBe('Product Not Found');
      expect(hrefsOf(mainOf(html))).toContain('/admin');
    }
  });

  test('a post to an unknown id answers 404 and stores nothing', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const before = allProducts(ctx);
    const response = await admin.post('/admin/tshirt/99999', { body: newForm('tshirt') });
    expect(response.status).toBe(404);
    expect(headingOf(await response.text())).toBe('Product Not Found');
    expect(allProducts(ctx)).toEqual(before);
    expect(uploads(ctx)).toEqual([]);
  });
});

// ---------------------------------------------------------------- creating through the forms

describe('creating products through the forms', () => {
  const cases: { type: Kind; path: string; title: string; expected: Partial<Product> }[] = [
    {
      type: 'sunglasses',
      path: '/admin/product/new',
      title: 'Product created',
      expected: {
        productType: 'sunglasses',
        brand: 'Form Optics',
        model: 'FO-100',
        size: '52-18-140',
        priceCents: 14950,
        quantity: 4,
        description: 'BADGE:New;;Hand-made acetate frames.',
        buyNowEnabled: false,
        bidEnabled: false,
        playEnabled: true,
        halfPriceEnabled: false,
        mysteryBoxEnabled: false,
        buyOnePlayFreeEnabled: false,
        donateEnabled: true,
      },
    },
    {
      type: 'tshirt',
      path: '/admin/tshirt/new',
      title: 'T-Shirt created',
      expected: {
        productType: 'tshirt',
        brand: 'Form Tees',
        model: 'FT-200',
        size: 'L',
        priceCents: 2999,
        quantity: 10,
        description: 'Organic cotton.',
        buyNowEnabled: true,
        bidEnabled: false,
        playEnabled: false,
        donateEnabled: false,
      },
    },
    {
      type: 'shoe',
      path: '/admin/shoe/new',
      title: 'Shoe created',
      expected: {
        productType: 'shoe',
        brand: 'Form Kicks',
        model: 'FK-300',
        size: '10.5',
        priceCents: 12000,
        quantity: 0,
        description: 'Trail runner.',
        buyNowEnabled: false,
        bidEnabled: true,
        halfPriceEnabled: true,
        playEnabled: false,
      },
    },
    {
      type: 'book',
      path: '/admin/book/new',
      title: 'Book created',
      expected: {
        productType: 'book',
        brand: 'Salt & Sand',
        model: 'BK-SALT-001',
        size: '320',
        priceCents: 1500,
        quantity: 2,
        description: 'AUTHOR:Jane Doe;;Stories from the coast.',
        buyNowEnabled: false,
        mysteryBoxEnabled: true,
        buyOnePlayFreeEnabled: true,
        playEnabled: false,
      },
    },
    {
      type: 'book',
      path: '/admin/product/new?type=book',
      title: 'Book created',
      expected: { productType: 'book', brand: 'Salt & Sand', size: '320', description: 'AUTHOR:Jane Doe;;Stories from the coast.' },
    },
  ];

  test.each(cases)('POST $path creates a $type: 303 to its tab, the row, the "$title" toast', async ({ type, path, title, expected }) => {
    const ctx = await setup({ seed: false });
    const admin = await adminWithPin(ctx);
    const response = await admin.post(path, { body: newForm(type) });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin?tab=${type}`);

    const rows = allProducts(ctx);
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row).toMatchObject(expected);
    expect(row.imageUrl).toMatch(UPLOAD_URL);
    expect(ctx.images.exists(row.imageUrl)).toBe(true);
    expect(uploads(ctx)).toEqual([row.imageUrl.slice('/uploads/'.length)]);
    expect(row.createdAt).toBe(ctx.clock.now());

    const panel = await admin.get(`/admin?tab=${type}`);
    const html = await panel.text();
    const toast = toastOf(html);
    expect(toast?.title).toBe(title);
    expect(toast?.variant).toBe('default');
    expect(toast?.description).toBe(`${row.brand} ${type === 'book' ? 'by Jane Doe' : row.model} is now in the store.`);
    expect(listedIds(html)).toEqual([row.id]);
    // The toast is shown once.
    expect(toastOf(await (await admin.get(`/admin?tab=${type}`)).text())).toBeNull();
  });

  test('all checkboxes ticked are stored true; none ticked are stored false', async () => {
    const ctx = await setup({ seed: false });
    const admin = await adminWithPin(ctx);
    const ticked = Object.fromEntries(FLAGS.map((flag) => [flag, 'on']));
    expect((await admin.post('/admin/shoe/new', { body: newForm('shoe', { ...ticked, sku: 'ALL-ON' }) })).status).toBe(303);
    const unticked = Object.fromEntries(FLAGS.map((flag) => [flag, undefined]));
    expect((await admin.post('/admin/shoe/new', { body: newForm('shoe', { ...unticked, sku: 'ALL-OFF' }) })).status).toBe(303);
    for (const flag of FLAGS) {
      expect(byModel(ctx, 'ALL-ON')![flag], flag).toBe(true);
      expect(byModel(ctx, 'ALL-OFF')![flag], flag).toBe(false);
    }
  });

  test('the route decides the type, whatever productType the form sends', async () => {
    const ctx = await setup({ seed: false });
    const admin = await adminWithPin(ctx);
    const response = await admin.post('/admin/tshirt/new', { body: newForm('tshirt', { productType: 'shoe' }) });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin?tab=tshirt');
    expect(byModel(ctx, 'FT-200')?.productType).toBe('tshirt');
  });

  test('a sunglasses form with an empty badge stores the description without a marker', async () => {
    const ctx = await setup({ seed: false });
    const admin = await adminWithPin(ctx);
    expect((await admin.post('/admin/product/new', { body: newForm('sunglasses', { badge: '' }) })).status).toBe(303);
    expect(byModel(ctx, 'FO-100')?.description).toBe('Hand-made acetate frames.');
  });
});

// ---------------------------------------------------------------- form errors

describe('a refused form is shown again', () => {
  async function refused(ctx: Ctx, path: string, form: FormData, status = 400) {
    const admin = await adminWithPin(ctx);
    const before = allProducts(ctx);
    const response = await admin.post(path, { body: form });
    expect(response.status).toBe(status);
    const html = await response.text();
    // Nothing stored, no file left behind.
    expect(allProducts(ctx)).toEqual(before);
    expect(uploads(ctx)).toEqual([]);
    return html;
  }

  test.each([
    ['tshirt', 'price 0', 'price', 'Price must be greater than 0', { price: '0' }],
    ['tshirt', 'no price', 'price', 'Price must be greater than 0', { price: '' }],
    ['tshirt', 'quantity -1', 'quantity', 'Quantity cannot be negative', { quantity: '-1' }],
    ['tshirt', 'no brand', 'brand', 'Brand is required', { brand: '' }],
    ['shoe', 'price -5', 'price', 'Price must be greater than 0', { price: '-5' }],
    ['sunglasses', 'a badge with ;', 'badge', 'Badge cannot contain ;', { badge: 'Hot;;Deal' }],
    ['book', 'an empty author', 'author', 'Author is required', { author: '' }],
    ['book', 'no author field', 'author', 'Author is required', { author: undefined }],
    ['book', 'no name', 'name', 'Book name is required', { name: '' }],
    ['book', 'pages 0', 'pages', 'Pages must be at least 1', { pages: '0' }],
    ['book', 'no pages', 'pages', 'Pages must be at least 1', { pages: '' }],
  ] as [Kind, string, string, string, Record<string, string | undefined>][])(
    'a new %s with %s: 400, the %s field says "%s", Creation failed, typed values kept',
    async (type, _case, field, message, changes) => {
      const ctx = await setup({ seed: false });
      const html = await refused(ctx, `${ROUTE[type]}/new`, newForm(type, changes));
      const main = mainOf(html);
      expect(headingOf(html)).toBe(`Add ${LABEL[type]}`);
      expect(allFieldErrors(main)).toEqual([`${field}: ${message}`]);
      expect(elementNamed(main, field === 'size' ? 'select' : 'input', field)?.['aria-invalid']).toBe('true');
      expect(toastOf(html)).toEqual({ title: 'Creation failed', description: message, variant: 'destructive' });
      // What was typed is still there (the file input cannot be refilled).
      const typed = { ...NEW_FIELDS[type], ...changes };
      expect(inputValue(main, 'sku')).toBe(typed.sku!);
      expect(inputValue(main, 'price')).toBe(typed.price!);
      expect(inputValue(main, 'quantity')).toBe(typed.quantity!);
      if (type === 'book') {
        expect(inputValue(main, 'name')).toBe(typed.name!);
        expect(inputValue(main, 'author')).toBe(typed.author ?? '');
        expect(inputValue(main, 'pages')).toBe(typed.pages!);
        expect(textareaValue(main, 'summary')).toBe(typed.summary!);
      } else {
        expect(inputValue(main, 'brand')).toBe(typed.brand!);
        expect(textareaValue(main, 'description')).toBe(typed.description!);
      }
      for (const flag of FLAGS) expect(isChecked(main, flag), flag).toBe(typed[flag] === 'on');
    },
  );

  test('a missing SKU: 400, "SKU is required" in the Creation failed toast, typed values kept, nothing stored', async () => {
    const ctx = await setup({ seed: false });
    const html = await refused(ctx, '/admin/tshirt/new', newForm('tshirt', { sku: '' }));
    expect(headingOf(html)).toBe('Add T-Shirt');
    expect(toastOf(html)).toEqual({ title: 'Creation failed', description: 'SKU is required', variant: 'destructive' });
    expect(inputValue(mainOf(html), 'brand')).toBe('Form Tees');
    expect(selectedOption(mainOf(html), 'size')).toBe('L');
  });

  // BUG (src/routes/pages/admin/index.tsx, the POST form handler's catch): the schema reports the
  // SKU under its stored name `model`, but the form's field is `sku`, so the message is never
  // shown next to the SKU field (only in the toast). Remove `.failing` once that is fixed.
  test('a missing SKU: "SKU is required" is shown next to the SKU field', async () => {
    const ctx = await setup({ seed: false });
    const html = await refused(ctx, '/admin/tshirt/new', newForm('tshirt', { sku: '' }));
    expect(fieldError(mainOf(html), 'sku')).toBe('SKU is required');
  });

  test('several errors at once are each shown next to their field', async () => {
    const ctx = await setup({ seed: false });
    const html = await refused(ctx, '/admin/book/new', newForm('book', { author: '', pages: '0', price: '0', quantity: '-1', image: undefined }));
    const main = mainOf(html);
    expect(fieldError(main, 'author')).toBe('Author is required');
    expect(fieldError(main, 'pages')).toBe('Pages must be at least 1');
    expect(fieldError(main, 'price')).toBe('Price must be greater than 0');
    expect(fieldError(main, 'quantity')).toBe('Quantity cannot be negative');
    expect(fieldError(main, 'image')).toBe('A cover image is required for new books');
    expect(toastOf(html)?.title).toBe('Creation failed');
  });

  test.each([
    ['tshirt', 'An image is required for new t-shirts'],
    ['sunglasses', 'An image is required for new products'],
    ['shoe', 'An image is required for new shoes'],
    ['book', 'A cover image is required for new books'],
  ] as [Kind, string][])('a new %s without an image: "%s"', async (type, message) => {
    const ctx = await setup({ seed: false });
    const html = await refused(ctx, `${ROUTE[type]}/new`, newForm(type, { image: undefined }));
    expect(allFieldErrors(mainOf(html))).toEqual([`image: ${message}`]);
    expect(toastOf(html)).toEqual({ title: 'Creation failed', description: message, variant: 'destructive' });
  });

  test('a text file as the image: 400 with the image-type message (the domain answers 415, the page 400)', async () => {
    const ctx = await setup({ seed: false });
    const html = await refused(ctx, '/admin/tshirt/new', newForm('tshirt', { image: new File(['just some notes'], 'notes.txt', { type: 'text/plain' }) }));
    expect(allFieldErrors(mainOf(html))).toEqual([`image: ${IMAGE_TYPE_MESSAGE}`]);
    expect(toastOf(html)).toEqual({ title: 'Creation failed', description: IMAGE_TYPE_MESSAGE, variant: 'destructive' });
  });

  test('a text file that claims to be a PNG is refused the same way', async () => {
    const ctx = await setup({ seed: false });
    const html = await refused(ctx, '/admin/shoe/new', newForm('shoe', { image: new File(['not a picture'], 'fake.png', { type: 'image/png' }) }));
    expect(fieldError(mainOf(html), 'image')).toBe(IMAGE_TYPE_MESSAGE);
  });

  test('an image over 5 MB: 413 with "The image must be 5 MB or smaller."', async () => {
    const ctx = await setup({ seed: false });
    const big = new Uint8Array(5 * 1024 * 1024 + 1);
    big.set(PNG_1X1);
    const html = await refused(ctx, '/admin/tshirt/new', newForm('tshirt', { image: new File([big], 'big.png', { type: 'image/png' }) }), 413);
    expect(fieldError(mainOf(html), 'image')).toBe('The image must be 5 MB or smaller.');
    expect(toastOf(html)?.title).toBe('Creation failed');
  });

  test('an edit with an invalid price: 400, Update failed, the edit form with the current image, the row unchanged', async () => {
    const ctx = await setup();
    const product = seeded(ctx, '38504-WHI');
    const admin = await adminWithPin(ctx);
    const fields = formFieldsOf(await (await admin.get(`/admin/tshirt/${product.id}`)).text());
    const html = await refused(ctx, `/admin/tshirt/${product.id}`, multipart({ ...fields, price: '0', brand: 'Renamed' }));
    const main = mainOf(html);
    expect(headingOf(html)).toBe('Edit T-Shirt');
    expect(fieldError(main, 'price')).toBe('Price must be greater than 0');
    expect(toastOf(html)).toEqual({ title: 'Update failed', description: 'Price must be greater than 0', variant: 'destructive' });
    expect(inputValue(main, 'brand')).toBe('Renamed');
    expect(main).toContain(`src="${product.imageUrl}?fallback=tshirt"`);
    expect(inputValue(main, 'keepExistingImage')).toBe('true');
    expect(byId(ctx, product.id)).toEqual(product);
  });

  test('an edit with a text file as the new image: 400, Update failed, the image kept', async () => {
    const ctx = await setup();
    const product = seeded(ctx, 'CW2288-111');
    const admin = await adminWithPin(ctx);
    const fields = formFieldsOf(await (await admin.get(`/admin/shoe/${product.id}`)).text());
    const html = await refused(ctx, `/admin/shoe/${product.id}`, multipart({ ...fields, image: new File(['hello'], 'a.txt', { type: 'text/plain' }) }));
    expect(fieldError(mainOf(html), 'image')).toBe(IMAGE_TYPE_MESSAGE);
    expect(toastOf(html)?.title).toBe('Update failed');
    expect(byId(ctx, product.id)).toEqual(product);
  });
});

// ---------------------------------------------------------------- editing through the forms

describe('editing products through the forms', () => {
  test.each([
    ['sunglasses', 'Product updated'],
    ['tshirt', 'T-Shirt updated'],
    ['shoe', 'Shoe updated'],
    ['book', 'Book updated'],
  ] as [Kind, string][])('the %s edit form sent back with a new price and no file keeps everything else, image included ("%s")', async (type, title) => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, SEEDED[type].model);
    const fields = formFieldsOf(await (await admin.get(`${ROUTE[type]}/${product.id}`)).text());
    expect(fields.keepExistingImage).toBe('true');

    const response = await admin.post(`${ROUTE[type]}/${product.id}`, { body: multipart({ ...fields, price: '42.5' }) });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin?tab=${type}`);
    expect(byId(ctx, product.id)).toEqual({ ...product, priceCents: 4250 });
    expect(uploads(ctx)).toEqual([]);

    const toast = toastOf(await (await admin.get(`/admin?tab=${type}`)).text());
    expect(toast?.title).toBe(title);
    expect(toast?.description).toEndWith('has been saved.');
  });

  test('edited fields are stored with the same mapping as on creation (book)', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'BK-OLDMAN-001');
    const fields = formFieldsOf(await (await admin.get(`/admin/book/${product.id}`)).text());
    const changes = { name: 'The Old Man & the Sea', author: 'E. Hemingway', pages: '128', summary: 'A new summary.', quantity: '0', playEnabled: '' };
    const form = multipart({ ...fields, ...changes });
    form.delete('playEnabled'); // unticked
    expect((await admin.post(`/admin/book/${product.id}`, { body: form })).status).toBe(303);
    expect(byId(ctx, product.id)).toEqual({
      ...product,
      brand: 'The Old Man & the Sea',
      size: '128',
      quantity: 0,
      description: 'AUTHOR:E. Hemingway;;A new summary.',
      playEnabled: false,
    });
  });

  test('clearing the badge of sunglasses removes the marker', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'RB3025-L0205');
    const fields = formFieldsOf(await (await admin.get(`/admin/product/${product.id}`)).text());
    expect((await admin.post(`/admin/product/${product.id}`, { body: multipart({ ...fields, badge: '' }) })).status).toBe(303);
    expect(byId(ctx, product.id)?.description).toBe(product.description!.replace('BADGE:Best Seller;;', ''));
  });

  test('editing with a new file replaces the image', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, '38504-WHI');
    const fields = formFieldsOf(await (await admin.get(`/admin/tshirt/${product.id}`)).text());
    const response = await admin.post(`/admin/tshirt/${product.id}`, { body: multipart({ ...fields, image: png('new.png') }) });
    expect(response.status).toBe(303);
    const updated = byId(ctx, product.id)!;
    expect(updated.imageUrl).not.toBe(product.imageUrl);
    expect(updated.imageUrl).toMatch(UPLOAD_URL);
    expect(ctx.images.exists(updated.imageUrl)).toBe(true);
    expect(updated).toEqual({ ...product, imageUrl: updated.imageUrl });

    const form = mainOf(await (await admin.get(`/admin/tshirt/${product.id}`)).text());
    expect(form).toContain(`src="${updated.imageUrl}?fallback=tshirt"`);
  });

  test('replacing an uploaded image removes the old upload', async () => {
    const ctx = await setup({ seed: false });
    const admin = await adminWithPin(ctx);
    expect((await admin.post('/admin/shoe/new', { body: newForm('shoe') })).status).toBe(303);
    const created = byModel(ctx, 'FK-300')!;
    const fields = formFieldsOf(await (await admin.get(`/admin/shoe/${created.id}`)).text());

    expect((await admin.post(`/admin/shoe/${created.id}`, { body: multipart({ ...fields, price: '99' }) })).status).toBe(303);
    expect(byId(ctx, created.id)?.imageUrl).toBe(created.imageUrl);
    expect(ctx.images.exists(created.imageUrl)).toBe(true);

    expect((await admin.post(`/admin/shoe/${created.id}`, { body: multipart({ ...fields, image: png('again.png') }) })).status).toBe(303);
    const replaced = byId(ctx, created.id)!.imageUrl;
    expect(replaced).not.toBe(created.imageUrl);
    expect(ctx.images.exists(created.imageUrl)).toBe(false);
    expect(uploads(ctx)).toEqual([replaced.slice('/uploads/'.length)]);
  });

  test("a post to another type's route edits the product as its own type", async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, '38504-WHI');
    const fields = formFieldsOf(await (await admin.get(`/admin/tshirt/${product.id}`)).text());
    const response = await admin.post(`/admin/shoe/${product.id}`, { body: multipart({ ...fields, quantity: '3' }) });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin?tab=tshirt');
    expect(byId(ctx, product.id)).toEqual({ ...product, quantity: 3 });
  });
});

// ---------------------------------------------------------------- deleting

describe('deleting products', () => {
  test('GET /admin/products/{id}/delete asks for confirmation with Cancel and Delete', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'CW2288-111');
    const response = await admin.get(`/admin/products/${product.id}/delete`);
    expect(response.status).toBe(200);
    const html = await response.text();
    const main = mainOf(html);
    expect(headingOf(html)).toBe('Are you sure?');
    expect(textOf(main)).toContain('This action cannot be undone. This will permanently delete the product.');
    expect(textOf(main)).toContain('Nike CW2288-111');
    expect(main).toMatch(new RegExp(`<form [^>]*action="/admin/products/${product.id}/delete" method="post">`));
    expect(main).toMatch(/<a href="\/admin\?tab=shoe"[^>]*>Cancel<\/a>/);
    expect(main).toMatch(/<button type="submit"[^>]*>Delete<\/button>/);
    // Only looking does not delete.
    expect(byId(ctx, product.id)).toEqual(product);
  });

  test.each(['sunglasses', 'tshirt', 'shoe', 'book'] as Kind[])('POST deletes a %s: 303 to its tab, row gone, "Product deleted" toast', async (type) => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, SEEDED[type].model);
    const before = productCount(ctx);
    const response = await admin.post(`/admin/products/${product.id}/delete`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin?tab=${type}`);
    expect(byId(ctx, product.id)).toBeUndefined();
    expect(productCount(ctx)).toBe(before - 1);

    const html = await (await admin.get(`/admin?tab=${type}`)).text();
    expect(toastOf(html)).toEqual({ title: 'Product deleted', description: 'The product has been successfully deleted.', variant: 'default' });
    expect(listedIds(html)).not.toContain(product.id);
    expect(listedIds(html)).toHaveLength(6);
  });

  test('deleting a product uploaded through the form removes its image file', async () => {
    const ctx = await setup({ seed: false });
    const admin = await adminWithPin(ctx);
    expect((await admin.post('/admin/tshirt/new', { body: newForm('tshirt') })).status).toBe(303);
    const created = byModel(ctx, 'FT-200')!;
    expect(ctx.images.exists(created.imageUrl)).toBe(true);
    expect((await admin.post(`/admin/products/${created.id}/delete`)).status).toBe(303);
    expect(ctx.images.exists(created.imageUrl)).toBe(false);
    expect(uploads(ctx)).toEqual([]);
  });

  test("POST for an unknown id redirects with the 'Deletion failed' toast and deletes nothing", async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const before = productCount(ctx);
    const response = await admin.post('/admin/products/99999/delete');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin?tab=sunglasses');
    expect(productCount(ctx)).toBe(before);
    const toast = toastOf(await (await admin.get('/admin?tab=sunglasses')).text());
    expect(toast).toEqual({ title: 'Deletion failed', description: 'Product not found', variant: 'destructive' });
  });

  test('deleting the same product twice: the second time says Deletion failed', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const product = seeded(ctx, 'BK-JAWS-001');
    expect((await admin.post(`/admin/products/${product.id}/delete`)).status).toBe(303);
    await admin.get('/admin?tab=book'); // shows and clears the first toast
    const again = await admin.post(`/admin/products/${product.id}/delete`);
    expect(again.status).toBe(303);
    expect(toastOf(await (await admin.get(again.headers.get('location')!)).text())?.title).toBe('Deletion failed');
  });
});

// ---------------------------------------------------------------- the PIN stays on the server

describe('the PIN never reaches the admin pages', () => {
  test('no admin page, before or after the PIN, with or without errors, contains it', async () => {
    const ctx = await setup();
    const admin = await adminWithoutPin(ctx);
    const bodies: string[] = [];
    const tshirt = seeded(ctx, '38504-WHI');
    bodies.push(await (await admin.get('/admin')).text());
    bodies.push(await (await admin.get('/admin/tshirt/new')).text());
    bodies.push(await (await admin.post('/admin/pin', { form: { pin: '000000', next: '/admin' } })).text());
    bodies.push(await (await admin.post('/admin/tshirt/new', { body: newForm('tshirt') })).text());
    expect(bodies.every((html) => headingOf(html) === 'Admin Authentication')).toBe(true);

    expect((await admin.post('/admin/pin', { form: { pin: TEST_PIN, next: '/admin' } })).status).toBe(303);
    const paths = [
      '/admin',
      '/admin?tab=tshirt',
      '/admin?tab=shoe',
      '/admin?tab=book',
      '/admin?tab=orders',
      '/admin?tab=settings',
      '/admin/product/new',
      '/admin/product/new?type=book',
      '/admin/tshirt/new',
      '/admin/shoe/new',
      '/admin/book/new',
      `/admin/tshirt/${tshirt.id}`,
      `/admin/products/${tshirt.id}/delete`,
      '/admin/tshirt/99999',
    ];
    for (const path of paths) bodies.push(await (await admin.get(path)).text());
    bodies.push(await (await admin.post('/admin/tshirt/new', { body: newForm('tshirt', { sku: '', price: '0' }) })).text());
    expect(bodies).toHaveLength(4 + paths.length + 1);
    for (const html of bodies) expect(html).not.toContain(TEST_PIN);
  });
});

describe('forms keep what they cannot show and explain what they cannot read', () => {
  test('a t-shirt size set through the API stays selected on its edit form', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const tee = seeded(ctx, SEEDED.tshirt.model);
    ctx.db.update(products).set({ size: 'One Size' }).where(eq(products.id, tee.id)).run();
    const html = await (await admin.get(`/admin/tshirt/${tee.id}`)).text();
    expect(html).toContain('<option value="One Size" selected="">One Size</option>');
  });

  test('an upload far over the limit comes back to the form with a toast, nothing stored', async () => {
    const ctx = await setup();
    const admin = await adminWithPin(ctx);
    const before = productCount(ctx);
    const form = new FormData();
    form.set('brand', 'Too Big');
    form.set('sku', 'BIG-1');
    form.set('price', '10');
    form.set('quantity', '1');
    form.set('image', new File([new Uint8Array(8 * 1024 * 1024)], 'big.png', { type: 'image/png' }));
    const response = await admin.post('/admin/tshirt/new', { body: form });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin/tshirt/new');
    const page = await (await admin.get('/admin/tshirt/new')).text();
    expect(page).toContain('The image must be 5 MB or smaller.');
    expect(productCount(ctx)).toBe(before);
    expect(uploads(ctx)).toEqual([]);
  });
});
