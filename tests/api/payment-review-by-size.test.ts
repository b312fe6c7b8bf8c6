import { describe, expect, test } from 'bun:test';
import { desc, eq } from 'drizzle-orm';
import { games, orders, plays } from '../../src/db/schema.ts';
import type { TestClient } from '../helpers/app.ts';
import { type BoxView, sizedBoxOf } from '../helpers/boxes.ts';
import { all, textOf } from '../helpers/html.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';
import {
  buySize,
  CHARGE,
  cartOfSizes,
  expectLedgerHolds,
  LIST,
  MINUTE,
  movedBySize,
  orderStatus,
  sizesOfOrder,
  teeAndShopper,
  unsureSizedEntry,
} from '../helpers/sized-square.ts';
import { joinTeam, startTeam, teamOrders, teamProduct, teamRows } from '../helpers/teams.ts';
import { ledgerBySize, withSizes } from '../helpers/variants.ts';

/*
 * Needs attention (issue 9) on a SIZED order (issue 38): every action the review offers for an
 * order's card charge (check, mark paid, mark failed) and for its refund (check) moves the unit of
 * the size that was bought, never another size's, and keeps each size's ledger whole. The admin's
 * order lines name the size while the payment waits.
 */

const open = squareStoresOfFile();

type Item = { paymentId: number; orderId: number | null; problem: string; actions: string[]; gateway: { status: string; gatewayPaymentId: string | null } };

async function attention(admin: TestClient): Promise<Item[]> {
  const response = await admin.get('/api/admin/payments/attention');
  expect(response.status).toBe(200);
  return response.json();
}

const resolve = (admin: TestClient, id: number, json: unknown) => admin.post(`/api/admin/payments/${id}/resolve`, { json });
const lastOrderId = (s: SquareStore) => s.db.select({ id: orders.id }).from(orders).orderBy(desc(orders.id)).get()!.id;

/** What the admin reads of the order's lines: the JSON list's sizes and the Orders tab's lines. */
async function adminSeesSizes(admin: TestClient, orderId: number) {
  const list = (await (await admin.get('/api/admin/orders')).json()) as { id: number; items: { size: string }[] }[];
  const json = list
    .find((order) => order.id === orderId)!
    .items.map((item) => item.size)
    .sort();
  const html = await (await admin.get('/admin?tab=orders')).text();
  const lines = all(html, `[aria-label="Items of order #${orderId}"] li`).map((li) => textOf(li));
  return { json, lines };
}

/** A sized buy (buy now of M, or a cart of M and S) whose charge Square answered 500, three minutes on, Square's lookups failing once. */
async function unsure(kind: 'buy-now' | 'cart', taken: boolean) {
  const s = await open();
  const { tee, client, before } = await teeAndShopper(s);
  const body = kind === 'cart' ? await cartOfSizes(client, tee, ['M', 'S']) : null;
  s.fake.failNext({ status: 500, afterProcessing: taken }, CHARGE);
  s.fake.failNext({ status: 503 }, LIST);
  const answer = body ? await client.post('/api/checkout', { json: body }) : await buySize(client, tee, 'M');
  expect(answer.status).toBe(502);
  const orderId = lastOrderId(s);
  expect(orderStatus(s, orderId)).toBe('pending');
  s.clock.advance(3 * MINUTE);
  const held: Record<string, Record<string, number>> = kind === 'cart'
    ? { M: { available: -1, held: 1 }, S: { available: -1, held: 1 } }
    : { M: { available: -1, held: 1 } };
  expect(movedBySize(s, tee.id, before)).toEqual(held);
  expectLedgerHolds(s, tee.id);
  return { s, tee, before, orderId, client, admin: s.admin() };
}

