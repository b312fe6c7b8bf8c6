import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { products } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { bootstrapAdmin } from '../../src/domain/bootstrap.ts';
import { TEST_PIN, testApp, type TestClient } from '../helpers/app.ts';

// ---------------------------------------------------------------- helpers

type Ctx = Awaited<ReturnType<typeof testApp>>;

const bytesOf = (base64: string) => Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));

/** Tiny but real images, recognised by their first bytes. */
const IMAGES = {
  png: bytesOf('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='),
  jpg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]),
  gif: bytesOf('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
  webp: bytesOf('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA=='),
} as const;
type ImageKind = keyof typeof IMAGES;

const MIME: Record<ImageKind, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

function imageFile(kind: ImageKind = 'png', name = `photo.${kind}`): File {
  return new File([IMAGES[kind]], name, { type: MIME[kind] });
}

/** Spec section 7's multipart body: `data` (JSON of the product fields), `image`, `keepExistingImage`. */
function productForm(data: Record<string, unknown>, image?: File | null, keepExistingImage?: boolean): FormData {
  const form = new FormData();
  form.set('data', JSON.stringify(data));
  if (image) form.set('image', image);
  if (keepExistingImage) form.set('keepExistingImage', 'true');
  return form;
}

const sunglassesInput = {
  productType: 'sunglasses',
  brand: 'Zenith Optics',
  sku: 'ZEN-001',
  size: '54-18-140',
  price: 149.5,
  quantity: 7,
  description: 'Polarised acetate frames.',
};

const bookInput = {
  productType: 'book',
  name: 'Tide Tables',
  author: 'Marina Shore',
  pages: 312,
  summary: 'A year on the Laguna coast.',
  sku: 'BK-TIDE-001',
  price: 21.25,
  quantity: 4,
};

function uploadedFiles(ctx: Ctx): string[] {
  return readdirSync(ctx.uploadsDir);
}

function allProducts(ctx: Ctx) {
  return ctx.db.select().from(products).all();
}

function productRow(ctx: Ctx, id: number) {
  return ctx.db.select().from(products).where(eq(products.id, id)).get();
}

async function signedInShopper(ctx: Ctx): Promise<TestClient> {
  const shopper = ctx.client();
  const response = await shopper.post('/api/register', { json: { username: 'shopper1', password: 'secret-pass' } });
  expect(response.status).toBe(201);
  return shopper;
}

/** The bootstrap admin, signed in; with `pin` the session has also passed the admin PIN. */
async function signedInAdmin(ctx: Ctx, { pin }: { pin: boolean }): Promise<TestClient> {
  await bootstrapAdmin(ctx);
  const admin = ctx.client();
  const login = await admin.post('/api/login', { json: { username: 'admin', password: 'admin-secret' } });
  expect(login.status).toBe(200);
  if (pin) expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);
  return admin;
}

async function adminApp() {
  const ctx = await testApp();
  const admin = await signedInAdmin(ctx, { pin: true });
  return { ...ctx, admin };
}

async function createProduct(admin: TestClient, data: Record<string, unknown>, image: File | null = imageFile()) {
  const response = await admin.post('/api/products', { body: productForm(data, image) });
  expect(response.status).toBe(201);
  return (await response.json()) as Record<string, any>;
}

function uploadName(imageUrl: string): string {
  const match = /^\/uploads\/([0-9a-f]{32}\.(?:png|jpg|gif|webp))$/.exec(imageUrl);
  expect(match).not.toBeNull();
  return match![1]!;
}

/** Asserts a refused write answered with status and message and left the catalogue and uploads untouched. */
async function expectRefusedWithoutChange(ctx: Ctx, send: () => Promise<Response>, status: number, message: string) {
  const before = allProducts(ctx);
  const filesBefore = uploadedFiles(ctx);
  const response = await send();
  expect(response.status).toBe(status);
  const body = await response.json();
  expect(body.message).toBe(message);
  expect(allProducts(ctx)).toEqual(before);
  expect(uploadedFiles(ctx)).toEqual(filesBefore);
  return body;
}

