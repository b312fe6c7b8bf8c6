import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { influencers, notifications, orders, products, userProfiles, users } from '../../src/db/schema.ts';
import { totalsFor, totalsInDollars } from '../../src/shared/pricing.ts';
import { createSession, generateSessionToken } from '../../src/domain/accounts/sessions.ts';
import { COMPLETE_PROFILE, completeProfile } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';

/*
 * Server-side rules for every way to buy (issue 9, item 7): the profile rule on every API path
 * that adds to the cart, checks out, buys now or plays; cash on delivery limited so nobody can
 * reserve the stock without paying.
 */

const INCOMPLETE = 'Please complete your profile information before making purchases or entering games.';

async function store() {
  const ctx = await seededApp();
  const user = ctx.db.insert(users).values({ username: 'rules', passwordHash: 'unused', createdAt: ctx.clock.now() }).returning().get();
  const token = generateSessionToken();
  createSession(ctx.db, ctx.clock, token, user.id);
  const client = ctx.client();
  client.cookies.set('csa_session', token);
  const product = ctx.db.select().from(products).where(eq(products.model, 'RB3025-L0205')).get()!;
  const book = ctx.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
  return { ...ctx, client, userId: user.id, product, book };
}

type Store = Awaited<ReturnType<typeof store>>;

function codBody(cart: { id: number; productId: number; quantity: number; price: number; type: string }[]) {
  const summary = totalsInDollars(
    totalsFor(
      cart.map((l) => ({ priceCents: Math.round(l.price * 100), quantity: l.quantity })),
      599,
    ),
  );
  return {
    paymentMethod: 'cod',
    items: cart,
    shipping: { method: 'standard', cost: 5.99 },
    summary,
    customer: {
      fullName: COMPLETE_PROFILE.name,
      email: COMPLETE_PROFILE.email,
      phone: COMPLETE_PROFILE.phone,
      address: '123 Coast Hwy',
      city: 'Laguna Beach',
      state: 'CA',
      zipCode: '92651',
    },
  };
}

async function cart(ctx: Store) {
  return (await (await ctx.client.get('/api/cart')).json()) as { id: number; productId: number; quantity: number; price: number; type: string }[];
}

const LOCAL_CUSTOMER = {
  name: COMPLETE_PROFILE.name,
  email: COMPLETE_PROFILE.email,
  phone: COMPLETE_PROFILE.phone,
  address: { line1: '123 Coast Hwy', city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
};

describe('buying asks only for what the payment needs (issue 27, item 5)', () => {
  test('with a card on file but no address: the cart takes the product, a cart checkout without details asks for them and with them pays cash, buy-now with its own details pays', async () => {
    const ctx = await store();
    completeProfile(ctx, ctx.userId);
    ctx.db.update(userProfiles).set({ address: null }).where(eq(userProfiles.userId, ctx.userId)).run();
    expect((await ctx.client.post('/api/cart', { json: { productId: ctx.product.id, quantity: 1 } })).status).toBe(201);
    const { customer: _omit, ...withoutDetails } = codBody(await cart(ctx));
    const unsent = await ctx.client.post('/api/checkout', { json: withoutDetails });
    expect(unsent.status).toBe(400);
    expect((await unsent.json()).message).toBe('Enter your name, phone and delivery address.');
    const sent = await ctx.client.post('/api/checkout', { json: codBody(await cart(ctx)) });
    expect(sent.status).toBe(201);
    const bought = await ctx.client.post('/api/orders', {
      json: {
        productId: ctx.product.id,
        quantity: 1,
        subtotal: 171,
        shipping: 0,
        tax: 13.68,
        total: 184.68,
        paymentToken: 'cnon:card-nonce-ok',
        customerInfo: LOCAL_CUSTOMER,
      },
    });
    expect(bought.status).toBe(201);
    expect(
      ctx.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, ctx.userId))
        .all()
        .map((n) => n.title),
    ).not.toContain('Complete Your Profile');
  });
});

