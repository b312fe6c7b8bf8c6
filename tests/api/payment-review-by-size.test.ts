import { describe, expect, test } from 'bun:test';
import { desc } from 'drizzle-orm';
import { orders } from '../../src/db/schema.ts';
import type { TestClient } from '../helpers/app.ts';
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
} from '../helpers/sized-square.ts';
import { ledgerBySize } from '../helpers/variants.ts';

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
  const held = kind === 'cart' ? { M: { available: -1, held: 1 }, S: { available: -1, held: 1 } } : { M: { available: -1, held: 1 } };
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
    expect(canceled.status).toBeLessThan(500);
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