// ---------------------------------------------------------------- reads

describe('GET /api/products', () => {
  test('lists every product with its API fields, price in dollars', async () => {
    const { client, db, clock } = await testApp();
    seedIfEmpty(db, clock);
    const response = await client().get('/api/products');
    expect(response.status).toBe(200);
    const list = (await response.json()) as Record<string, any>[];
    expect(list).toHaveLength(db.select().from(products).all().length);
    for (const p of list) {
      for (const key of ['id', 'brand', 'model', 'size', 'price', 'quantity', 'imageUrl', 'description', 'productType']) {
        expect(p).toHaveProperty(key);
      }
      expect(typeof p.price).toBe('number');
    }
    const aviator = list.find((p) => p.model === 'RB3025-L0205')!;
    expect(Number.isInteger(aviator.id)).toBe(true);
    expect(aviator).toMatchObject({
      productType: 'sunglasses',
      brand: 'Ray-Ban',
      size: '58-14-135',
      price: 171,
      quantity: 12,
      imageUrl: '/static/images/products/rayban-aviator-classic.svg',
    });
    expect(aviator.description.startsWith('BADGE:Best Seller;;The original Aviator')).toBe(true);
    expect(list.find((p) => p.model === 'BK-JAWS-001')!.price).toBe(9.99);
  });

  test('?type= keeps one product type; an unknown type is a 400 naming the types', async () => {
    const { client, db, clock } = await testApp();
    seedIfEmpty(db, clock);
    const c = client();
    for (const type of ['sunglasses', 'tshirt', 'shoe', 'book']) {
      const list = (await (await c.get(`/api/products?type=${type}`)).json()) as { productType: string }[];
      expect(list.length).toBe(7);
      expect(list.every((p) => p.productType === type)).toBe(true);
    }
    const unknown = await c.get('/api/products?type=hats');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ message: 'Use sunglasses, tshirt, shoe or book.', fields: { type: 'Use sunglasses, tshirt, shoe or book.' } });
    expect((await (await c.get('/api/products')).json()) as unknown[]).toHaveLength(28);
  });

  test('?q= searches brand, model and description, case-insensitively, and combines with ?type=', async () => {
    const { client, db, clock } = await testApp();
    seedIfEmpty(db, clock);
    const c = client();
    const search = async (query: string) => (await (await c.get(`/api/products?${query}`)).json()) as Record<string, any>[];

    const byBrand = await search('q=VANS');
    expect(byBrand.map((p) => p.productType).sort()).toEqual(['shoe', 'tshirt']);
    expect(byBrand.every((p) => p.brand === 'Vans')).toBe(true);

    expect((await search('q=rb2140')).map((p) => p.model)).toEqual(['RB2140-901']);

    const byDescription = await search('q=teardrop');
    expect(byDescription.map((p) => p.model)).toEqual(['RB3025-L0205']);
    expect((await search('q=g-15 gold')).map((p) => p.model)).toEqual(['RB3025-L0205']);
    expect((await search('q=g-15')).map((p) => p.model).sort()).toEqual(['RB2140-901', 'RB3025-L0205']);

    expect((await search('type=shoe&q=vans')).map((p) => p.model)).toEqual(['VN000D3HY28']);
    expect(await search('q=no-such-thing-anywhere')).toEqual([]);
  });
});

