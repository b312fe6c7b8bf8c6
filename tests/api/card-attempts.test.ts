import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { orders, payments, plays, products, userProfiles } from '../../src/db/schema.ts';
import { CARD_ATTEMPTS_PER_ADDRESS, CARD_ATTEMPTS_PER_USER } from '../../src/domain/payments/card-attempts.ts';
import type { PaymentGateway } from '../../src/domain/payments/gateway.ts';
import { cartShippingCents, totalsFor, totalsInDollars } from '../../src/shared/pricing.ts';
import { buyNowBody, COMPLETE_PROFILE, quickShopper } from '../helpers/actors.ts';
import { seededApp, TestClient } from '../helpers/app.ts';
import { variantsOf } from '../../src/domain/inventory/variants.ts';
import { gameStore, pick, picks, player, book, pay } from '../helpers/games.ts';
import { squareStore } from '../helpers/square-app.ts';

/*
 * Card testing (issue 25, row 2): every card save, charge and $1 hold takes its slot before the
 * gateway is asked, refusals of any kind keep it, and the slots are counted per user and per
 * client address, so a burst sent at once is cut at the limit and the rest change nothing.
 */

const TOO_MANY = /^Too many card attempts\. Please try again in \d+ minutes?\.$/;
const LATENCY = 300;

type AppLike = { request: (input: string, init?: RequestInit, env?: unknown) => Response | Promise<Response> };

/** The client's requests as if they came from `address` (the socket's peer, no proxy involved). */
function fromAddress(app: AppLike, client: TestClient, address: string): TestClient {
  const peer = { requestIP: () => ({ address, family: 'IPv4', port: 40_000 }) };
  const moved = new TestClient({ request: (input, init) => app.request(input, init, peer) });
  for (const [name, value] of client.cookies) moved.cookies.set(name, value);
  return moved;
}

