import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { payments, userProfiles } from '../../src/db/schema.ts';
import { createPayment } from '../../src/domain/payments/engine.ts';
import { purposeOf, registerPurpose, unregisterPurpose, type Purpose } from '../../src/domain/payments/purposes.ts';
import type { TestClient } from '../helpers/app.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';

/*
 * Issue 34, item 1: a new way to buy needs no change to the reconciler or to Needs attention. A
 * purpose registered here, by this test alone, has its rows confirmed by the reconciler, refused by
 * the admin's Mark failed, captured by the admin's Retry, and described in its own words; a kind
 * nobody registered is refused loudly.
 */

const MINUTE = 60_000;
const KIND = 'test_voucher' as never;
const seen: string[] = [];

const voucherPurpose: Purpose = {
  kind: KIND,
  onConfirmed: (_tx, _deps, row) => void seen.push(`confirmed ${row.id} ${row.status}`),
  onRefused: (_tx, _deps, row, failure) => void seen.push(`refused ${row.id} ${failure.code}`),
  onCaptured: (_tx, _deps, row) => void seen.push(`captured ${row.id}`),
  describe: (_db, row) => ({ what: `Voucher #${row.id}`, todo: 'Do what vouchers need.' }),
};

beforeAll(() => registerPurpose(voucherPurpose));
afterAll(() => unregisterPurpose(KIND));

const openStore = squareStoresOfFile();

async function attention(admin: TestClient) {
  const response = await admin.get('/api/admin/payments/attention');
  expect(response.status).toBe(200);
  return (await response.json()) as { paymentId: number; kind: string; problem: string; actions: string[]; what: string; todo: string }[];
}

const resolve = (admin: TestClient, id: number, json: unknown) => admin.post(`/api/admin/payments/${id}/resolve`, { json });

async function voucherRow(s: SquareStore, status: 'charging' | 'authorizing', key: string) {
  const { id: userId } = await s.shopper(`v-${key}`);
  return s.db.transaction((tx) => createPayment(tx, s.games, { userId, kind: KIND, status, amountCents: 700, idempotencyKey: key }));
}

const cardOf = (s: SquareStore, userId: number) => s.db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get()!;
const rowOf = (s: SquareStore, id: number) => s.db.select().from(payments).where(eq(payments.id, id)).get()!;

describe('a way to buy that only registers its purpose', () => {
  test('the reconciler confirms its charge that Square took, through its handler', async () => {
    const s = await openStore();
    const row = await voucherRow(s, 'charging', 'voucher-charge-1');
    const card = cardOf(s, row.userId);
    await s.gateway.charge({ sourceId: card.gatewayCardId!, customerId: card.gatewayCustomerId, amountCents: 700, idempotencyKey: row.idempotencyKey });
    s.clock.advance(MINUTE);
    await s.tick();
    expect(rowOf(s, row.id).status).toBe('captured');
    expect(seen).toContain(`confirmed ${row.id} captured`);
  });

  test("Needs attention lists its row in its own words; the admin's Mark failed runs its refused handler", async () => {
    const s = await openStore();
    const row = await voucherRow(s, 'authorizing', 'voucher-hold-1');
    s.clock.advance(3 * MINUTE);
    const admin = s.admin();
    const [item] = await attention(admin);
    expect(item).toMatchObject({ paymentId: row.id, kind: 'test_voucher', problem: 'unconfirmed_hold', actions: ['check', 'mark_failed'] });
    expect(item!.what).toBe(`Voucher #${row.id}`);
    expect(item!.todo).toBe('Do what vouchers need.');
    expect((await resolve(admin, row.id, { action: 'mark_failed' })).status).toBe(200);
    expect(rowOf(s, row.id).status).toBe('failed');
    expect(seen).toContain(`refused ${row.id} CANCELED_BY_ADMIN`);
  });

  test("the admin's Retry of a capture that gave up captures it, through its handler", async () => {
    const s = await openStore();
    const row = await voucherRow(s, 'authorizing', 'voucher-hold-2');
    const card = cardOf(s, row.userId);
    const held = await s.gateway.authorize({
      sourceId: card.gatewayCardId!,
      customerId: card.gatewayCustomerId,
      amountCents: 700,
      idempotencyKey: row.idempotencyKey,
    });
    s.db.update(payments).set({ status: 'capture_failed', gatewayPaymentId: held.id, attempts: 5 }).where(eq(payments.id, row.id)).run();
    const admin = s.admin();
    const [item] = await attention(admin);
    // By default a failed capture may be retried or dismissed; voiding it is a purpose's choice.
    expect(item).toMatchObject({ problem: 'capture_failed', actions: ['retry', 'dismiss'] });
    expect((await resolve(admin, row.id, { action: 'retry' })).status).toBe(200);
    expect(rowOf(s, row.id).status).toBe('captured');
    expect(seen).toContain(`captured ${row.id}`);
  });
});

describe('a kind nobody registered', () => {
  test('the engine refuses it with a clear error instead of skipping it', async () => {
    expect(() => purposeOf('lottery_ticket')).toThrow("No payment purpose is registered for payments of kind 'lottery_ticket'");
    const s = await openStore();
    const { id: userId } = await s.shopper('nobody');
    expect(() =>
      s.db.transaction((tx) =>
        createPayment(tx, s.games, { userId, kind: 'lottery_ticket' as never, status: 'charging', amountCents: 100, idempotencyKey: 'k-1' }),
      ),
    ).toThrow('src/flows/payment-purposes.ts');
    expect(s.db.select().from(payments).all()).toEqual([]);
  });
});