describe('the profile rule holds on every play path', () => {
  const paths: [string, (ctx: Store) => Promise<Response>][] = [
    [
      'POST /api/plays',
      (ctx) =>
        ctx.client.post('/api/plays', {
          json: {
            productId: ctx.book.id,
            influencerIds: ctx.db
              .select()
              .from(influencers)
              .limit(5)
              .all()
              .map((i) => String(i.id)),
          },
        }),
    ],
    ['POST /api/payments', (ctx) => ctx.client.post('/api/payments', { json: { productId: ctx.book.id, amount: 1, type: 'play' } })],
  ];
  for (const [name, send] of paths) {
    test(`${name} with a card on file but no address: 403, the notice once, nothing written`, async () => {
      const ctx = await store();
      completeProfile(ctx, ctx.userId);
      ctx.db.update(userProfiles).set({ address: null }).where(eq(userProfiles.userId, ctx.userId)).run();
      const first = await send(ctx);
      expect(first.status).toBe(403);
      expect(await first.json()).toMatchObject({ message: INCOMPLETE, code: 'PROFILE_INCOMPLETE' });
      expect((await send(ctx)).status).toBe(403);
      const notices = ctx.db.select().from(notifications).where(eq(notifications.userId, ctx.userId)).all();
      expect(notices.map((n) => n.title)).toEqual(['Complete Your Profile']);
      expect(await cart(ctx)).toEqual([]);
      expect(ctx.db.select().from(orders).all()).toEqual([]);
    });
  }
});

describe('cash on delivery is limited', () => {
  test('more than 5 units in one cash order: 409, nothing ordered or reserved', async () => {
    const ctx = await store();
    completeProfile(ctx, ctx.userId);
    expect((await ctx.client.post('/api/cart', { json: { productId: ctx.product.id, quantity: 6 } })).status).toBe(201);
    const answer = await ctx.client.post('/api/checkout', { json: codBody(await cart(ctx)) });
    expect(answer.status).toBe(409);
    expect((await answer.json()).message).toBe('Cash on delivery is limited to 5 items per order. Please pay by card.');
    expect(ctx.db.select().from(orders).all()).toEqual([]);
    expect(ctx.db.select().from(products).where(eq(products.id, ctx.product.id)).get()!.quantity).toBe(ctx.product.quantity);
  });

  test('one open cash order per account: a second one is 409 until the first is delivered', async () => {
    const ctx = await store();
    completeProfile(ctx, ctx.userId);
    expect((await ctx.client.post('/api/cart', { json: { productId: ctx.product.id, quantity: 1 } })).status).toBe(201);
    expect((await ctx.client.post('/api/checkout', { json: codBody(await cart(ctx)) })).status).toBe(201);
    expect((await ctx.client.post('/api/cart', { json: { productId: ctx.product.id, quantity: 1 } })).status).toBe(201);
    const second = await ctx.client.post('/api/checkout', { json: codBody(await cart(ctx)) });
    expect(second.status).toBe(409);
    expect((await second.json()).message).toBe('You already have a cash-on-delivery order on its way. Please pay by card, or wait until it is delivered.');
    expect(ctx.db.select().from(orders).all()).toHaveLength(1);
    // Delivered: the next cash order is fine.
    ctx.db.update(orders).set({ status: 'completed' }).run();
    expect((await ctx.client.post('/api/checkout', { json: codBody(await cart(ctx)) })).status).toBe(201);
  });

  test('20 concurrent cash checkouts of one cart: one order', async () => {
    const ctx = await store();
    completeProfile(ctx, ctx.userId);
    expect((await ctx.client.post('/api/cart', { json: { productId: ctx.product.id, quantity: 2 } })).status).toBe(201);
    const body = codBody(await cart(ctx));
    const answers = await Promise.all(Array.from({ length: 20 }, () => ctx.client.post('/api/checkout', { json: body })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.every((a) => a.status < 500)).toBe(true);
    expect(ctx.db.select().from(orders).all()).toHaveLength(1);
    expect(ctx.db.select().from(products).where(eq(products.id, ctx.product.id)).get()!.quantity).toBe(ctx.product.quantity - 2);
  });
});