describe('GET /api/products/{id}', () => {
  test('answers one product', async () => {
    const { client, db, clock } = await testApp();
    seedIfEmpty(db, clock);
    const row = db.select().from(products).where(eq(products.model, 'BK-JAWS-001')).get()!;
    const response = await client().get(`/api/products/${row.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: row.id,
      productType: 'book',
      brand: 'Jaws',
      model: 'BK-JAWS-001',
      price: 9.99,
      quantity: row.quantity,
      size: row.size,
      description: row.description!,
    });
  });

  test.each(['9999', 'abc', '0', '-1', '1.5'])('404 with a JSON message for id %s', async (id) => {
    const { client, db, clock } = await testApp();
    seedIfEmpty(db, clock);
    const response = await client().get(`/api/products/${id}`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ message: 'Product not found' });
  });
});

// ---------------------------------------------------------------- who may write

const refusedCallers = [
  { who: 'an anonymous visitor', status: 401, message: 'Please log in to continue.', make: async (ctx: Ctx) => ctx.client() },
  { who: 'a signed-in shopper', status: 403, message: 'Admin access required.', make: signedInShopper },
  { who: 'an admin without the PIN', status: 403, message: 'Enter the admin PIN first.', make: (ctx: Ctx) => signedInAdmin(ctx, { pin: false }) },
] as const;

describe('writes need an admin who passed the PIN', () => {
  describe.each(refusedCallers)('$who', ({ status, message, make }) => {
    async function setUp() {
      const ctx = await testApp();
      seedIfEmpty(ctx.db, ctx.clock);
      const target = ctx.db.select().from(products).where(eq(products.model, 'RB2140-901')).get()!;
      return { ctx, target, caller: await make(ctx) };
    }

    test(`POST /api/products gets ${status} and creates nothing`, async () => {
      const { ctx, caller } = await setUp();
      await expectRefusedWithoutChange(ctx, () => caller.post('/api/products', { body: productForm(sunglassesInput, imageFile()) }), status, message);
    });

    test(`PUT /api/products/{id} gets ${status} and changes nothing`, async () => {
      const { ctx, caller, target } = await setUp();
      await expectRefusedWithoutChange(
        ctx,
        () => caller.request('PUT', `/api/products/${target.id}`, { body: productForm({ price: 1, brand: 'Hacked' }, imageFile()) }),
        status,
        message,
      );
      expect(productRow(ctx, target.id)).toEqual(target);
    });

    test(`DELETE /api/products/{id} gets ${status} and deletes nothing`, async () => {
      const { ctx, caller, target } = await setUp();
      await expectRefusedWithoutChange(ctx, () => caller.request('DELETE', `/api/products/${target.id}`), status, message);
      expect(productRow(ctx, target.id)).toEqual(target);
    });
  });

  describe('an admin with the PIN', () => {
    test('POST creates (201)', async () => {
      const { admin, db } = await adminApp();
      const response = await admin.post('/api/products', { body: productForm(sunglassesInput, imageFile()) });
      expect(response.status).toBe(201);
      const created = await response.json();
      // (Checked apart: Bun's toMatchObject writes an asymmetric matcher back into the received object.)
      expect(Number.isInteger(created.id)).toBe(true);
      expect(created).toMatchObject({
        productType: 'sunglasses',
        brand: 'Zenith Optics',
        model: 'ZEN-001',
        size: '54-18-140',
        price: 149.5,
        quantity: 7,
        description: 'Polarised acetate frames.',
        buyNowEnabled: true,
        playEnabled: false,
      });
      const row = db.select().from(products).where(eq(products.id, created.id)).get()!;
      expect(row.priceCents).toBe(14950);
      expect(row.imageUrl).toBe(created.imageUrl);
    });

    test('PUT updates (200)', async () => {
      const { admin, db } = await adminApp();
      const created = await createProduct(admin, sunglassesInput);
      const response = await admin.request('PUT', `/api/products/${created.id}`, {
        body: productForm({ brand: 'Zenith Optics II', price: 99, quantity: 0 }, null, true),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: created.id, brand: 'Zenith Optics II', price: 99, quantity: 0 });
      expect(db.select().from(products).where(eq(products.id, created.id)).get()!.priceCents).toBe(9900);
    });

    test('DELETE removes (200)', async () => {
      const { admin, db } = await adminApp();
      const created = await createProduct(admin, sunglassesInput);
      const response = await admin.request('DELETE', `/api/products/${created.id}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ message: 'Product deleted' });
      expect(db.select().from(products).all()).toHaveLength(0);
    });
  });
});

// ---------------------------------------------------------------- validation