describe.concurrent('Needs attention on a sized order', () => {
  test('buy now of M never taken: the admin sees Size M on its line; Mark failed gives back that M only', async () => {
    const { s, tee, before, orderId, admin } = await unsure('buy-now', false);
    const [item] = await attention(admin);
    expect(item).toMatchObject({ orderId, problem: 'unconfirmed_charge', actions: ['check', 'mark_paid', 'mark_failed'], gateway: { status: 'NOT_FOUND' } });
    const seen = await adminSeesSizes(admin, orderId);
    expect(seen.json).toEqual(['M']);
    expect(seen.lines).toHaveLength(1);
    expect(seen.lines[0]).toContain('· Size M');
    expect((await resolve(admin, item!.paymentId, { action: 'mark_failed' })).status).toBe(200);
    expect(orderStatus(s, orderId)).toBe('failed');
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
    expectLedgerHolds(s, tee.id);
    expect(await attention(admin)).toEqual([]);
  });

  test('buy now of M that Square took: Mark paid with its id sells that M; S and L untouched', async () => {
    const { s, tee, before, orderId, admin } = await unsure('buy-now', true);
    const [item] = await attention(admin);
    expect(item!.gateway.status).toBe('COMPLETED');
    expect((await resolve(admin, item!.paymentId, { action: 'mark_failed' })).status).toBe(409);
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, held: 1 } });
    const paid = await resolve(admin, item!.paymentId, { action: 'mark_paid', gatewayPaymentId: item!.gateway.gatewayPaymentId });
    expect(paid.status).toBe(200);
    expect(orderStatus(s, orderId)).toBe('processing');
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, sold: 1 } });
    expectLedgerHolds(s, tee.id);
    expect(sizesOfOrder(s, orderId)).toEqual(['M']);
  });

  test('buy now of M that Square took: Check with Square sells that M once; a second check changes nothing', async () => {
    const { s, tee, before, orderId, admin } = await unsure('buy-now', true);
    const [item] = await attention(admin);
    expect((await resolve(admin, item!.paymentId, { action: 'check' })).status).toBe(200);
    expect(orderStatus(s, orderId)).toBe('processing');
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, sold: 1 } });
    expect((await resolve(admin, item!.paymentId, { action: 'check' })).status).toBe(409);
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, sold: 1 } });
    expectLedgerHolds(s, tee.id);
  });

  test('cart of M and S never taken: both lines named; Mark failed gives back one M and one S, L untouched', async () => {
    const { s, tee, before, orderId, admin } = await unsure('cart', false);
    const [item] = await attention(admin);
    expect(item).toMatchObject({ orderId, problem: 'unconfirmed_charge' });
    const seen = await adminSeesSizes(admin, orderId);
    expect(seen.json).toEqual(['M', 'S']);
    expect(seen.lines.filter((line) => line.includes('· Size M'))).toHaveLength(1);
    expect(seen.lines.filter((line) => line.includes('· Size S'))).toHaveLength(1);
    expect((await resolve(admin, item!.paymentId, { action: 'mark_failed' })).status).toBe(200);
    expect(orderStatus(s, orderId)).toBe('failed');
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
    expectLedgerHolds(s, tee.id);
  });

  test('cart of M and S that Square took: Mark paid sells one M and one S; the cart is emptied', async () => {
    const { s, tee, before, orderId, admin, client } = await unsure('cart', true);
    const [item] = await attention(admin);
    expect(await (await client.get('/api/cart')).json()).toHaveLength(2);
    const paid = await resolve(admin, item!.paymentId, { action: 'mark_paid', gatewayPaymentId: item!.gateway.gatewayPaymentId });
    expect(paid.status).toBe(200);
    expect(orderStatus(s, orderId)).toBe('processing');
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, sold: 1 }, S: { available: -1, sold: 1 } });
    expectLedgerHolds(s, tee.id);
    expect((await adminSeesSizes(admin, orderId)).json).toEqual(['M', 'S']);
    expect(await (await client.get('/api/cart')).json()).toEqual([]);
  });

  test("a paid M canceled while Square's refund answer is lost: Check with Square refunds it and that M is back on the shelf", async () => {
    const s = await open();
    const { tee, client, before } = await teeAndShopper(s);
    expect((await buySize(client, tee, 'M')).status).toBe(201);
    const orderId = lastOrderId(s);
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, sold: 1 } });
    const admin = s.admin();
    s.fake.failNext({ status: 500 }, { method: 'POST', path: '/v2/refunds' });
    const canceled = await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'canceled' } });
    expect(canceled.status).toBe(200);
    expect((await canceled.json()).message).toContain('did not confirm the refund yet');
    // Still sold while the refund is unconfirmed: the unit leaves the customer only once the money is back.
    expect(movedBySize(s, tee.id, before)).toEqual({ M: { available: -1, sold: 1 } });
    const [item] = await attention(admin);
    expect(item).toMatchObject({ orderId, problem: 'unconfirmed_refund', actions: ['check'] });
    expect((await adminSeesSizes(admin, orderId)).json).toEqual(['M']);
    expect((await resolve(admin, item!.paymentId, { action: 'check' })).status).toBe(200);
    expect(orderStatus(s, orderId)).toBe('canceled');
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
    expectLedgerHolds(s, tee.id);
  });
});

/** A half-price product in M (3) and L (2), on the fake Square. */
function sizedTeamProduct(s: SquareStore) {
  const productId = teamProduct(s, 5);
  const sizes = withSizes(s.db, productId, [
    { size: 'M', quantity: 3 },
    { size: 'L', quantity: 2 },
  ]);
  return { productId, M: sizes.M!, before: ledgerBySize(s.db, productId) };
}

