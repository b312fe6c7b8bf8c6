import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { orderItems, orders, products, userProfiles } from '../../src/db/schema.ts';
import { boxSeedHash } from '../../src/domain/promotions/mystery-draw.ts';
import { orderDrawView } from '../../src/domain/promotions/mystery-audit.ts';
import { adminWithoutPin, adminWithPin, COMPLETE_PROFILE, completeProfile, quickShopper, signedInUser } from '../helpers/actors.ts';
import { seededApp, type TestApp } from '../helpers/app.ts';
import { text } from '../helpers/html.ts';
import { deliverOutbox } from '../helpers/outbox.ts';
import { type BoxView, boxOf, drawsOf, priceOf, seedsOf, stocksOf } from '../helpers/boxes.ts';

/*
 * The mystery box API (issue 29, item 2): the list with exact odds and the commitment, the
 * admin's price, a purchase through the order path with its draw, and every refusal changing nothing.
 */

const boxes = async (ctx: TestApp) => (await (await ctx.client().get('/api/mystery-boxes')).json()) as BoxView[];
const buy = (client: ReturnType<TestApp['client']>, json: unknown = {}, type = 'sunglasses', key = crypto.randomUUID()) =>
  client.post(`/api/mystery-boxes/${type}/orders`, { json, headers: { 'idempotency-key': key } });

/** Everything a refusal must leave as it was. */
function snapshot(ctx: TestApp, ids: number[]) {
  return {
    orders: ctx.db.select().from(orders).all().length,
    draws: drawsOf(ctx).length,
    seeds: seedsOf(ctx, 'sunglasses').map((seed) => [seed.id, seed.usedAt]),
    stock: stocksOf(ctx, ids),
    charges: ctx.gateway.payments().length,
  };
}

describe('GET /api/mystery-boxes', () => {
  test('a box appears once priced, with each item at exactly its share of the stock and a commitment', async () => {
    const ctx = await seededApp();
    const before = await boxes(ctx);
    const set = boxOf(ctx, 'book', [1, 3, 4]);
    expect(before.find((box) => box.type === 'book')).toBeUndefined();
    const [box] = (await boxes(ctx)).filter((b) => b.type === 'book');
    expect(box!.price).toBe(set.priceCents / 100);
    expect(box!.available).toBe(true);
    expect(box!.odds.map((line) => [line.productId, line.chance])).toEqual(set.products.map((p, i) => [p.id, [0.125, 0.375, 0.5][i]!]));
    expect(box!.seedHash).toBe(seedsOf(ctx, 'book')[0]!.seedHash);
  });
});

describe('the demo store', () => {
  test('offers boxes of two types, on sale, each at most its cheapest item', async () => {
    const ctx = await seededApp();
    const listed = await boxes(ctx);
    expect(listed.map((box) => box.type)).toEqual(['sunglasses', 'shoe']);
    for (const box of listed) {
      expect(box.available).toBe(true);
      // The shoe box is bought in a size (issue 38): its odds are per size, each adding up to 1.
      const odds = box.sizes.flatMap((size) => size.odds);
      expect(odds.length).toBeGreaterThanOrEqual(3);
      for (const size of box.sizes) expect(size.odds.reduce((sum, line) => sum + line.chance, 0)).toBeCloseTo(1, 12);
      const prices = ctx.db
        .select()
        .from(products)
        .all()
        .filter((p) => odds.some((line) => line.productId === p.id));
      expect(Math.min(...prices.map((p) => p.priceCents))).toBeGreaterThanOrEqual(box.price * 100);
    }
  });
});

describe('PUT /api/admin/mystery-boxes/{type}', () => {
  test('sets the price; above the cheapest item it is refused with a field message and nothing changes', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [2, 2]);
    const admin = await adminWithPin(ctx);
    const put = (type: string, json: unknown) => admin.request('PUT', `/api/admin/mystery-boxes/${type}`, { json });
    const tooHigh = await put('sunglasses', { price: set.cheapest / 100 + 0.01 });
    expect(tooHigh.status).toBe(400);
    expect((await tooHigh.json()).fields.price).toContain('at most');
    expect(priceOf(ctx, 'sunglasses')).toBe(set.priceCents);
    const ok = await put('sunglasses', { price: set.cheapest / 100 });
    expect(ok.status).toBe(200);
    expect((await ok.json()).price).toBe(set.cheapest / 100);
    // The commitment stays: setting a price draws nothing.
    expect(seedsOf(ctx, 'sunglasses')).toHaveLength(1);
    for (const [body, status] of [
      [{ price: 0 }, 400],
      [{ price: 'ten' }, 400],
      [{}, 400],
    ] as const)
      expect((await put('sunglasses', body)).status).toBe(status);
    expect((await put('hats', { price: 5 })).status).toBe(404);
    // A type with nothing flagged in stock has no box to price.
    const empty = await put('book', { price: 5 });
    expect(empty.status).toBe(409);
    expect(priceOf(ctx, 'book')).toBeUndefined();
  });

  test('only an admin past the PIN', async () => {
    const ctx = await seededApp();
    boxOf(ctx, 'sunglasses', [1]);
    const body = { json: { price: 1 } };
    expect((await ctx.client().request('PUT', '/api/admin/mystery-boxes/sunglasses', body)).status).toBe(401);
    expect((await quickShopper(ctx, 'notadmin').client.request('PUT', '/api/admin/mystery-boxes/sunglasses', body)).status).toBe(403);
    expect((await (await adminWithoutPin(ctx)).request('PUT', '/api/admin/mystery-boxes/sunglasses', body)).status).toBe(403);
    expect(priceOf(ctx, 'sunglasses')).not.toBe(100);
  });
});