describe('POST /api/products validation (spec section 5)', () => {
  const { productType: _omit, ...withoutType } = sunglassesInput;
  const cases: [string, Record<string, unknown>, string, string][] = [
    ['price 0', { ...sunglassesInput, price: 0 }, 'price', 'Price must be greater than 0'],
    ['price missing', { ...sunglassesInput, price: undefined }, 'price', 'Price must be greater than 0'],
    ['price 0.001', { ...sunglassesInput, price: 0.001 }, 'price', 'Price must be greater than 0'],
    ['price as text', { ...sunglassesInput, price: 'free' }, 'price', 'Price must be greater than 0'],
    ['quantity -1', { ...sunglassesInput, quantity: -1 }, 'quantity', 'Quantity cannot be negative'],
    ['SKU missing', { ...sunglassesInput, sku: undefined }, 'model', 'SKU is required'],
    ['SKU blank', { ...sunglassesInput, sku: '   ' }, 'model', 'SKU is required'],
    ['brand missing', { ...sunglassesInput, brand: undefined }, 'brand', 'Brand is required'],
    ['book name missing', { ...bookInput, name: '' }, 'name', 'Book name is required'],
    ['book author missing', { ...bookInput, author: undefined }, 'author', 'Author is required'],
    ['book pages 0', { ...bookInput, pages: 0 }, 'pages', 'Pages must be at least 1'],
    ['book pages missing', { ...bookInput, pages: undefined }, 'pages', 'Pages must be at least 1'],
    ['book SKU missing', { ...bookInput, sku: '' }, 'model', 'SKU is required'],
    ['book price 0', { ...bookInput, price: 0 }, 'price', 'Price must be greater than 0'],
    ['an unknown productType', { ...withoutType, productType: 'hat' }, 'productType', 'Product type must be one of sunglasses, tshirt, shoe, book'],
  ];

  test.each(cases)('%s: 400 with the exact message, nothing stored', async (_name, data, field, message) => {
    const ctx = await adminApp();
    const body = await expectRefusedWithoutChange(ctx, () => ctx.admin.post('/api/products', { body: productForm(data, imageFile()) }), 400, message);
    expect(body.fields[field]).toBe(message);
    expect(uploadedFiles(ctx)).toEqual([]);
    expect(allProducts(ctx)).toHaveLength(0);
  });

  test.each([
    ['sunglasses', sunglassesInput, 'An image is required for new products'],
    ['tshirt', { ...sunglassesInput, productType: 'tshirt', size: 'M' }, 'An image is required for new t-shirts'],
    ['shoe', { ...sunglassesInput, productType: 'shoe', size: '10' }, 'An image is required for new shoes'],
    ['book', bookInput, 'A cover image is required for new books'],
  ])('a new %s without an image gets its own message', async (_type, data, message) => {
    const ctx = await adminApp();
    const body = await expectRefusedWithoutChange(ctx, () => ctx.admin.post('/api/products', { body: productForm(data, null) }), 400, message);
    expect(body.fields).toEqual({ image: message });
  });

  test('an empty image part counts as no image', async () => {
    const ctx = await adminApp();
    const empty = new File([], 'empty.png', { type: 'image/png' });
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, empty) }),
      400,
      'An image is required for new products',
    );
    expect(body.fields.image).toBe('An image is required for new products');
  });

  test('several mistakes are all reported by field, the first one as the message', async () => {
    const ctx = await adminApp();
    const data = { productType: 'book', price: 0, quantity: -1, pages: 0 };
    const body = await expectRefusedWithoutChange(ctx, () => ctx.admin.post('/api/products', { body: productForm(data, null) }), 400, 'Book name is required');
    expect(body.fields).toEqual({
      model: 'SKU is required',
      price: 'Price must be greater than 0',
      quantity: 'Quantity cannot be negative',
      name: 'Book name is required',
      author: 'Author is required',
      pages: 'Pages must be at least 1',
      image: 'A cover image is required for new books',
    });
  });

  test('a `data` field that is not JSON gets 400, a body that is not multipart 415', async () => {
    const ctx = await adminApp();
    const form = new FormData();
    form.set('data', '{"brand":');
    form.set('image', imageFile());
    await expectRefusedWithoutChange(ctx, () => ctx.admin.post('/api/products', { body: form }), 400, 'The `data` field must be JSON.');
    await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: 'brand=x', headers: { 'content-type': 'text/plain' } }),
      415,
      'Send the product as multipart/form-data with a `data` field (JSON) and an `image` file.',
    );
  });
});

