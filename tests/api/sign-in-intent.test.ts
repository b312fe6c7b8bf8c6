import { beforeEach, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema.ts';
import { seededStore, type Store } from '../helpers/admin-tools.ts';
import { completeProfile } from '../helpers/actors.ts';
import { TEST_ORIGIN, type TestClient } from '../helpers/app.ts';
import { parseHtml, toastOf } from '../helpers/html.ts';

/* What a visitor asked for before signing in is not lost: Add to Cart, and Add Payment Method from a game. */

let ctx: Store;
let productId: number;

beforeEach(async () => {
  ctx = await seededStore();
  const products = (await (await ctx.client().get('/api/products')).json()) as { id: number; quantity: number; buyNowEnabled: boolean; playEnabled: boolean }[];
  // One that can be bought and played: the Play page picks only for a product with a game to join.
  productId = products.find((p) => p.quantity > 2 && p.buyNowEnabled && p.playEnabled)!.id;
});

async function registeredShopper(username: string, complete: boolean): Promise<void> {
  const client = ctx.client();
  expect((await client.post('/api/register', { json: { username, password: 'intent-pass-1' } })).status).toBe(201);
  const id = ctx.db.select().from(users).where(eq(users.username, username)).get()!.id;
  if (complete) completeProfile(ctx, id);
}

async function cartOf(client: TestClient): Promise<{ productId: number; quantity: number }[]> {
  const lines = (await (await client.get('/api/cart')).json()) as { productId: number; quantity: number }[];
  return lines.map((line) => ({ productId: line.productId, quantity: line.quantity }));
}

/** A visitor presses Add to Cart on a product page: it goes in the visitor's cart, kept by a cookie, and they stay on the product. */
async function visitorAddsToCart(): Promise<TestClient> {
  const visitor = ctx.client();
  const response = await visitor.post('/cart/add', { form: { productId: String(productId), next: `/product/${productId}` } });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe(`/product/${productId}`);
  expect(await cartOf(visitor)).toEqual([{ productId, quantity: 1 }]);
  return visitor;
}

describe("a visitor's Add to Cart survives signing in (the visitor cart joins the account's)", () => {
  test('logging in with the form keeps the product in the cart and returns to the product', async () => {
    await registeredShopper('intent_form', true);
    const visitor = await visitorAddsToCart();
    const login = await visitor.post(`/auth/login?next=${encodeURIComponent(`/product/${productId}`)}`, {
      form: { username: 'intent_form', password: 'intent-pass-1' },
    });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toBe(`/product/${productId}`);
    const page = await visitor.get(`/product/${productId}`);
    expect(toastOf(await page.text())?.title).toBe('Your cart came with you');
    expect(await cartOf(visitor)).toEqual([{ productId, quantity: 1 }]);
    // Done once: logging in again adds nothing more.
    await visitor.post('/api/logout');
    await visitor.post('/api/login', { json: { username: 'intent_form', password: 'intent-pass-1' } });
    expect(await cartOf(visitor)).toEqual([{ productId, quantity: 1 }]);
  });

  test('logging in through the API (the island) answers with the notice to show', async () => {
    await registeredShopper('intent_api', true);
    const visitor = await visitorAddsToCart();
    const login = await visitor.post('/api/login', { json: { username: 'intent_api', password: 'intent-pass-1' } });
    expect(login.status).toBe(200);
    const body = await login.json();
    expect(body.username).toBe('intent_api');
    expect(body.notice).toEqual({ title: 'Your cart came with you', description: 'The product you added is in your cart.' });
    expect(body.next).toBeUndefined();
    expect(await cartOf(visitor)).toEqual([{ productId, quantity: 1 }]);
  });

  test('a new account keeps the cart at once: no profile is needed to have a cart', async () => {
    const visitor = await visitorAddsToCart();
    const registered = await visitor.post('/api/register', { json: { username: 'intent_new', password: 'intent-pass-1' } });
    expect(registered.status).toBe(201);
    const body = await registered.json();
    expect(body.notice.title).toBe('Your cart came with you');
    expect(body.next).toBeUndefined();
    expect(await cartOf(visitor)).toEqual([{ productId, quantity: 1 }]);
  });

  test('no page view acts on it: only the sign-in POST does', async () => {
    await registeredShopper('intent_get', true);
    const visitor = await visitorAddsToCart();
    for (const path of ['/', `/product/${productId}`, '/cart', '/auth']) await visitor.get(path);
    expect(visitor.cookies.has('csa_cart')).toBe(true);
    await visitor.post('/api/login', { json: { username: 'intent_get', password: 'intent-pass-1' } });
    expect(visitor.cookies.has('csa_cart')).toBe(false);
  });

  test('a forged or stale intent is dropped and the sign-in goes on as usual', async () => {
    await registeredShopper('intent_forged', true);
    for (const value of ['abc', '999999', '-1', '1e3', `${productId}%00`]) {
      const visitor = ctx.client();
      visitor.cookies.set('csa_cart_intent', value);
      const login = await visitor.post('/api/login', { json: { username: 'intent_forged', password: 'intent-pass-1' } });
      expect(login.status).toBe(200);
      expect((await login.json()).notice).toBeUndefined();
      expect(await cartOf(visitor)).toEqual([]);
    }
  });
});

describe('Add Payment Method from a game comes back to the game', () => {
  test('the Payment tab opened with next=/play/ID links back and hands the path to the card form', async () => {
    await registeredShopper('intent_card', false);
    const shopper = ctx.client();
    await shopper.post('/api/login', { json: { username: 'intent_card', password: 'intent-pass-1' } });
    const html = await (await shopper.get(`/profile?tab=payment&next=${encodeURIComponent(`/play/${productId}`)}`)).text();
    const doc = parseHtml(html);
    expect(doc.querySelector(`main a[href="/play/${productId}"]`)?.textContent).toBe('Back to the game');
    const props = JSON.parse(doc.querySelector('[data-island="PaymentMethodForm"] > script')!.textContent!);
    expect(props.returnTo).toBe(`/play/${productId}`);
  });

  test('a next that leaves the site is ignored', async () => {
    await registeredShopper('intent_evil', false);
    const shopper = ctx.client();
    await shopper.post('/api/login', { json: { username: 'intent_evil', password: 'intent-pass-1' } });
    for (const next of ['//evil.example', 'https://evil.example/play/1', '/\\evil.example']) {
      const doc = parseHtml(await (await shopper.get(`/profile?tab=payment&next=${encodeURIComponent(next)}`)).text());
      expect(doc.body.textContent).not.toContain('Back to the game');
      const props = JSON.parse(doc.querySelector('[data-island="PaymentMethodForm"] > script')!.textContent!);
      expect(props.returnTo).toBeNull();
    }
  });

  test('the Play page dialog links to the Payment tab with the way back', async () => {
    const html = await (await ctx.client().get(`/play/${productId}`)).text();
    expect(html).toContain(`${TEST_ORIGIN}`);
    expect(html).toContain(`/profile?tab=payment&amp;next=${encodeURIComponent(`/play/${productId}`)}`);
  });
});