describe.concurrent('Needs attention on the refund of a sized cart', () => {
  test('Square refused the refund of a paid M and S: the order is processing again, both still sold; dismissed, nothing moves; canceled again, both come back', async () => {
    const s = await open();
    const { tee, client, before } = await teeAndShopper(s);
    expect((await client.post('/api/checkout', { json: await cartOfSizes(client, tee, ['M', 'S']) })).status).toBe(201);
    const orderId = lastOrderId(s);
    const sold = { M: { available: -1, sold: 1 }, S: { available: -1, sold: 1 } };
    expect(movedBySize(s, tee.id, before)).toEqual(sold);
    const admin = s.admin();
    s.fake.failNext({ status: 400 }, { method: 'POST', path: '/v2/refunds' });
    // A refused refund answers 502 with Square's reason (admin-orders.ts).
    expect((await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'canceled' } })).status).toBe(502);
    expect(orderStatus(s, orderId)).toBe('processing');
    expect(movedBySize(s, tee.id, before)).toEqual(sold);
    const [item] = await attention(admin);
    expect(item).toMatchObject({ orderId, problem: 'refund_refused', actions: ['dismiss'] });
    expect((await adminSeesSizes(admin, orderId)).json).toEqual(['M', 'S']);
    expect((await resolve(admin, item!.paymentId, { action: 'dismiss' })).status).toBe(200);
    expect(await attention(admin)).toEqual([]);
    expect(movedBySize(s, tee.id, before)).toEqual(sold);
    expectLedgerHolds(s, tee.id);
    expect((await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'canceled' } })).status).toBe(200);
    expect(orderStatus(s, orderId)).toBe('canceled');
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
    expectLedgerHolds(s, tee.id);
  });
});

describe.concurrent('Needs attention on a team buy for one size', () => {
  test("a team for M whose starter's hold Square never took: Mark failed gives the M place back and cancels the team", async () => {
    const s = await open();
    const { productId, M, before } = sizedTeamProduct(s);
    const { client } = await s.shopper('starter');
    s.fake.failNext({ status: 500 }, CHARGE);
    s.fake.failNext({ status: 503 }, LIST);
    expect((await startTeam(client, productId, { variantId: M })).status).toBe(502);
    expect(movedBySize(s, productId, before)).toEqual({ M: { available: -1, held: 1 } });
    s.clock.advance(3 * MINUTE);
    const admin = s.admin();
    const [item] = await attention(admin);
    expect(item).toMatchObject({ problem: 'unconfirmed_hold', actions: ['check', 'mark_failed'] });
    expect((await resolve(admin, item!.paymentId, { action: 'mark_failed' })).status).toBe(200);
    expect(teamRows(s)[0]!.status).toBe('cancelled');
    expect(ledgerBySize(s.db, productId)).toEqual(before);
    expectLedgerHolds(s, productId);
  });

  test('a full team for M whose captures gave up: Retry sells one M with its order line in M; Mark failed on the other gives its M back', async () => {
    const s = await open();
    const { productId, M, before } = sizedTeamProduct(s);
    const alice = await s.shopper('alice');
    const bob = await s.shopper('bob');
    const started = await startTeam(alice.client, productId, { variantId: M });
    expect(started.status).toBe(201);
    for (let i = 0; i < 20; i++) s.fake.failNext({ status: 400 }, { method: 'POST', path: /\/complete$/ });
    expect((await joinTeam(bob.client, ((await started.json()) as { code: string }).code)).status).toBe(201);
    for (let i = 0; i < 8; i++) {
      s.clock.advance(30 * MINUTE);
      await s.tick();
    }
    s.fake.reset();
    expect(movedBySize(s, productId, before)).toEqual({ M: { available: -2, held: 2 } });
    const admin = s.admin();
    const items = await attention(admin);
    expect(items.map((item) => [item.problem, item.actions])).toEqual([
      ['capture_failed', ['retry', 'mark_failed']],
      ['capture_failed', ['retry', 'mark_failed']],
    ]);
    expect((await resolve(admin, items[0]!.paymentId, { action: 'retry' })).status).toBe(200);
    expect(movedBySize(s, productId, before)).toEqual({ M: { available: -2, held: 2 } });
    expect((await resolve(admin, items[1]!.paymentId, { action: 'mark_failed' })).status).toBe(200);
    await s.tick();
    expect(teamRows(s)[0]!.status).toBe('filled');
    expect(movedBySize(s, productId, before)).toEqual({ M: { available: -1, sold: 1 } });
    expectLedgerHolds(s, productId);
    const [order] = teamOrders(s);
    expect(order!.item).toMatchObject({ variantId: M, sizeLabel: 'M' });
    expect((await adminSeesSizes(admin, order!.order.id)).json).toEqual(['M']);
  });
});