describe('field mapping (spec section 3)', () => {
  test('a book stores name as brand, SKU as model, pages as size, AUTHOR marker in the description', async () => {
    const { admin, client } = await adminApp();
    const created = await createProduct(admin, bookInput);
    const shown = await (await client().get(`/api/products/${created.id}`)).json();
    expect(shown).toMatchObject({
      productType: 'book',
      brand: 'Tide Tables',
      model: 'BK-TIDE-001',
      size: '312',
      price: 21.25,
      quantity: 4,
      description: 'AUTHOR:Marina Shore;;A year on the Laguna coast.',
    });
  });

  test('sunglasses with a badge get the BADGE marker in front of the description', async () => {
    const { admin, client } = await adminApp();
    const created = await createProduct(admin, { ...sunglassesInput, badge: 'New Arrival' });
    const shown = await (await client().get(`/api/products/${created.id}`)).json();
    expect(shown.description).toBe('BADGE:New Arrival;;Polarised acetate frames.');
  });

  test('numbers sent as text are read, betEnabled is another name for playEnabled', async () => {
    const { admin } = await adminApp();
    const created = await createProduct(admin, { ...sunglassesInput, price: '$12.50', quantity: '3', betEnabled: true });
    expect(created).toMatchObject({ price: 12.5, quantity: 3, playEnabled: true, betEnabled: true });
  });
});

// ---------------------------------------------------------------- images

describe('product images', () => {
  test.each(['png', 'jpg', 'gif', 'webp'] as const)('a %s upload is stored under a generated 32-hex name and served for good', async (kind) => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput, imageFile(kind, 'My Holiday Photo.bin'));
    const name = uploadName(created.imageUrl);
    expect(name.endsWith(`.${kind}`)).toBe(true);
    expect(uploadedFiles(ctx)).toEqual([name]);
    expect(new Uint8Array(readFileSync(join(ctx.uploadsDir, name)))).toEqual(IMAGES[kind]);

    const served = await ctx.client().get(created.imageUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(served.headers.get('content-type')).toContain(MIME[kind]);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(IMAGES[kind]);
  });

  test('a text file named photo.png is refused with 415 and nothing is stored', async () => {
    const ctx = await adminApp();
    const fake = new File(['just some text, not an image'], 'photo.png', { type: 'image/png' });
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, fake) }),
      415,
      'The image must be a JPEG, PNG, WebP or GIF file.',
    );
    expect(body.fields).toEqual({ image: 'The image must be a JPEG, PNG, WebP or GIF file.' });
    expect(uploadedFiles(ctx)).toEqual([]);
    expect(allProducts(ctx)).toHaveLength(0);
  });

  test('an SVG is refused too, whatever it is called', async () => {
    const ctx = await adminApp();
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], 'cover.gif', { type: 'image/gif' });
    await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, svg) }),
      415,
      'The image must be a JPEG, PNG, WebP or GIF file.',
    );
  });

  test('a 6 MB PNG is refused with 413 and nothing is stored', async () => {
    const ctx = await adminApp();
    const big = new Uint8Array(6 * 1024 * 1024);
    big.set(IMAGES.png.subarray(0, 8));
    const file = new File([big], 'huge.png', { type: 'image/png' });
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.post('/api/products', { body: productForm(sunglassesInput, file) }),
      413,
      'The image must be 5 MB or smaller.',
    );
    expect(body.fields).toEqual({ image: 'The image must be 5 MB or smaller.' });
    expect(uploadedFiles(ctx)).toEqual([]);
    expect(allProducts(ctx)).toHaveLength(0);
  });

  test('a missing upload answers the type default with ?fallback=tshirt, and 404 without it', async () => {
    const { client } = await testApp();
    const c = client();
    const missing = `/uploads/${'ab'.repeat(16)}.png`;
    const fallback = await c.get(`${missing}?fallback=tshirt`);
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get('content-type')).toContain('image/svg+xml');
    expect(fallback.headers.get('cache-control')).toBe('no-cache');
    expect(await fallback.text()).toBe(readFileSync(join(import.meta.dir, '../../static/images/defaults/tshirt.svg'), 'utf8'));

    expect((await c.get(missing)).status).toBe(404);
    expect((await c.get(`${missing}?fallback=hats`)).status).toBe(404);
    expect((await c.get('/uploads/..%2Fsecret.png')).status).toBe(404);
  });
});