describe('POST /api/mystery-boxes/{type}/orders', () => {
  test('charges the box price plus 8% tax once, draws a flagged unit in stock, reveals the seed whose hash was published before', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [1, 3, 4]);
    const { client, id } = quickShopper(ctx, 'boxbuyer');
    const seen = (await boxes(ctx)).find((box) => box.type === 'sunglasses')!;
    const answer = await buy(client, { seedHash: seen.seedHash, price: seen.price });
    expect(answer.status).toBe(201);
    const { orderId } = await answer.json();
    const order = ctx.db.select().from(orders).where(eq(orders.id, orderId)).get()!;
    expect(order.status).toBe('processing');
    expect(order.userId).toBe(id);
    expect(order.totalCents).toBe(set.priceCents + Math.round(set.priceCents * 0.08));
    expect(ctx.gateway.payments().map((p) => p.amountCents)).toEqual([order.totalCents]);
    const line = ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).get()!;
    expect(line.purchaseType).toBe('mystery_box');
    const drawn = set.products.find((p) => p.id === line.productId)!;
    expect(drawn).toBeDefined();
    expect(stocksOf(ctx, [drawn.id])).toEqual([drawn.quantity - 1]);
    // The hash seen before buying is the hash of the seed revealed for this order.
    const view = orderDrawView(ctx.db, orderId)!;
    expect(boxSeedHash(view.seed!)).toBe(seen.seedHash);
    expect(view.productId).toBe(drawn.id);
    // The seed drew once: the box now shows the next commitment.
    const after = (await boxes(ctx)).find((box) => box.type === 'sunglasses')!;
    expect(after.seedHash).not.toBe(seen.seedHash);
    // The order page shows the drawn item, the seed and the steps worked out (tests/api/mystery-draw-check).
    const page = await (await client.get(`/orders/${orderId}`)).text();
    expect(text(page, '[data-seed]')).toBe(view.seed!);
    expect(text(page, '[data-drawn]')).toBe(view.productLabel);
    expect(text(page, '[data-hmac]')).toBe(view.roll!.hmac);
    // The receipt names the box, the item drawn and where to check the draw.
    const [receipt] = (await deliverOutbox(ctx)).filter((mail) => mail.kind === 'order_confirmation');
    expect(receipt!.text).toContain(`${line.productLabel} (drawn for you: your order page shows the seed and how to check the draw)`);
    expect(receipt!.text).toContain(`/orders/${orderId}`);
  });

  test('the same Idempotency-Key twice: one order, one charge, one draw', async () => {
    const ctx = await seededApp();
    boxOf(ctx, 'sunglasses', [5]);
    const { client } = quickShopper(ctx, 'twice');
    const key = crypto.randomUUID();
    const [a, b] = await Promise.all([buy(client, {}, 'sunglasses', key), buy(client, {}, 'sunglasses', key)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await a.json()).orderId).toBe((await b.json()).orderId);
    expect(ctx.gateway.payments()).toHaveLength(1);
    expect(drawsOf(ctx)).toHaveLength(1);
  });

  test('the last unit bought by two shoppers at once is sold once; then the box is sold out (409)', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [1]);
    const one = quickShopper(ctx, 'first');
    const two = quickShopper(ctx, 'second');
    const answers = await Promise.all([buy(one.client), buy(two.client)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const refusal = await answers.find((a) => a.status === 409)!.json();
    expect(refusal.message).toContain('sold out');
    expect(stocksOf(ctx, [set.products[0]!.id])).toEqual([0]);
    expect(ctx.db.select().from(orders).all()).toHaveLength(1);
    expect(ctx.gateway.payments()).toHaveLength(1);
    expect(drawsOf(ctx)).toHaveLength(1);
    expect((await boxes(ctx)).find((box) => box.type === 'sunglasses')).toBeUndefined();
  });

  test('a declined card: 402, the unit back on the shelf; the retry draws anew with the next committed seed', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [1, 1]);
    const { client, id } = quickShopper(ctx, 'declined');
    const card = ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, id)).get()!.gatewayCardId!;
    ctx.db
      .update(userProfiles)
      .set({ gatewayCardId: card.replace('.ok.', '.declined.') })
      .where(eq(userProfiles.userId, id))
      .run();
    const declined = await buy(client);
    expect(declined.status).toBe(402);
    expect(
      stocksOf(
        ctx,
        set.products.map((p) => p.id),
      ),
    ).toEqual([1, 1]);
    expect(ctx.db.select().from(orders).get()!.status).toBe('failed');
    completeProfile(ctx, id);
    const retried = await buy(client);
    expect(retried.status).toBe(201);
    const { orderId } = await retried.json();
    const draws = drawsOf(ctx, orderId);
    expect(draws).toHaveLength(2);
    expect(draws[0]!.seedId).not.toBe(draws[1]!.seedId);
    expect(
      stocksOf(
        ctx,
        set.products.map((p) => p.id),
      ).reduce((a, b) => a + b),
    ).toBe(1);
  });
});