describe.concurrent('Needs attention on a $1 entry for one size', () => {
  /** A $1 hold for a game of the tee in M whose answer Square lost, three minutes on. */
  async function unsureEntry(taken: boolean) {
    const s = await open();
    const { tee, before, gameId } = await unsureSizedEntry(s, taken);
    s.clock.advance(3 * MINUTE);
    return { s, tee, before, gameId, admin: s.admin() };
  }
  const playStatus = (s: SquareStore) => s.db.select({ status: plays.status, gameId: plays.gameId }).from(plays).get()!;

  test('never taken: Mark failed voids the entry; no size moved', async () => {
    const { s, tee, before, admin } = await unsureEntry(false);
    const [item] = await attention(admin);
    expect(item).toMatchObject({ problem: 'unconfirmed_hold', actions: ['check', 'mark_failed'] });
    expect((await resolve(admin, item!.paymentId, { action: 'mark_failed' })).status).toBe(200);
    expect(playStatus(s).status).toBe('void');
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
  });

  test("taken: Check with Square enters the M game; the shelf waits for the game's start", async () => {
    const { s, tee, before, gameId, admin } = await unsureEntry(true);
    const [item] = await attention(admin);
    expect((await resolve(admin, item!.paymentId, { action: 'check' })).status).toBe(200);
    expect(playStatus(s)).toEqual({ status: 'entered', gameId });
    expect(s.db.select({ variantId: games.variantId }).from(games).where(eq(games.id, gameId)).get()!.variantId).toBe(tee.variant.M!);
    expect(ledgerBySize(s.db, tee.id)).toEqual(before);
  });
});

describe.concurrent('Needs attention on a mystery box bought in M', () => {
  /** Two tees in the tee box: S 1 / M 2, and M 1 / L 1; a box in M whose charge answer Square lost. */
  async function unsureBox(taken: boolean) {
    const s = await open();
    const set = sizedBoxOf(s, 'tshirt', [
      [
        ['S', 1],
        ['M', 2],
      ],
      [
        ['M', 1],
        ['L', 1],
      ],
    ]);
    const ids = set.products.map((product) => product.id);
    const before = ids.map((id) => ledgerBySize(s.db, id));
    const { client } = await s.shopper(`boxer-${crypto.randomUUID().slice(0, 6)}`);
    const seen = ((await (await client.get('/api/mystery-boxes')).json()) as BoxView[]).find((box) => box.type === 'tshirt')!;
    s.fake.failNext({ status: 500, afterProcessing: taken }, CHARGE);
    s.fake.failNext({ status: 503 }, LIST);
    const answer = await client.post('/api/mystery-boxes/tshirt/orders', {
      json: { size: 'M', seedHash: seen.seedHash, price: seen.price },
      headers: { 'idempotency-key': crypto.randomUUID() },
    });
    expect(answer.status).toBe(502);
    s.clock.advance(3 * MINUTE);
    const orderId = lastOrderId(s);
    const moved = () => ids.map((id, i) => movedBySize(s, id, before[i]!));
    // One M unit of one of the two tees is held for the box; nothing else moved.
    expect(moved().flatMap((bySize) => Object.entries(bySize))).toEqual([['M', { available: -1, held: 1 }]]);
    return { s, ids, before, orderId, moved, admin: s.admin() };
  }

  test('never taken: the admin sees the drawn tee in Size M; Mark failed puts that M back', async () => {
    const { s, ids, before, orderId, admin } = await unsureBox(false);
    expect(sizesOfOrder(s, orderId)).toEqual(['M']);
    const seen = await adminSeesSizes(admin, orderId);
    expect(seen.json).toEqual(['M']);
    expect(seen.lines[0]).toContain('· Size M');
    const [item] = await attention(admin);
    expect(item).toMatchObject({ orderId, problem: 'unconfirmed_charge' });
    expect((await resolve(admin, item!.paymentId, { action: 'mark_failed' })).status).toBe(200);
    expect(ids.map((id) => ledgerBySize(s.db, id))).toEqual(before);
    for (const id of ids) expectLedgerHolds(s, id);
  });

  test('taken: Mark paid sells that one M', async () => {
    const { s, ids, orderId, moved, admin } = await unsureBox(true);
    const [item] = await attention(admin);
    expect((await resolve(admin, item!.paymentId, { action: 'mark_paid', gatewayPaymentId: item!.gateway.gatewayPaymentId })).status).toBe(200);
    expect(orderStatus(s, orderId)).toBe('processing');
    expect(moved().flatMap((bySize) => Object.entries(bySize))).toEqual([['M', { available: -1, sold: 1 }]]);
    for (const id of ids) expectLedgerHolds(s, id);
  });
});