// ---------------------------------------------------------------- updates

describe('PUT /api/products/{id}', () => {
  test('a new image replaces the old one: new URL, old file removed from disk', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput, imageFile('png'));
    const oldName = uploadName(created.imageUrl);

    const response = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({}, imageFile('jpg')) });
    expect(response.status).toBe(200);
    const updated = await response.json();
    const newName = uploadName(updated.imageUrl);
    expect(newName).not.toBe(oldName);
    expect(newName.endsWith('.jpg')).toBe(true);
    expect(existsSync(join(ctx.uploadsDir, oldName))).toBe(false);
    expect(uploadedFiles(ctx)).toEqual([newName]);
    expect((await ctx.client().get(created.imageUrl)).status).toBe(404);
    expect((await ctx.client().get(updated.imageUrl)).status).toBe(200);
  });

  test('without a new image and keepExistingImage=true the image stays and the price changes', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput);
    const response = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ price: 175 }, null, true) });
    expect(response.status).toBe(200);
    const updated = await response.json();
    expect(updated.imageUrl).toBe(created.imageUrl);
    expect(updated.price).toBe(175);
    expect(uploadedFiles(ctx)).toEqual([uploadName(created.imageUrl)]);
  });

  test('partial data (only price) keeps every other field', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, { ...sunglassesInput, badge: 'Hot', playEnabled: true });
    const before = productRow(ctx, created.id)!;
    const response = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ price: 88.8 }) });
    expect(response.status).toBe(200);
    expect(productRow(ctx, created.id)).toEqual({ ...before, priceCents: 8880 });
    const shown = await (await ctx.client().get(`/api/products/${created.id}`)).json();
    expect(shown).toMatchObject({ ...created, price: 88.8 });
  });

  test('a book keeps its name, author, pages and summary when only the quantity changes', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, bookInput);
    const response = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ quantity: 0 }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      brand: 'Tide Tables',
      model: 'BK-TIDE-001',
      size: '312',
      quantity: 0,
      description: 'AUTHOR:Marina Shore;;A year on the Laguna coast.',
    });
  });

  test('changing the productType is refused: 400, "A product\'s type cannot be changed"', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput);
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ productType: 'tshirt', price: 1 }) }),
      400,
      "A product's type cannot be changed",
    );
    expect(body.fields).toEqual({ productType: "A product's type cannot be changed" });
  });

  test('invalid values are refused with their message, and a refused new image is not kept', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput);
    const body = await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ quantity: -1 }, imageFile('gif')) }),
      400,
      'Quantity cannot be negative',
    );
    expect(body.fields).toEqual({ quantity: 'Quantity cannot be negative' });
    expect(uploadedFiles(ctx)).toEqual([uploadName(created.imageUrl)]);
  });

  test('an unknown id gets 404 and nothing is stored', async () => {
    const ctx = await adminApp();
    await expectRefusedWithoutChange(
      ctx,
      () => ctx.admin.request('PUT', '/api/products/4242', { body: productForm({ price: 5 }, imageFile()) }),
      404,
      'Product not found',
    );
  });
});

