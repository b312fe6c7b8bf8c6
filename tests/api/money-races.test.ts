import { buyNowBody } from '../helpers/actors.ts';
import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { cartItems, games, influencers, notifications, orderItems, orders, payments, products } from '../../src/db/schema.ts';
import { totalsFor } from '../../src/shared/pricing.ts';
import type { TestClient } from '../helpers/app.ts';
import { cardCheckoutBody, squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';

/*
 * Issue 9's races, against the fake Square server with real latency (hundreds of ms) and the
 * real `square` SDK: double clicks, two tabs and retries pay once, whatever the timing.
 */

const LATENCY = 400;
const PAYMENTS_PATH = { method: 'POST', path: '/v2/payments' };
const MINUTE = 60_000;

// One test at a time: run at once, 19 stores stretched each Square call past the SDK's 2 s timeout on a busy machine.
const open = squareStoresOfFile();

function productBy(s: SquareStore, brand: string, model?: string) {
  const row = s.db
    .select()
    .from(products)
    .where(model ? and(eq(products.brand, brand), eq(products.model, model)) : eq(products.brand, brand))
    .get();
  if (!row) throw new Error(`no product ${brand}`);
  return row;
}

const aviator = (s: SquareStore) => productBy(s, 'Ray-Ban', 'RB3025-L0205');
/** $2, playEnabled: a game of 2 players. */
const book = (s: SquareStore) => productBy(s, 'The Old Man and the Sea');

const completed = (s: SquareStore) => s.fake.payments().filter((p) => p.status === 'COMPLETED');
const approved = (s: SquareStore) => s.fake.payments().filter((p) => p.status === 'APPROVED');
const stockOf = (s: SquareStore, id: number) => s.db.select().from(products).where(eq(products.id, id)).get()!.quantity;
const notificationsOf = (s: SquareStore, userId: number, type?: string) =>
  s.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .all()
    .filter((n) => !type || n.type === type);

async function addToCart(client: TestClient, productId: number, quantity = 1) {
  const added = await client.post('/api/cart', { json: { productId, quantity } });
  expect(added.status).toBe(201);
}

const statuses = (responses: Response[]) => responses.map((r) => r.status).sort();

function fivePicks(s: SquareStore): string[] {
  return s.db
    .select({ id: influencers.id })
    .from(influencers)
    .limit(5)
    .all()
    .map((i) => String(i.id));
}

async function pick(s: SquareStore, client: TestClient, productId: number) {
  const made = await client.post('/api/plays', { json: { productId, influencerIds: fivePicks(s) } });
  expect(made.status).toBe(201);
}

const pay = (client: TestClient, productId: number, headers?: Record<string, string>) =>
  client.post('/api/payments', { json: { productId, amount: 1, type: 'play' }, headers });

/** Two players enter the $2 book's game; the hour passes and the game settles. Returns the winner. */
async function wonPrize(s: SquareStore) {
  const product = book(s);
  const a = await s.shopper('player-a');
  const b = await s.shopper('player-b');
  for (const p of [a, b]) {
    await pick(s, p.client, product.id);
    expect((await pay(p.client, product.id)).status).toBe(201);
  }
  s.clock.advance(2 * 60 * MINUTE);
  await s.tick();
  const game = s.db.select().from(games).where(eq(games.productId, product.id)).get()!;
  expect(game.status).toBe('completed');
  const winner = [a, b].find((p) =>
    s.db
      .select()
      .from(cartItems)
      .where(and(eq(cartItems.userId, p.id), eq(cartItems.type, 'play')))
      .get(),
  )!;
  return { product, game, winner };
}

const adminClient = (s: SquareStore) => s.admin();

describe('one payment attempt at a time, against Square with 400 ms of latency', () => {
  test('5 concurrent checkouts of one cart: one order, one charge; the others 409 "A checkout is already in progress."', async () => {
    const s = await open();
    const { client, id } = await s.shopper('racer');
    const product = aviator(s);
    await addToCart(client, product.id);
    const body = await cardCheckoutBody(client);
    s.fake.setLatency(LATENCY, PAYMENTS_PATH);
    const answers = await Promise.all(Array.from({ length: 5 }, () => client.post('/api/checkout', { json: body })));
    expect(statuses(answers)).toEqual([201, 409, 409, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) expect((await answer.json()).message).toBe('A checkout is already in progress.');
    expect(completed(s)).toHaveLength(1);
    expect(
      s.db
        .select()
        .from(orders)
        .all()
        .map((o) => o.status),
    ).toEqual(['processing']);
    expect(stockOf(s, product.id)).toBe(product.quantity - 1);
    expect(s.db.select().from(cartItems).where(eq(cartItems.userId, id)).all()).toHaveLength(0);
    expect(notificationsOf(s, id, 'payment_success')).toHaveLength(1);
  });

  test('3 concurrent buy-nows of one product: one charge', async () => {
    const s = await open();
    const { client } = await s.shopper('triple');
    const product = aviator(s);
    s.fake.setLatency(LATENCY, PAYMENTS_PATH);
    const answers = await Promise.all(Array.from({ length: 3 }, () => client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) })));
    expect(statuses(answers)).toEqual([201, 409, 409]);
    expect(completed(s)).toHaveLength(1);
    expect(stockOf(s, product.id)).toBe(product.quantity - 1);
  });

  test('a won prize bought 4 times at once and donated at the same time: exactly one of them happens', async () => {
    const s = await open();
    const { game, winner } = await wonPrize(s);
    const prizeTotal = totalsFor([{ priceCents: 100, quantity: 1 }], 0).totalCents;
    const body = await cardCheckoutBody(winner.client);
    s.fake.setLatency(LATENCY, PAYMENTS_PATH);
    const buys = Array.from({ length: 4 }, () => winner.client.post('/api/checkout', { json: body }));
    const donation = winner.client.post(`/api/games/${game.id}/donate`, { json: {} });
    const [donated, ...bought] = await Promise.all([donation, ...buys]);
    const paidPrizeOrders = s.db
      .select()
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .where(and(eq(orderItems.purchaseType, 'play'), eq(orders.status, 'processing')))
      .all();
    const happened = paidPrizeOrders.length + (donated!.status === 200 ? 1 : 0);
    expect(happened).toBe(1);
    expect(bought.filter((r) => r.status === 201).length).toBe(paidPrizeOrders.length);
    expect(completed(s).filter((p) => p.amount_money.amount === prizeTotal)).toHaveLength(paidPrizeOrders.length);
    const outcome = s.db.select().from(games).where(eq(games.id, game.id)).get()!.prizeOutcome;
    expect(outcome).toBe(paidPrizeOrders.length === 1 ? 'bought' : 'donated');
    // And afterwards neither can happen again.
    expect((await winner.client.post(`/api/games/${game.id}/donate`, { json: {} })).status).toBe(409);
  });

  test('donating a prize while its purchase is being charged is refused; the purchase goes through once', async () => {
    const s = await open();
    const { game, winner } = await wonPrize(s);
    const body = await cardCheckoutBody(winner.client);
    s.fake.setLatency(LATENCY, PAYMENTS_PATH);
    const buying = winner.client.post('/api/checkout', { json: body });
    await s.fake.waitForRequest(PAYMENTS_PATH, { count: 3 });
    const donation = await winner.client.post(`/api/games/${game.id}/donate`, { json: {} });
    expect(donation.status).toBe(409);
    expect((await donation.json()).message).toBe('A checkout is already in progress.');
    expect((await buying).status).toBe(201);
    expect(s.db.select().from(games).where(eq(games.id, game.id)).get()!.prizeOutcome).toBe('bought');
    const again = await winner.client.post(`/api/games/${game.id}/donate`, { json: {} });
    expect(again.status).toBe(409);
  });

  test('re-picking influencers while the $1 hold is in flight is refused: one hold', async () => {
    const s = await open();
    const { client } = await s.shopper('repicker');
    const product = book(s);
    await pick(s, client, product.id);
    s.fake.setLatency(LATENCY, PAYMENTS_PATH);
    const paying = pay(client, product.id);
    await s.fake.waitForRequest(PAYMENTS_PATH);
    const repick = await client.post('/api/plays', { json: { productId: product.id, influencerIds: fivePicks(s).reverse() } });
    expect(repick.status).toBe(409);
    expect((await paying).status).toBe(201);
    expect(approved(s)).toHaveLength(1);
  });

  test('50 concurrent payments for one play: one hold and one "Payment Successful"', async () => {
    const s = await open();
    const { client, id } = await s.shopper('fifty');
    const product = book(s);
    await pick(s, client, product.id);
    s.fake.setLatency(LATENCY, PAYMENTS_PATH);
    const answers = await Promise.all(Array.from({ length: 50 }, () => pay(client, product.id)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    // The others meet the entry's lock (409) or, past the card-attempt limit, find no slot (429).
    expect(answers.filter((a) => a.status === 409 || a.status === 429)).toHaveLength(49);
    expect(approved(s)).toHaveLength(1);
    expect(notificationsOf(s, id, 'payment_success')).toHaveLength(1);
  });
});

describe('Idempotency-Key', () => {
  test('the same key twice at once and once later: one charge, the same answer three times', async () => {
    const s = await open();
    const { client } = await s.shopper('keyed');
    const product = aviator(s);
    await addToCart(client, product.id);
    const body = await cardCheckoutBody(client);
    s.fake.setLatency(LATENCY, PAYMENTS_PATH);
    const headers = { 'idempotency-key': 'checkout-7f3a' };
    const [first, second] = await Promise.all([client.post('/api/checkout', { json: body, headers }), client.post('/api/checkout', { json: body, headers })]);
    const third = await client.post('/api/checkout', { json: body, headers });
    const answers = [first!, second!, third];
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    const ids = await Promise.all(answers.map(async (a) => (await a.json()).orderId));
    expect(new Set(ids).size).toBe(1);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(completed(s)).toHaveLength(1);
  });

  test('the same key with another body is refused (422) and does nothing', async () => {
    const s = await open();
    const { client } = await s.shopper('keyed2');
    const product = aviator(s);
    const headers = { 'idempotency-key': 'buy-1' };
    expect((await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents), headers })).status).toBe(201);
    const other = await client.post('/api/orders', { json: { ...buyNowBody(product.id, product.priceCents), quantity: 1, note: 'x' }, headers });
    expect(other.status).toBe(422);
    expect(completed(s)).toHaveLength(1);
  });

  test('a key on /api/payments replays the entry', async () => {
    const s = await open();
    const { client } = await s.shopper('keyed3');
    const product = book(s);
    await pick(s, client, product.id);
    const headers = { 'idempotency-key': 'entry-1' };
    const first = await pay(client, product.id, headers);
    const again = await pay(client, product.id, headers);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(await again.json()).toEqual(await first.json());
    expect(approved(s)).toHaveLength(1);
  });
});

