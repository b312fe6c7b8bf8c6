import { describe, expect, test } from 'bun:test';
import { products, sessions } from '../../src/db/schema.ts';
import { bootstrapAdmin } from '../../src/domain/accounts/bootstrap-admin.ts';
import { TEST_PIN, testApp, type TestClient, seededApp } from '../helpers/app.ts';

// ---------------------------------------------------------------- helpers

type Ctx = Awaited<ReturnType<typeof testApp>>;

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const WRONG_PIN = '000000';
const PNG_1X1 = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (ch) =>
  ch.charCodeAt(0),
);

/** A new admin session (one "browser"); the bootstrap admin is created on first use. */
async function adminSession(ctx: Ctx): Promise<TestClient> {
  await bootstrapAdmin(ctx);
  const admin = ctx.client();
  const login = await admin.post('/api/login', { json: { username: 'admin', password: 'admin-secret' } });
  expect(login.status).toBe(200);
  return admin;
}

async function shopperSession(ctx: Ctx): Promise<TestClient> {
  const shopper = ctx.client();
  expect((await shopper.post('/api/register', { json: { username: 'shopper1', password: 'secret-pass' } })).status).toBe(201);
  return shopper;
}

function sendPin(client: TestClient, pin: unknown) {
  return client.post('/api/admin/pin', { json: { pin } });
}

async function expectPinAnswer(client: TestClient, pin: unknown, status: number, message: string) {
  const response = await sendPin(client, pin);
  expect(response.status).toBe(status);
  expect((await response.json()).message).toBe(message);
}

function newProductForm(brand = 'Pin Test Optics'): FormData {
  const form = new FormData();
  form.set('data', JSON.stringify({ productType: 'sunglasses', brand, sku: 'PIN-1', price: 50, quantity: 2 }));
  form.set('image', new File([PNG_1X1], 'pin.png', { type: 'image/png' }));
  return form;
}

/** Tries a catalogue write; returns its status (201 when the session may write). */
async function tryWrite(client: TestClient): Promise<number> {
  return (await client.post('/api/products', { body: newProductForm() })).status;
}

function productCount(ctx: Ctx): number {
  return ctx.db.select().from(products).all().length;
}

// ---------------------------------------------------------------- POST /api/admin/pin

describe('POST /api/admin/pin', () => {
  test('signed out: 401', async () => {
    const ctx = await testApp();
    await expectPinAnswer(ctx.client(), TEST_PIN, 401, 'Please log in to continue.');
  });

  test('a signed-in non-admin: 403, even with the right PIN', async () => {
    const ctx = await testApp();
    const shopper = await shopperSession(ctx);
    await expectPinAnswer(shopper, TEST_PIN, 403, 'Admin access required.');
    expect(await tryWrite(shopper)).toBe(403);
  });

  test('a wrong PIN: 401 "Invalid PIN. Please try again." and writes stay refused', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    const response = await sendPin(admin, WRONG_PIN);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ message: 'Invalid PIN. Please try again.', fields: { pin: 'Invalid PIN. Please try again.' } });
    expect(await tryWrite(admin)).toBe(403);
    expect(productCount(ctx)).toBe(0);
  });

  test.each([[''], [`${TEST_PIN} `], ['x'.repeat(33)]])('a PIN of %p counts as wrong', async (pin) => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    await expectPinAnswer(admin, pin, 401, 'Invalid PIN. Please try again.');
  });

  test.each([[null], [246810], [[TEST_PIN]]])('a PIN of %p is not text: 400, and the right PIN still works', async (pin) => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    await expectPinAnswer(admin, pin, 400, 'Send the PIN as text.');
    expect((await sendPin(admin, TEST_PIN)).status).toBe(200);
  });

  test('the right PIN: 200 and then catalogue writes work', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    expect(await tryWrite(admin)).toBe(403);
    const response = await sendPin(admin, TEST_PIN);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Access granted' });
    expect(await tryWrite(admin)).toBe(201);
    expect(productCount(ctx)).toBe(1);
  });

  test('the body must be JSON', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    const response = await admin.post('/api/admin/pin', { form: { pin: TEST_PIN } });
    expect(response.status).toBe(415);
    expect(await tryWrite(admin)).toBe(403);
  });
});