// ---------------------------------------------------------------- deletes

describe('DELETE /api/products/{id}', () => {
  test('the product is gone afterwards: GET answers 404', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, sunglassesInput);
    expect((await ctx.admin.request('DELETE', `/api/products/${created.id}`)).status).toBe(200);
    const after = await ctx.client().get(`/api/products/${created.id}`);
    expect(after.status).toBe(404);
    expect(await after.json()).toEqual({ message: 'Product not found' });
  });

  test('the uploaded image file is removed', async () => {
    const ctx = await adminApp();
    const keep = await createProduct(ctx.admin, { ...sunglassesInput, sku: 'KEEP-1' }, imageFile('webp'));
    const gone = await createProduct(ctx.admin, sunglassesInput, imageFile('png'));
    expect(uploadedFiles(ctx)).toHaveLength(2);
    expect((await ctx.admin.request('DELETE', `/api/products/${gone.id}`)).status).toBe(200);
    expect(existsSync(join(ctx.uploadsDir, uploadName(gone.imageUrl)))).toBe(false);
    expect(uploadedFiles(ctx)).toEqual([uploadName(keep.imageUrl)]);
  });

  test.each(['4242', 'abc'])('an unknown id (%s) gets 404 and deletes nothing', async (id) => {
    const ctx = await adminApp();
    seedIfEmpty(ctx.db, ctx.clock);
    await expectRefusedWithoutChange(ctx, () => ctx.admin.request('DELETE', `/api/products/${id}`), 404, 'Product not found');
  });
});

// ---------------------------------------------------------------- page cache

describe('the page cache follows admin writes', () => {
  async function cachedVisitorPages(ctx: Ctx) {
    seedIfEmpty(ctx.db, ctx.clock);
    const visitor = ctx.client();
    for (const path of ['/', '/products']) {
      const first = await visitor.get(path);
      expect(first.status).toBe(200);
      const firstHtml = await first.text();
      const second = await visitor.get(path);
      expect(second.status).toBe(200);
      expect(await second.text()).toBe(firstHtml);
    }
    expect(ctx.pageCache.size).toBeGreaterThanOrEqual(2);
    return visitor;
  }

  test('a signed-out visitor is served from the cache until the storefront changes, by anyone', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    const hits = ctx.pageCache.hits;
    await visitor.get('/products');
    expect(ctx.pageCache.hits).toBe(hits + 1);
    // A write that did not come through this app (another process, a script) moves the version too.
    ctx.db.update(products).set({ brand: 'Sneaky Direct Edit' }).where(eq(products.model, 'RB3025-L0205')).run();
    expect(await (await visitor.get('/products')).text()).toContain('Sneaky Direct Edit');
  });

  test('a sale drops the cached pages: the last unit sold is not shown as in stock', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    const target = ctx.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
    ctx.db.update(products).set({ quantity: 1 }).where(eq(products.id, target.id)).run();
    await visitor.get(`/product/${target.id}`);
    const before = await (await visitor.get(`/product/${target.id}`)).text();
    expect(before).toContain('1 left');
    // The sale's stock update, as checkout writes it.
    ctx.db.update(products).set({ quantity: 0 }).where(eq(products.id, target.id)).run();
    const after = await (await visitor.get(`/product/${target.id}`)).text();
    expect(after).not.toContain('1 left');
    expect(after).toContain('Sold out for now');
  });

  test('creating a product clears the cache and the next visitor sees it on /', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    expect(await (await visitor.get('/')).text()).not.toContain('Zenith Optics');
    const admin = await signedInAdmin(ctx, { pin: true });
    await createProduct(admin, sunglassesInput);
    const home = await ctx.client().get('/');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('Zenith Optics');
    expect(await (await visitor.get('/products')).text()).toContain('Zenith Optics');
  });

  test('updating a product clears the cache and the new name shows', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    const target = ctx.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
    const admin = await signedInAdmin(ctx, { pin: true });
    const response = await admin.request('PUT', `/api/products/${target.id}`, { body: productForm({ brand: 'Renamed Frames' }, null, true) });
    expect(response.status).toBe(200);
    expect(await (await visitor.get('/products')).text()).toContain('Renamed Frames');
  });

  test('deleting a product clears the cache and it disappears', async () => {
    const ctx = await testApp();
    const visitor = await cachedVisitorPages(ctx);
    const target = ctx.db.select().from(products).where(eq(products.model, 'OV5217S-1001')).get()!;
    expect(await (await visitor.get('/products')).text()).toContain(`/product/${target.id}"`);
    const admin = await signedInAdmin(ctx, { pin: true });
    expect((await admin.request('DELETE', `/api/products/${target.id}`)).status).toBe(200);
    expect(await (await visitor.get('/products')).text()).not.toContain(`/product/${target.id}"`);
  });

  test('a refused write leaves the cache alone', async () => {
    const ctx = await testApp();
    await cachedVisitorPages(ctx);
    const size = ctx.pageCache.size;
    const admin = await signedInAdmin(ctx, { pin: true });
    const response = await admin.post('/api/products', { body: productForm({ ...sunglassesInput, price: 0 }, imageFile()) });
    expect(response.status).toBe(400);
    const hits = ctx.pageCache.hits;
    await ctx.client().get('/');
    expect(ctx.pageCache.size).toBe(size);
    expect(ctx.pageCache.hits).toBe(hits + 1);
  });
});