describe('an unknown outcome is never a failure', () => {
  test('Square answers 500 after taking the money: the order is paid, once', async () => {
    const s = await open();
    const { client, id } = await s.shopper('lost-answer');
    const product = aviator(s);
    s.fake.failNext({ status: 500, afterProcessing: true }, PAYMENTS_PATH);
    const answer = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
    expect(answer.status).toBe(201);
    expect(completed(s)).toHaveLength(1);
    const order = s.db.select().from(orders).get()!;
    expect(order.status).toBe('processing');
    expect(order.paymentId).toBe(completed(s)[0].id);
    expect(notificationsOf(s, id, 'payment_failed')).toHaveLength(0);
  });

  test('the connection drops after Square took the money: the order is paid, once', async () => {
    const s = await open();
    const { client } = await s.shopper('dropped');
    const product = aviator(s);
    s.fake.failNext({ drop: true, afterProcessing: true }, PAYMENTS_PATH);
    const answer = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
    expect(answer.status).toBe(201);
    expect(completed(s)).toHaveLength(1);
  });

  test('Square never answers (timeout) but took the money: the order is paid, once', async () => {
    // The store gives up on Square after a second here (2 s elsewhere in these tests).
    const s = await open({ timeoutSeconds: 1 });
    const { client } = await s.shopper('hung');
    const product = aviator(s);
    s.fake.failNext({ hang: true, afterProcessing: true }, PAYMENTS_PATH);
    const answer = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
    expect(answer.status).toBe(201);
    expect(completed(s)).toHaveLength(1);
  });

  test('a 500 before Square processed anything: on hold (502), locked, then failed by the reconciler; the next try pays once', async () => {
    const s = await open();
    const { client, id } = await s.shopper('unsure');
    const product = aviator(s);
    await addToCart(client, product.id);
    const body = await cardCheckoutBody(client);
    s.fake.failNext({ status: 500 }, PAYMENTS_PATH);
    const answer = await client.post('/api/checkout', { json: body });
    expect(answer.status).toBe(502);
    expect((await answer.json()).code).toBe('PAYMENT_UNCONFIRMED');
    const order = s.db.select().from(orders).get()!;
    expect(order.status).toBe('pending');
    expect(stockOf(s, product.id)).toBe(product.quantity - 1);
    // A retry while the outcome is unknown is refused: it could pay twice.
    const retry = await client.post('/api/checkout', { json: body });
    expect(retry.status).toBe(409);
    // Still too early to call it "never taken".
    await s.tick();
    expect(s.db.select().from(orders).get()!.status).toBe('pending');
    s.clock.advance(3 * MINUTE);
    await s.tick();
    expect(s.db.select().from(orders).get()!.status).toBe('failed');
    expect(stockOf(s, product.id)).toBe(product.quantity);
    expect(notificationsOf(s, id, 'payment_failed')).toHaveLength(1);
    expect(s.db.select().from(cartItems).where(eq(cartItems.userId, id)).all()).toHaveLength(1);
    const again = await client.post('/api/checkout', { json: body });
    expect(again.status).toBe(201);
    expect(completed(s)).toHaveLength(1);
  });

  test('a 500 before processing of a $1 hold: the play is held "authorizing", re-picks refused, then released', async () => {
    const s = await open();
    const { client, id } = await s.shopper('unsure-player');
    const product = book(s);
    await pick(s, client, product.id);
    s.fake.failNext({ status: 503 }, PAYMENTS_PATH);
    const answer = await pay(client, product.id);
    expect(answer.status).toBe(502);
    expect((await client.post('/api/plays', { json: { productId: product.id, influencerIds: fivePicks(s) } })).status).toBe(409);
    s.clock.advance(3 * MINUTE);
    await s.tick();
    expect(s.db.select().from(payments).get()!.status).toBe('failed');
    expect(notificationsOf(s, id, 'payment_failed')).toHaveLength(1);
    await pick(s, client, product.id);
    expect((await pay(client, product.id)).status).toBe(201);
    expect(approved(s)).toHaveLength(1);
  });

  test('a declined card is a failure at once: 402, order failed, stock back', async () => {
    const s = await open();
    const { client } = await s.shopper('declined', 'cnon:card-nonce-ok');
    const product = aviator(s);
    const declined = { ...buyNowBody(product.id, product.priceCents), paymentToken: 'cnon:card-nonce-declined' };
    const answer = await client.post('/api/orders', { json: declined });
    expect(answer.status).toBe(402);
    expect(s.db.select().from(orders).get()!.status).toBe('failed');
    expect(stockOf(s, product.id)).toBe(product.quantity);
  });
});