describe('wrong PINs lock the session', () => {
  test('5 wrong PINs lock it for 15 minutes: 429 even with the right PIN, then the right PIN works again', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    for (let i = 0; i < 5; i++) await expectPinAnswer(admin, WRONG_PIN, 401, 'Invalid PIN. Please try again.');

    await expectPinAnswer(admin, TEST_PIN, 429, 'Too many wrong PINs. Please try again in 15 minutes.');
    expect(await tryWrite(admin)).toBe(403);

    ctx.clock.advance(14 * MINUTE + 30 * 1000);
    await expectPinAnswer(admin, TEST_PIN, 429, 'Too many wrong PINs. Please try again in 1 minute.');

    ctx.clock.advance(30 * 1000 + 1);
    await expectPinAnswer(admin, TEST_PIN, 200, 'Access granted');
    expect(await tryWrite(admin)).toBe(201);
  });

  test('4 wrong PINs do not lock, and the right PIN resets the count', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    for (let i = 0; i < 4; i++) await expectPinAnswer(admin, WRONG_PIN, 401, 'Invalid PIN. Please try again.');
    await expectPinAnswer(admin, TEST_PIN, 200, 'Access granted');
    for (let i = 0; i < 4; i++) await expectPinAnswer(admin, WRONG_PIN, 401, 'Invalid PIN. Please try again.');
    await expectPinAnswer(admin, TEST_PIN, 200, 'Access granted');
  });

  test('a wrong PIN does not take away a PIN already passed in this session', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    await expectPinAnswer(admin, TEST_PIN, 200, 'Access granted');
    await expectPinAnswer(admin, WRONG_PIN, 401, 'Invalid PIN. Please try again.');
    expect(await tryWrite(admin)).toBe(201);
  });

  // Issue 11: logging in again used to give 5 more tries; the lock now holds for the account.
  test('the lock is per account: a new session of the same admin is locked too, until 15 minutes pass', async () => {
    const ctx = await testApp();
    const locked = await adminSession(ctx);
    for (let i = 0; i < 3; i++) await sendPin(locked, WRONG_PIN);
    const other = await adminSession(ctx);
    expect(ctx.db.select().from(sessions).all()).toHaveLength(2);
    await sendPin(other, WRONG_PIN);
    await sendPin(other, WRONG_PIN);
    await expectPinAnswer(other, TEST_PIN, 429, 'Too many wrong PINs. Please try again in 15 minutes.');
    const third = await adminSession(ctx);
    await expectPinAnswer(third, TEST_PIN, 429, 'Too many wrong PINs. Please try again in 15 minutes.');
    expect(await tryWrite(third)).toBe(403);

    ctx.clock.advance(15 * 60_000);
    await expectPinAnswer(third, TEST_PIN, 200, 'Access granted');
    expect(await tryWrite(third)).toBe(201);
  });

  test('passing the PIN in one session does not unlock another', async () => {
    const ctx = await testApp();
    const first = await adminSession(ctx);
    const second = await adminSession(ctx);
    await expectPinAnswer(first, TEST_PIN, 200, 'Access granted');
    expect(await tryWrite(second)).toBe(403);
  });
});

describe('the verified PIN idles out after 30 minutes without an admin request', () => {
  test('29 minutes between requests keep it; 30 idle minutes ask for the PIN again', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    await expectPinAnswer(admin, TEST_PIN, 200, 'Access granted');
    ctx.clock.advance(29 * 60_000);
    expect(await tryWrite(admin)).toBe(201);
    ctx.clock.advance(29 * 60_000);
    expect(await tryWrite(admin)).toBe(201);
    ctx.clock.advance(30 * 60_000);
    expect(await tryWrite(admin)).toBe(403);
    await expectPinAnswer(admin, TEST_PIN, 200, 'Access granted');
    expect(await tryWrite(admin)).toBe(201);
  });
});

describe('the verified PIN expires after 12 hours', () => {
  test('writes work until 12 hours have passed, then get 403 until the PIN is entered again', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    await expectPinAnswer(admin, TEST_PIN, 200, 'Access granted');

    // In use all day (a request every 20 minutes keeps the unlock from idling out).
    for (let elapsed = 0; elapsed + 20 * 60_000 < 12 * HOUR; elapsed += 20 * 60_000) {
      ctx.clock.advance(20 * 60_000);
      expect(await tryWrite(admin)).toBe(201);
    }
    ctx.clock.set(ctx.db.select().from(sessions).all()[0]!.pinVerifiedAt! + 12 * HOUR - 1);
    expect(await tryWrite(admin)).toBe(201);

    ctx.clock.advance(1);
    const refused = await admin.post('/api/products', { body: newProductForm('Too Late') });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe('Enter the admin PIN first.');
    expect(productCount(ctx)).toBe(36);

    const panel = await admin.get('/admin');
    expect(await panel.text()).toContain('Admin Authentication');

    await expectPinAnswer(admin, TEST_PIN, 200, 'Access granted');
    expect(await tryWrite(admin)).toBe(201);
  });
});

describe('the PIN never reaches the browser', () => {
  test('no page served to the admin, before or after the PIN, contains it', async () => {
    const ctx = await seededApp();
    const admin = await adminSession(ctx);
    const pages = ['/admin', '/', '/products', '/admin/product/new'];
    const bodies: string[] = [];
    for (const path of pages) bodies.push(await (await admin.get(path)).text());
    expect(bodies[0]).toContain('Admin Authentication');

    await expectPinAnswer(admin, TEST_PIN, 200, 'Access granted');
    for (const path of [...pages, '/admin?tab=book']) bodies.push(await (await admin.get(path)).text());
    expect(bodies[pages.length]).toContain('Back to Store');

    for (const html of bodies) expect(html).not.toContain(TEST_PIN);
  });
});