// ---------------------------------------------------------------- edge cases found in review

describe('what a client may name and what an edit keeps', () => {
  test("an API client cannot point a product at another product's upload", async () => {
    const ctx = await adminApp();
    const first = await createProduct(ctx.admin, sunglassesInput);
    const copy = await ctx.admin.post('/api/products', { body: productForm({ ...sunglassesInput, imageUrl: first.imageUrl }, null) });
    expect(copy.status).toBe(400);
    expect((await copy.json()).fields.image).toBe('An image is required for new products');
  });

  test('an https image URL or one of the static images may stand in for a file', async () => {
    const ctx = await adminApp();
    const remote = await createProduct(ctx.admin, { ...sunglassesInput, imageUrl: 'https://cdn.example/shades.jpg' }, null);
    expect(remote.imageUrl).toBe('https://cdn.example/shades.jpg');
    const local = await createProduct(ctx.admin, { ...sunglassesInput, imageUrl: '/static/images/defaults/sunglasses.svg' }, null);
    expect(local.imageUrl).toBe('/static/images/defaults/sunglasses.svg');
    const missing = await ctx.admin.post('/api/products', { body: productForm({ ...sunglassesInput, imageUrl: '/static/images/nope.svg' }, null) });
    expect(missing.status).toBe(400);
  });

  test('a new description without a marker keeps the badge; sending badge "" removes it', async () => {
    const ctx = await adminApp();
    const created = await createProduct(ctx.admin, { ...sunglassesInput, badge: 'Best Seller', description: 'Old words' });
    expect(created.description).toBe('BADGE:Best Seller;;Old words');
    const kept = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ description: 'New words' }, null, true) });
    expect((await kept.json()).description).toBe('BADGE:Best Seller;;New words');
    const removed = await ctx.admin.request('PUT', `/api/products/${created.id}`, { body: productForm({ badge: '' }, null, true) });
    expect((await removed.json()).description).toBe('New words');
  });

  test('searches are never cached, so made-up URLs cannot push pages out of the cache', async () => {
    const ctx = await testApp();
    seedIfEmpty(ctx.db, ctx.clock);
    const visitor = ctx.client();
    await visitor.get('/');
    const size = ctx.pageCache.size;
    for (let i = 0; i < 5; i++) await visitor.get(`/products?q=word${i}`);
    await visitor.get('/products?utm_source=x');
    expect(ctx.pageCache.size).toBe(size);
    await visitor.get('/products?type=book&sort=price-asc');
    expect(ctx.pageCache.size).toBe(size + 1);
  });
});