describe('holds and refunds that the gateway does not move at once', () => {
  test('a capture that fails before processing stays "capturing" and is captured by the reconciler', async () => {
    const s = await open();
    const product = book(s);
    const players = [await s.shopper('cap-a'), await s.shopper('cap-b')];
    for (const p of players) {
      await pick(s, p.client, product.id);
      expect((await pay(p.client, product.id)).status).toBe(201);
    }
    s.clock.advance(2 * 60 * MINUTE);
    s.fake.failNext({ status: 500 }, { method: 'POST', path: /\/complete$/ });
    await s.tick();
    const rows = () => s.db.select().from(payments).all();
    expect(
      rows()
        .map((r) => r.status)
        .sort(),
    ).toEqual(['captured', 'capturing']);
    s.clock.advance(2 * MINUTE);
    await s.tick();
    expect(rows().map((r) => r.status)).toEqual(['captured', 'captured']);
    expect(completed(s)).toHaveLength(2);
  });

  test('a hold that lapsed at Square becomes "expired" with an admin alert, not retried forever', async () => {
    const s = await open();
    adminClient(s);
    const product = book(s);
    const players = [await s.shopper('exp-a'), await s.shopper('exp-b')];
    for (const p of players) {
      await pick(s, p.client, product.id);
      expect((await pay(p.client, product.id)).status).toBe(201);
    }
    // Square cancels one hold by itself (its delay ran out).
    const lapsed = approved(s)[0];
    await fetch(`${s.fake.url}/v2/payments/${lapsed.id}/cancel`, { method: 'POST', headers: { authorization: 'Bearer EAAAfake-square-sandbox-token' } });
    s.clock.advance(2 * 60 * MINUTE);
    await s.tick();
    const statusesNow = s.db
      .select()
      .from(payments)
      .all()
      .map((r) => r.status)
      .sort();
    expect(statusesNow).toEqual(['captured', 'expired']);
    const alerts = s.db.select().from(notifications).where(eq(notifications.type, 'admin_alert')).all();
    expect(alerts).toHaveLength(1);
  });

  test('a capture refused every time ends as "capture_failed" after 5 tries, with one alert', async () => {
    const s = await open();
    adminClient(s);
    const product = book(s);
    const players = [await s.shopper('cf-a'), await s.shopper('cf-b')];
    for (const p of players) {
      await pick(s, p.client, product.id);
      expect((await pay(p.client, product.id)).status).toBe(201);
    }
    s.clock.advance(2 * 60 * MINUTE);
    for (let i = 0; i < 12; i++) s.fake.failNext({ status: 400 }, { method: 'POST', path: /\/complete$/ });
    for (let i = 0; i < 8; i++) {
      await s.tick();
      s.clock.advance(20 * MINUTE);
    }
    const rows = s.db.select().from(payments).all();
    expect(rows.filter((r) => r.status === 'capture_failed').length).toBeGreaterThan(0);
    for (const row of rows.filter((r) => r.status === 'capture_failed')) expect(row.attempts).toBe(5);
    const alerts = s.db.select().from(notifications).where(eq(notifications.type, 'admin_alert')).all();
    expect(alerts.length).toBe(rows.filter((r) => r.status === 'capture_failed').length);
  });

  test('a refund whose answer is lost is retried with its key: the card is refunded once', async () => {
    const s = await open();
    const admin = adminClient(s);
    const { client, id } = await s.shopper('refundee');
    const product = aviator(s);
    const bought = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
    const orderId = (await bought.json()).id;
    s.fake.failNext({ status: 500, afterProcessing: true }, { method: 'POST', path: '/v2/refunds' });
    const cancel = await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'canceled' } });
    expect(cancel.status).toBe(200);
    expect(s.db.select().from(orders).where(eq(orders.id, orderId)).get()!.status).toBe('canceled');
    expect(s.db.select().from(payments).where(eq(payments.kind, 'refund')).get()!.status).toBe('refunding');
    s.clock.advance(2 * MINUTE);
    await s.tick();
    expect(s.db.select().from(payments).where(eq(payments.kind, 'refund')).get()!.status).toBe('refunded');
    expect(s.fake.refunds()).toHaveLength(1);
    expect(stockOf(s, product.id)).toBe(product.quantity);
    expect(notificationsOf(s, id, 'order_status')).toHaveLength(1);
  });
});