describe('every refusal is a 4xx that changes nothing', () => {
  test('signed out, no card, incomplete profile, outside 92651, unknown box, stale commitment or price, bad body', async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [2, 2]);
    const ids = set.products.map((p) => p.id);
    const before = snapshot(ctx, ids);
    const seen = (await boxes(ctx)).find((box) => box.type === 'sunglasses')!;
    const noCard = signedInUser(ctx, 'nocard');
    const incomplete = quickShopper(ctx, 'incomplete');
    ctx.db.update(userProfiles).set({ phone: null }).where(eq(userProfiles.userId, incomplete.id)).run();
    const away = quickShopper(ctx, 'away');
    ctx.db
      .update(userProfiles)
      .set({ address: { ...COMPLETE_PROFILE.address, postalCode: '10001' } })
      .where(eq(userProfiles.userId, away.id))
      .run();
    const good = quickShopper(ctx, 'good');

    const cases: [string, () => Promise<Response>, number, string | undefined][] = [
      ['signed out', () => buy(ctx.client()), 401, undefined],
      ['no card', () => buy(noCard.client), 402, 'PAYMENT_METHOD_REQUIRED'],
      ['incomplete profile', () => buy(incomplete.client), 403, 'PROFILE_INCOMPLETE'],
      ['outside 92651', () => buy(away.client), 400, undefined],
      ['unknown box', () => buy(good.client, {}, 'hats'), 404, undefined],
      ['no box for the type', () => buy(good.client, {}, 'book'), 409, undefined],
      ['stale commitment', () => buy(good.client, { seedHash: 'a'.repeat(64) }), 409, 'BOX_COMMITMENT_CHANGED'],
      ['stale price', () => buy(good.client, { price: seen.price + 1 }), 409, undefined],
      ['bad seedHash', () => buy(good.client, { seedHash: 'nope' }), 400, undefined],
      ['not an object', () => buy(good.client, [1]), 400, undefined],
    ];
    for (const [name, send, status, code] of cases) {
      const answer = await send();
      const body = await answer.json();
      expect([name, answer.status]).toEqual([name, status]);
      expect(typeof body.message).toBe('string');
      if (code) expect([name, body.code]).toEqual([name, code]);
      expect(snapshot(ctx, ids)).toEqual(before);
    }
  });

  test("an item's price dropping below the box's stops the box (409) until the admin prices it again", async () => {
    const ctx = await seededApp();
    const set = boxOf(ctx, 'sunglasses', [2, 2]);
    const ids = set.products.map((p) => p.id);
    ctx.db
      .update(products)
      .set({ priceCents: set.priceCents - 1 })
      .where(eq(products.id, ids[1]!))
      .run();
    const listed = (await boxes(ctx)).find((box) => box.type === 'sunglasses')!;
    expect(listed.available).toBe(false);
    const { client } = quickShopper(ctx, 'waiting');
    const before = snapshot(ctx, ids);
    const refused = await buy(client);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toContain('repriced');
    expect(snapshot(ctx, ids)).toEqual(before);
    const admin = await adminWithPin(ctx);
    expect((await admin.request('PUT', '/api/admin/mystery-boxes/sunglasses', { json: { price: (set.priceCents - 1) / 100 } })).status).toBe(200);
    expect((await buy(client)).status).toBe(201);
  });
});