// ---------------------------------------------------------------- server-rendered PIN form

describe('the server-rendered PIN form', () => {
  test('an admin who has not passed the PIN sees the PIN screen on /admin', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    const response = await admin.get('/admin');
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('Admin Authentication');
    expect(html).toContain('Verify PIN');
    expect(html).toContain('action="/admin/pin"');
    expect(html).not.toContain('Back to Store');
  });

  test('a wrong PIN re-renders the form with "Invalid PIN. Please try again." and "Access denied"', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    const response = await admin.post('/admin/pin', { form: { pin: WRONG_PIN, next: '/admin' } });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain('Invalid PIN. Please try again.');
    expect(html).toContain('Access denied');
    expect(html).toContain('Invalid PIN entered.');
    expect(html).toContain('Admin Authentication');
    expect(html).not.toContain(WRONG_PIN);
    expect(await tryWrite(admin)).toBe(403);
  });

  test('the right PIN redirects (303) to /admin, which then shows the panel and "Access granted"', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    const response = await admin.post('/admin/pin', { form: { pin: TEST_PIN, next: '/admin' } });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin');
    const panel = await admin.get('/admin');
    expect(panel.status).toBe(200);
    const html = await panel.text();
    expect(html).toContain('Admin Panel');
    expect(html).toContain('Back to Store');
    expect(html).toContain('Access granted');
    expect(await tryWrite(admin)).toBe(201);
  });

  test('next keeps an admin path and never leaves the admin area', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    const tab = await admin.post('/admin/pin', { form: { pin: TEST_PIN, next: '/admin?tab=book' } });
    expect(tab.headers.get('location')).toBe('/admin?tab=book');
    const away = await admin.post('/admin/pin', { form: { pin: TEST_PIN, next: '//evil.example/admin' } });
    expect(away.status).toBe(303);
    expect(away.headers.get('location')).toBe('/admin');
    const store = await admin.post('/admin/pin', { form: { pin: TEST_PIN, next: '/cart' } });
    expect(store.headers.get('location')).toBe('/admin');
  });

  test('the form shares the lock: after 5 wrong PINs it answers 429, also with the right PIN', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    for (let i = 0; i < 5; i++) expect((await admin.post('/admin/pin', { form: { pin: WRONG_PIN, next: '/admin' } })).status).toBe(401);
    const locked = await admin.post('/admin/pin', { form: { pin: TEST_PIN, next: '/admin' } });
    expect(locked.status).toBe(429);
    expect(await locked.text()).toContain('Too many wrong PINs. Please try again in 15 minutes.');
    await expectPinAnswer(admin, TEST_PIN, 429, 'Too many wrong PINs. Please try again in 15 minutes.');
  });

  test('a signed-in non-admin gets 403 Access Denied on /admin and on the PIN form', async () => {
    const ctx = await testApp();
    const shopper = await shopperSession(ctx);
    const page = await shopper.get('/admin');
    expect(page.status).toBe(403);
    const html = await page.text();
    expect(html).toContain('Access Denied');
    expect(html).toContain('Admin Access Required');
    expect(html).toContain('Go to Home');

    const post = await shopper.post('/admin/pin', { form: { pin: TEST_PIN, next: '/admin' } });
    expect(post.status).toBe(403);
    expect(await post.text()).toContain('Access Denied');
    expect(await tryWrite(shopper)).toBe(403);
  });

  test('a signed-out visitor posting the form is sent to /auth', async () => {
    const ctx = await testApp();
    const response = await ctx.client().post('/admin/pin', { form: { pin: TEST_PIN, next: '/admin' } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')!.startsWith('/auth?next=')).toBe(true);
  });
});

// ---------------------------------------------------------------- guessing in bulk

describe('the PIN lock cannot be outrun', () => {
  test('wrong PINs sent all at once still lock the session', async () => {
    const ctx = await testApp();
    const admin = await adminSession(ctx);
    const answers = await Promise.all(Array.from({ length: 20 }, () => sendPin(admin, WRONG_PIN)));
    expect(answers.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    await expectPinAnswer(admin, TEST_PIN, 429, 'Too many wrong PINs. Please try again in 15 minutes.');
  });

  test('10 wrong PINs across fresh logins lock the admin account, whatever the session', async () => {
    const ctx = await testApp();
    for (let login = 0; login < 3; login++) {
      const admin = await adminSession(ctx);
      for (let i = 0; i < 4 && login * 4 + i < 10; i++) await sendPin(admin, WRONG_PIN);
    }
    const fresh = await adminSession(ctx);
    await expectPinAnswer(fresh, TEST_PIN, 429, 'Too many wrong PINs. Please try again in 15 minutes.');
    ctx.clock.advance(15 * MINUTE + 1);
    expect((await sendPin(fresh, TEST_PIN)).status).toBe(200);
  });
});
