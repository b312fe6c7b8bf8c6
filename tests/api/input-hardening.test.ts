import { describe, expect, test } from 'bun:test';
import { cartItems, notifications, orders, payments, sessions, users } from '../../src/db/schema.ts';
import { safeNextPath } from '../../src/shared/safe-next-path.ts';
import { completeProfile } from '../helpers/actors.ts';
import { testApp, seededApp } from '../helpers/app.ts';
import { squareStore } from '../helpers/square-app.ts';

/*
 * Issue 11: each case the fuzz of about 6,000 bad inputs found, as a named regression test.
 * Each test has its own store, so they run at once (the declined burst waits on Square's latency).
 */

/** A buy-now of product 1 at 92651 with the card the gateways always decline. */
const DECLINED_BUY_NOW = {
  productId: 1,
  quantity: 1,
  paymentToken: 'cnon:card-nonce-declined',
  customerInfo: {
    name: 'Lena Ocean',
    email: 'lena@example.com',
    phone: '949-555-0100',
    address: { line1: '123 Coast Hwy', city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
  },
};

async function signedIn(ctx: Awaited<ReturnType<typeof testApp>>, username = 'shopper1') {
  const client = ctx.client();
  expect((await client.post('/api/register', { json: { username, password: 'secret-pass' } })).status).toBe(201);
  const id = ctx.db
    .select()
    .from(users)
    .all()
    .find((u) => u.username === username)!.id;
  return { client, id };
}

describe.concurrent('input hardening', () => {
  describe('safeNextPath: only a path of this site', () => {
    test.each([
      '/%09/evil.example',
      '/\t/evil.example',
      '//evil.example',
      '/\\evil.example',
      '/%5Cevil.example',
      '/%2F%2Fevil.example',
      '/%252F%252Fevil.example',
      'https://evil.example',
      'evil.example',
      '/\r\nSet-Cookie:x=1',
      '/%0d%0aLocation:x',
      '/a\u0000b',
      '/%00',
      '/%E0%A4%A',
      '',
      `/${'a'.repeat(2001)}`,
    ])('%p becomes /', (value) => {
      expect(safeNextPath(value)).toBe('/');
    });

    test.each(['/', '/cart', '/product/6?tab=competition', '/products?q=ray%20ban', '/play/3'])('%p is kept', (value) => {
      expect(safeNextPath(value)).toBe(value);
    });

    test('the no-JavaScript login answers a safe Location for a hostile next, and saves the session once', async () => {
      const ctx = await testApp();
      await signedIn(ctx);
      for (const next of ['%2F%09%2Fevil.example', '%2F%0D%0Aevil', '%2F%00x', '%2F%5Cevil.example']) {
        const client = ctx.client();
        const response = await client.post(`/auth/login?next=${next}`, { form: { username: 'shopper1', password: 'secret-pass' } });
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe('/');
      }
    });

    test('Add to Cart with CR/LF/NUL in next: the safe redirect, never a 500 after saving', async () => {
      const ctx = await seededApp();
      const { client, id } = await signedIn(ctx);
      completeProfile(ctx, id);
      for (const next of ['/\r\nx', '/\nx', '/\u0000x', '//evil.example']) {
        const response = await client.post('/cart/add', { form: { productId: '1', next } });
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe('/');
      }
      expect(ctx.db.select().from(cartItems).all()[0]!.quantity).toBe(4);
    });
  });

  describe('sort names and queries never give a 500', () => {
    test.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])('sort=%s: the API answers 400, the page renders', async (sort) => {
      const ctx = await seededApp();
      const api = await ctx.client().get(`/api/products?sort=${sort}`);
      expect(api.status).toBe(400);
      expect((await api.json()).fields.sort).toBe('Use featured, price-asc, price-desc or newest.');
      expect((await ctx.client().get(`/products?sort=${sort}`)).status).toBe(200);
    });

    test('an encoded & in sort is never stored under the key of the real view', async () => {
      const ctx = await seededApp();
      const visitor = ctx.client();
      const poisoned = await visitor.get('/products?sort=newest%26type%3Dshoe');
      expect(poisoned.status).toBe(200);
      expect(ctx.pageCache.size).toBe(0);
      const real = await (await visitor.get('/products?sort=newest&type=shoe')).text();
      expect(real).toContain('<h1 class="m-0 text-2xl sm:text-3xl font-extrabold">Shoes</h1>');
      // The same view asked in another order or with a repeated key is one entry, or none.
      await visitor.get('/products?type=shoe&sort=newest');
      await visitor.get('/products?type=shoe&type=book');
      expect(ctx.pageCache.size).toBe(1);
    });
  });

  describe('limits that hold under concurrency', () => {
    test('30 passwords at once: cut at 10 before any is checked, the 30th (correct) one does not log in', async () => {
      const ctx = await testApp();
      await signedIn(ctx, 'victim');
      const attacker = ctx.client();
      const guesses = Array.from({ length: 30 }, (_, i) => (i === 29 ? 'secret-pass' : `wrong-${i}`));
      const answers = await Promise.all(guesses.map((password) => attacker.post('/api/login', { json: { username: 'victim', password } })));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20);
      expect(statuses[29]).toBe(429);
    });

    test('a correct password does not use up a try', async () => {
      const ctx = await testApp();
      await signedIn(ctx, 'regular');
      for (let i = 0; i < 15; i++) expect((await ctx.client().post('/api/login', { json: { username: 'regular', password: 'secret-pass' } })).status).toBe(200);
    });

    test('an unknown card token, sent again and again: 5 declines on one failed order, then 429 with nothing written', async () => {
      const ctx = await seededApp();
      const { client, id } = await signedIn(ctx);
      completeProfile(ctx, id);
      const body = DECLINED_BUY_NOW;
      // Without totals the answer is a 409 with the totals to confirm; then the real attempts.
      const totals = (await (await client.post('/api/orders', { json: body })).json()).summary;
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await client.post('/api/orders', { json: { ...body, ...totals } })).status);
      expect(statuses.slice(0, 5)).toEqual(Array(5).fill(402));
      expect(statuses.slice(5)).toEqual(Array(7).fill(429));
      // One failed order for the attempt window, its 5 refused charges under their own keys, told once.
      const written = ctx.db.select().from(orders).all();
      expect(written.map((o) => o.status)).toEqual(['failed']);
      const charges = ctx.db.select().from(payments).all();
      expect(charges.map((p) => [p.orderId, p.status])).toEqual(Array(5).fill([written[0]!.id, 'failed']));
      expect(new Set(charges.map((p) => p.idempotencyKey)).size).toBe(5);
      expect(
        ctx.db
          .select()
          .from(notifications)
          .all()
          .filter((n) => n.type === 'payment_failed'),
      ).toHaveLength(1);
    });
  });

  describe('loose numbers are refused', () => {
    test.each([
      ['productId true', { productId: true, quantity: 1 }],
      ['quantity "0x10"', { productId: 1, quantity: '0x10' }],
      ['quantity 1e1 as text', { productId: 1, quantity: '1e1' }],
      ['productId as an array', { productId: [1], quantity: 1 }],
    ])('POST /api/cart with %s: 400, nothing added', async (_label, json) => {
      const ctx = await seededApp();
      const { client, id } = await signedIn(ctx);
      completeProfile(ctx, id);
      const response = await client.post('/api/cart', { json });
      expect(response.status).toBe(400);
      expect((await response.json()).fields).toBeDefined();
      expect(ctx.db.select().from(cartItems).all()).toHaveLength(0);
    });

    test('a payment type outside the list is refused', async () => {
      const ctx = await testApp();
      const { client } = await signedIn(ctx);
      const response = await client.post('/api/payments', { json: { productId: 1, amount: 1, type: 'anything' } });
      expect(response.status).toBe(400);
      expect((await response.json()).fields.type).toBe("Only game entries are paid here (type 'play').");
    });
  });

  describe('headers on every kind of response', () => {
    test.each(['/ping', '/healthz', '/static/favicon.svg', '/uploads/missing.png', '/assets/missing.js', '/no-such-page', '/api/products', '/'])(
      '%s',
      async (path) => {
        const ctx = await testApp();
        const response = await ctx.client().get(path);
        expect(response.status).toBeLessThan(500);
        const csp = response.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("frame-ancestors 'none'");
        expect(response.headers.get('x-frame-options')).toBe('DENY');
        expect(response.headers.get('x-content-type-options')).toBe('nosniff');
        expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
        expect(response.headers.get('strict-transport-security')).toContain('max-age=');
        expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
        // The policies of a rendered document (its device features, its window group) come with documents only.
        const type = response.headers.get('content-type') ?? '';
        const isDocument = type.startsWith('text/html') || type.startsWith('image/svg+xml');
        if (isDocument) {
          expect(response.headers.get('permissions-policy')).toContain('camera=()');
          expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
        } else {
          expect(response.headers.get('permissions-policy')).toBeNull();
          expect(response.headers.get('cross-origin-opener-policy')).toBeNull();
        }
      },
    );

    test('signed-in and personal JSON is private, no-store', async () => {
      const ctx = await testApp();
      const { client } = await signedIn(ctx);
      for (const path of ['/api/user', '/api/cart', '/api/notifications', '/api/products']) {
        expect((await client.get(path)).headers.get('cache-control')).toBe('private, no-store');
      }
      expect((await ctx.client().get('/api/cart')).headers.get('cache-control')).toBe('private, no-store');
    });
  });

  describe('Sign out everywhere', () => {
    test('ends every session of the account, from the profile form and from the API', async () => {
      const ctx = await testApp();
      const { client: phone, id } = await signedIn(ctx);
      const laptop = ctx.client();
      expect((await laptop.post('/api/login', { json: { username: 'shopper1', password: 'secret-pass' } })).status).toBe(200);
      const other = await signedIn(ctx, 'someone-else');
      expect(ctx.db.select().from(sessions).all()).toHaveLength(3);

      const page = await (await phone.get('/profile')).text();
      expect(page).toContain('Sign out everywhere');
      const response = await phone.post('/profile/sign-out-everywhere');
      expect(response.status).toBe(303);
      expect((await laptop.get('/api/user')).status).toBe(401);
      expect((await phone.get('/api/user')).status).toBe(401);
      expect(
        ctx.db
          .select()
          .from(sessions)
          .all()
          .map((s) => s.userId),
      ).toEqual([other.id]);
      expect(id).not.toBe(other.id);

      const answer = await other.client.post('/api/logout/everywhere');
      expect(await answer.json()).toEqual({ message: 'Signed out everywhere', sessionsEnded: 1 });
      expect(ctx.db.select().from(sessions).all()).toHaveLength(0);
    });
  });

  describe('declined card attempts against the fake Square, with latency and at once', () => {
    // The money path lets one charge of a checkout run at a time, so a burst reaches Square once
    // (the others meet the lock, 409, or find no card slot free, 429); the declines are then
    // counted one by one and the sixth attempt is refused before Square.
    test('12 buy-nows at once with a declined card, 300 ms each: one reaches Square; 5 declines in all, then 429', async () => {
      const s = await squareStore();
      try {
        const { client } = await s.shopper('decliner');
        const body = DECLINED_BUY_NOW;
        const totals = (await (await client.post('/api/orders', { json: body })).json()).summary;
        const attempt = () => client.post('/api/orders', { json: { ...body, ...totals } });
        const chargesBefore = s.fake.payments().length;
        s.fake.setLatency(300, { method: 'POST', path: '/v2/payments' });
        const burst = (await Promise.all(Array.from({ length: 12 }, attempt))).map((r) => r.status);
        expect(burst.filter((status) => status === 402)).toHaveLength(1);
        expect(burst.filter((status) => status === 409 || status === 429)).toHaveLength(11);
        // One at a time from here: the latency only mattered for the burst to overlap.
        s.fake.clearLatency();
        const after: number[] = [];
        for (let i = 0; i < 6; i++) after.push((await attempt()).status);
        expect(after).toEqual([402, 402, 402, 402, 429, 429]);
        expect(s.fake.payments().length - chargesBefore).toBeLessThanOrEqual(5);
        expect(
          s.db
            .select()
            .from(orders)
            .all()
            .map((o) => o.status),
        ).toEqual(['failed']);
        s.clock.advance(15 * 60_000);
        // The good card within the window pays that same order: its history shows the refused attempts, then the charge.
        const paid = await client.post('/api/orders', { json: { ...body, ...totals, paymentToken: 'cnon:card-nonce-ok' } });
        expect(paid.status).toBe(201);
        const all = s.db.select().from(orders).all();
        expect(all.map((o) => o.status)).toEqual(['processing']);
        expect(
          s.db
            .select()
            .from(payments)
            .all()
            .filter((p) => p.orderId === all[0]!.id)
            .map((p) => p.status),
        ).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'captured']);
      } finally {
        s.stop();
      }
    }, 30_000);
  });
});
