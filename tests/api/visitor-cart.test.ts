import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { cartItems, products, users } from '../../src/db/schema.ts';
import { pruneStoreRows } from '../../src/domain/operations/row-retention.ts';
import { GUEST_CARTS_PER_ADDRESS } from '../../src/http/visitor-cart.ts';
import { shopper } from '../helpers/actors.ts';
import { addToCart, allOrders, aviator, cartOf, checkoutBody, checkoutStore, customer, radar, wayfarer } from '../helpers/checkout.ts';

const DAY = 24 * 60 * 60 * 1000;
import { seededApp } from '../helpers/app.ts';
import { parseHtml, textOf } from '../helpers/html.ts';

/*
 * A visitor's cart (issue 27, item 5): kept by a cookie, open without an account or a saved card,
 * joined to the account's cart on sign-in or registration.
 */

type Line = { productId: number; quantity: number };
const linesOf = async (client: { get(path: string): Promise<Response> }) =>
  ((await (await client.get('/api/cart')).json()) as Line[]).map(({ productId, quantity }) => ({ productId, quantity }));

describe('a visitor cart', () => {
  test('a visitor adds to the cart without an account: the lines are kept by a cookie and shown on /cart', async () => {
    const ctx = await seededApp();
    const visitor = ctx.client();
    await addToCart(visitor, aviator(ctx).id, 2);
    expect(visitor.cookies.get('csa_cart')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await linesOf(visitor)).toEqual([{ productId: aviator(ctx).id, quantity: 2 }]);
    const page = await visitor.get('/cart');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    const doc = parseHtml(await page.text());
    expect(textOf(doc.querySelector('h1')!)).toBe('Cart');
    expect(textOf(doc.querySelector('[data-guest-checkout]')!)).toContain('Checking out as a guest');
    // The header counts the visitor's cart, and only theirs.
    const cartLink = async (client: ReturnType<typeof ctx.client>) =>
      parseHtml(await (await client.get('/products')).text())
        .querySelector('header a[href="/cart"]')!
        .getAttribute('aria-label');
    expect(await cartLink(visitor)).toBe('Cart, 2 items');
    // Another browser sees its own, empty cart.
    expect(await linesOf(ctx.client())).toEqual([]);
    expect(await cartLink(ctx.client())).toBe('Cart, 0 items');
  });

  test('the product form without JavaScript adds for a visitor too', async () => {
    const ctx = await seededApp();
    const visitor = ctx.client();
    const response = await visitor.post('/cart/add', { form: { productId: String(aviator(ctx).id) } });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/product/${aviator(ctx).id}`);
    expect(await linesOf(visitor)).toEqual([{ productId: aviator(ctx).id, quantity: 1 }]);
  });

  test('a sold-out product is refused and makes no guest cart', async () => {
    const ctx = await seededApp();
    const visitor = ctx.client();
    const response = await visitor.post('/api/cart', { json: { productId: radar(ctx).id } });
    expect(response.status).toBe(409);
    expect(visitor.cookies.has('csa_cart')).toBe(false);
  });

  test('on sign-in the visitor cart joins the account cart: quantities add up to at most the stock, the cookie goes', async () => {
    const ctx = await checkoutStore();
    // The account already holds 3 Wayfarers (4 in stock).
    await addToCart(ctx.shopper, wayfarer(ctx).id, 3);
    const visitor = ctx.client();
    await addToCart(visitor, wayfarer(ctx).id, 2);
    await addToCart(visitor, aviator(ctx).id, 1);
    const signIn = await visitor.post('/api/login', { json: { username: 'shopper1', password: 'secret-pass' } });
    expect(signIn.status).toBe(200);
    expect(visitor.cookies.has('csa_cart')).toBe(false);
    const lines = await linesOf(visitor);
    expect(lines).toContainEqual({ productId: wayfarer(ctx).id, quantity: 4 });
    expect(lines).toContainEqual({ productId: aviator(ctx).id, quantity: 1 });
    expect(cartOf(ctx, ctx.userId)).toHaveLength(2);
  });

  test('on registration the visitor cart becomes the new account cart, without what is no longer for sale', async () => {
    const ctx = await seededApp();
    const visitor = ctx.client();
    await addToCart(visitor, aviator(ctx).id, 1);
    await addToCart(visitor, wayfarer(ctx).id, 1);
    ctx.db
      .update(products)
      .set({ buyNowEnabled: false })
      .where(eq(products.id, wayfarer(ctx).id))
      .run();
    const response = await visitor.post('/api/register', { json: { username: 'newbie', password: 'secret-pass' } });
    expect(response.status).toBe(201);
    const { id } = await response.json();
    expect(cartOf(ctx, id).map((line) => line.productId)).toEqual([aviator(ctx).id]);
  });
});

describe('the cart needs no saved card', () => {
  test('a signed-in shopper without a card (or any profile) opens /cart and sees the checkout', async () => {
    const ctx = await seededApp();
    const { client } = await shopper(ctx, 'nocard', { withProfile: false });
    await addToCart(client, aviator(ctx).id, 1);
    const page = await client.get('/cart');
    expect(page.status).toBe(200);
    expect(textOf(parseHtml(await page.text()).querySelector('h1')!)).toBe('Cart');
  });
});

describe('guest carts are limited and do not pile up', () => {
  test('one address starts at most GUEST_CARTS_PER_ADDRESS new carts an hour: then 429, and no guest account is made', async () => {
    const ctx = await seededApp();
    const productId = aviator(ctx).id;
    for (let i = 0; i < GUEST_CARTS_PER_ADDRESS; i++) expect((await ctx.client().post('/api/cart', { json: { productId } })).status).toBe(201);
    const guests = () =>
      ctx.db
        .select()
        .from(users)
        .all()
        .filter((u) => u.username.startsWith('visitor:')).length;
    expect(guests()).toBe(GUEST_CARTS_PER_ADDRESS);
    const refused = await ctx.client().post('/api/cart', { json: { productId } });
    expect(refused.status).toBe(429);
    expect((await refused.json()).message).toStartWith('Too many new carts from this network.');
    expect(guests()).toBe(GUEST_CARTS_PER_ADDRESS);
  });

  test('retention removes a guest account and its cart a day after the cookie ended, unless it ordered', async () => {
    const ctx = await checkoutStore();
    const idle = ctx.client();
    await addToCart(idle, aviator(ctx).id, 1);
    const buyer = ctx.client();
    await addToCart(buyer, aviator(ctx).id, 1);
    const { customer: _omit, ...body } = await checkoutBody(buyer, { subtotal: 171, shipping: 5.99, tax: 13.68, total: 190.67 });
    expect((await buyer.post('/api/checkout', { json: { ...body, customer } })).status).toBe(201);
    const guests = () =>
      ctx.db
        .select()
        .from(users)
        .all()
        .filter((u) => u.username.startsWith('visitor:'));
    expect(guests()).toHaveLength(2);
    const retention = ctx.config.retention;
    expect((await pruneStoreRows(ctx.db, ctx.clock.now() + 30 * DAY, retention)).guestCarts).toBe(0);
    expect((await pruneStoreRows(ctx.db, ctx.clock.now() + 32 * DAY, retention)).guestCarts).toBe(1);
    expect(guests()).toHaveLength(1);
    expect(allOrders(ctx)[0]!.userId).toBe(guests()[0]!.id);
    expect(ctx.db.select().from(cartItems).all()).toHaveLength(0);
  });
});