/** Counts the calls that put a card in front of the gateway. */
function countCardCalls(gateway: PaymentGateway) {
  const calls = { saveCard: 0, charge: 0, authorize: 0 };
  for (const operation of ['saveCard', 'charge', 'authorize'] as const) {
    const original = gateway[operation].bind(gateway) as (input: never) => Promise<never>;
    Object.assign(gateway, {
      [operation]: (input: never) => {
        calls[operation]++;
        return original(input);
      },
    });
  }
  return calls;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('a burst of refused cards is cut at the limit before the gateway', () => {
  test('30 card saves at once with refused cards: 5 reach Square (422), 25 are 429 and save nothing', async () => {
    const s = await squareStore();
    try {
      const { client, id } = await s.shopper('tester');
      const before = s.db.select().from(userProfiles).where(eq(userProfiles.userId, id)).get()!;
      const sent = s.fake.requests.length;
      s.fake.setLatency(LATENCY, { method: 'POST', path: '/v2/cards' });
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          client.patch('/api/user/profile', { json: { paymentMethod: { type: 'card', token: `cnon:card-nonce-rejected-cvv:VISA:${1000 + i}:12:2030` } } }),
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect(count(statuses, 422)).toBe(CARD_ATTEMPTS_PER_USER);
      expect(count(statuses, 429)).toBe(30 - CARD_ATTEMPTS_PER_USER);
      const refused = answers.find((r) => r.status === 429)!;
      expect(((await refused.json()) as { message: string }).message).toMatch(TOO_MANY);
      expect(s.fake.requests.slice(sent).filter((r) => r.path === '/v2/cards')).toHaveLength(CARD_ATTEMPTS_PER_USER);
      const after = s.db.select().from(userProfiles).where(eq(userProfiles.userId, id)).get()!;
      expect(after.gatewayCardId).toBe(before.gatewayCardId);
    } finally {
      s.stop();
    }
  }, 30_000);

  test('20 declined buy-nows at once on 20 products: 5 reach Square (402), 15 are 429; nothing stays reserved or charged', async () => {
    const s = await squareStore();
    try {
      const { client, id } = await s.shopper('decliner', 'cnon:card-nonce-declined');
      const goods = s.db
        .select()
        .from(products)
        .all()
        // Products sold in one size: a buy-now needs no size named (the demo tee and shoe have several).
        .filter((p) => p.buyNowEnabled && p.quantity > 0 && variantsOf(s.db, p.id).length === 1)
        .slice(0, 20);
      expect(goods).toHaveLength(20);
      const stock = new Map(goods.map((p) => [p.id, p.quantity]));
      const charges = s.fake.payments().length;
      s.fake.setLatency(LATENCY, { method: 'POST', path: '/v2/payments' });
      const answers = await Promise.all(goods.map((p) => client.post('/api/orders', { json: buyNowBody(p.id, p.priceCents) })));
      const statuses = answers.map((r) => r.status);
      expect(count(statuses, 402)).toBe(CARD_ATTEMPTS_PER_USER);
      expect(count(statuses, 429)).toBe(20 - CARD_ATTEMPTS_PER_USER);
      expect(s.fake.payments().length - charges).toBe(CARD_ATTEMPTS_PER_USER);
      expect(s.fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(0);
      // The 429s wrote nothing; the 5 refused orders gave their stock back.
      const written = s.db.select().from(orders).where(eq(orders.userId, id)).all();
      expect(written.map((o) => o.status)).toEqual(Array(CARD_ATTEMPTS_PER_USER).fill('failed'));
      const rows = s.db.select().from(payments).where(eq(payments.userId, id)).all();
      expect(rows.map((p) => p.status)).toEqual(Array(CARD_ATTEMPTS_PER_USER).fill('failed'));
      for (const p of s.db.select().from(products).all()) if (stock.has(p.id)) expect(p.quantity).toBe(stock.get(p.id)!);
    } finally {
      s.stop();
    }
  }, 30_000);
});

describe('the limit is per user and per address', () => {
  test('another user elsewhere is not affected; the same user from a new address is; users of one address share its limit', async () => {
    const ctx = await seededApp();
    const calls = countCardCalls(ctx.gateway);
    const product = ctx.db.select().from(products).where(eq(products.id, 1)).get()!;
    const declined = { ...buyNowBody(product.id, product.priceCents), paymentToken: 'cnon:card-nonce-declined' };
    const at = (username: string, address: string) => fromAddress(ctx.app, quickShopper(ctx, username).client, address);
    const buy = async (client: TestClient) => (await client.post('/api/orders', { json: declined })).status;

    const alice = at('alice', '203.0.113.1');
    for (let i = 0; i < CARD_ATTEMPTS_PER_USER; i++) expect(await buy(alice)).toBe(402);
    const refused = await alice.post('/api/orders', { json: declined });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe('Too many card attempts. Please try again in 15 minutes.');
    // The same user from another network is still limited.
    expect(await buy(fromAddress(ctx.app, alice, '198.51.100.9'))).toBe(429);
    // Another user on another network is not.
    expect(await buy(at('bob', '192.0.2.50'))).toBe(402);
    // A second account on Alice's network shares the address's limit...
    const carol = at('carol', '203.0.113.1');
    for (let i = 0; i < CARD_ATTEMPTS_PER_ADDRESS - CARD_ATTEMPTS_PER_USER; i++) expect(await buy(carol)).toBe(402);
    // ...so a third one there is cut at it, though it never tried a card; elsewhere it may.
    const dave = quickShopper(ctx, 'dave').client;
    expect(await buy(fromAddress(ctx.app, dave, '203.0.113.1'))).toBe(429);
    expect(await buy(fromAddress(ctx.app, dave, '192.0.2.77'))).toBe(402);

    expect(calls.charge).toBe(CARD_ATTEMPTS_PER_ADDRESS + 2);
    expect(ctx.db.select().from(orders).where(eq(orders.status, 'pending')).all()).toHaveLength(0);
  });

  test('cards that go through give their slot back: an honest shopper is never locked by good payments', async () => {
    const ctx = await seededApp();
    const calls = countCardCalls(ctx.gateway);
    const { client } = quickShopper(ctx, 'honest');
    const product = ctx.db.select().from(products).where(eq(products.id, 1)).get()!;
    const body = buyNowBody(product.id, product.priceCents);
    const buy = async (token: string) => (await client.post('/api/orders', { json: { ...body, paymentToken: token } })).status;
    for (let i = 0; i < CARD_ATTEMPTS_PER_USER - 1; i++) expect(await buy('cnon:card-nonce-declined')).toBe(402);
    for (let i = 0; i < 3; i++) expect(await buy('cnon:card-nonce-ok')).toBe(201);
    const saved = await client.patch('/api/user/profile', { json: { paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } } });
    expect(saved.status).toBe(200);
    expect(await buy('cnon:card-nonce-declined')).toBe(402);
    expect(await buy('cnon:card-nonce-ok')).toBe(429);
    expect(calls.charge + calls.saveCard).toBe(CARD_ATTEMPTS_PER_USER + 4);
  });
});

describe('a 429 is not an answer to keep', () => {
  test('the same Idempotency-Key after the wait is a new try, not a replayed 429', async () => {
    const ctx = await seededApp();
    const { client } = quickShopper(ctx, 'waiter');
    const product = ctx.db.select().from(products).where(eq(products.id, 1)).get()!;
    const body = buyNowBody(product.id, product.priceCents);
    for (let i = 0; i < CARD_ATTEMPTS_PER_USER; i++) {
      expect((await client.post('/api/orders', { json: { ...body, paymentToken: 'cnon:card-nonce-declined' } })).status).toBe(402);
    }
    const headers = { 'idempotency-key': 'buy-now-form-1' };
    expect((await client.post('/api/orders', { json: body, headers })).status).toBe(429);
    ctx.clock.advance(15 * 60_000);
    const paid = await client.post('/api/orders', { json: body, headers });
    expect(paid.status).toBe(201);
    expect(paid.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('one limit for every card path', () => {
  test('a refused save (400), buy-now, cart checkout and $1 holds count together; the next of any is 429 and writes nothing', async () => {
    const ctx = await gameStore();
    const calls = countCardCalls(ctx.gateway);
    const p = await player(ctx, 'tester', 'cnon:card-nonce-declined');
    const product = book(ctx);
    const buyable = ctx.db
      .select()
      .from(products)
      .all()
      .find((row) => row.buyNowEnabled && row.quantity > 1 && row.id !== product.id)!;

    // A token the gateway does not know: 400, counted.
    const bogus = await p.client.patch('/api/user/profile', { json: { paymentMethod: { type: 'card', token: 'not-a-card' } } });
    expect(bogus.status).toBe(400);
    expect((await p.client.post('/api/orders', { json: buyNowBody(buyable.id, buyable.priceCents) })).status).toBe(402);
    expect((await p.client.post('/api/cart', { json: { productId: buyable.id, quantity: 1 } })).status).toBe(201);
    const summary = totalsInDollars(totalsFor([{ priceCents: buyable.priceCents, quantity: 1 }], cartShippingCents([{ type: 'regular' }], 'standard')));
    const cart = (await (await p.client.get('/api/cart')).json()) as { id: number; quantity: number }[];
    const checkout = {
      paymentMethod: 'square',
      items: cart.map(({ id, quantity }) => ({ id, quantity })),
      shipping: { method: 'standard' },
      summary,
      customer: {
        fullName: COMPLETE_PROFILE.name,
        email: COMPLETE_PROFILE.email,
        phone: COMPLETE_PROFILE.phone,
        address: COMPLETE_PROFILE.address.line1,
        city: 'Laguna Beach',
        state: 'CA',
        zipCode: '92651',
      },
    };
    expect((await p.client.post('/api/checkout', { json: checkout })).status).toBe(402);
    for (let i = 0; i < CARD_ATTEMPTS_PER_USER - 3; i++) {
      // A new pick a moment later: the hold of a refused pick is not asked for again.
      ctx.clock.advance(1000);
      await pick(p, product.id, picks(ctx, 0));
      expect((await pay(p, product.id)).status).toBe(402);
    }
    expect(calls).toEqual({ saveCard: 2, charge: 2, authorize: CARD_ATTEMPTS_PER_USER - 3 });

    // Every path now answers 429 before the gateway, and leaves what it found as it was.
    ctx.clock.advance(1000);
    const play = await pick(p, product.id, picks(ctx, 0));
    const holds = ctx.db.select().from(payments).all().length;
    const entry = await pay(p, product.id);
    expect(entry.status).toBe(429);
    expect(((await entry.json()) as { message: string }).message).toMatch(TOO_MANY);
    expect(ctx.db.select().from(plays).where(eq(plays.id, play.id)).get()!.status).toBe('pending');
    expect((await p.client.post('/api/checkout', { json: checkout })).status).toBe(429);
    expect((await p.client.post('/api/orders', { json: buyNowBody(buyable.id, buyable.priceCents) })).status).toBe(429);
    expect((await p.client.patch('/api/user/profile', { json: { paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } } })).status).toBe(429);
    expect(ctx.db.select().from(payments).all()).toHaveLength(holds);
    expect(
      ctx.db
        .select()
        .from(orders)
        .where(and(eq(orders.userId, p.id), eq(orders.status, 'pending')))
        .all(),
    ).toHaveLength(0);
    expect(calls).toEqual({ saveCard: 2, charge: 2, authorize: CARD_ATTEMPTS_PER_USER - 3 });
  });
});
