import { expect } from 'bun:test';
import { eq } from 'drizzle-orm';
import type { Queryable } from '../../src/db/client.ts';
import { orderItems, orders, products } from '../../src/db/schema.ts';
import { buyNowBody } from './actors.ts';
import type { TestClient } from './app.ts';
import { fivePicks } from './games.ts';
import { cardCheckoutBody, type SquareStore } from './square-app.ts';
import { ledgerBySize, sizedTee } from './variants.ts';

/*
 * A sized tee (S 2, M 2, L 1) in a store on the fake Square: the buys the payment review, the
 * reconciler and the restore tests start from (issue 38 joined with issue 9's shared tools), and
 * the per-size ledger they check after every step.
 */

export const CHARGE = { method: 'POST', path: '/v2/payments' } as const;
export const LIST = { method: 'GET', path: '/v2/payments' } as const;
export const MINUTE = 60_000;
export const TEE_SIZES = [
  { size: 'S', quantity: 2 },
  { size: 'M', quantity: 2 },
  { size: 'L', quantity: 1 },
];

export type Tee = ReturnType<typeof sizedTee>;

/** The tee in the store, and a signed-in shopper with a card saved at the fake. */
export async function teeAndShopper(s: SquareStore) {
  const tee = sizedTee(s.db, TEE_SIZES, 2200, s.clock.now());
  const { client, id } = await s.shopper(`sized-${crypto.randomUUID().slice(0, 6)}`);
  return { tee, client, userId: id, before: ledgerBySize(s.db, tee.id) };
}

export const buySize = (client: TestClient, tee: Tee, size: string) =>
  client.post('/api/orders', { json: { ...buyNowBody(tee.id, tee.priceCents), variantId: tee.variant[size] } });

/** Puts one unit of each size in the cart and answers the card checkout's body for them. */
export async function cartOfSizes(client: TestClient, tee: Tee, sizes: string[]) {
  for (const size of sizes)
    expect((await client.post('/api/cart', { json: { productId: tee.id, variantId: tee.variant[size], quantity: 1 } })).status).toBe(201);
  return cardCheckoutBody(client);
}

/**
 * A $1 hold for a game of the tee in M whose answer Square lost (500, taken or not as `taken`
 * says, and the request's own lookup failing too): the play waits 'authorizing' for the review
 * or the reconciler to settle it.
 */
export async function unsureSizedEntry(s: SquareStore, taken: boolean) {
  const { tee, client, before } = await teeAndShopper(s);
  s.db.update(products).set({ playEnabled: true }).where(eq(products.id, tee.id)).run();
  const picked = await client.post('/api/plays', { json: { productId: tee.id, variantId: tee.variant.M, influencerIds: fivePicks(s.db, 0) } });
  expect(picked.status).toBe(201);
  const { gameId } = (await picked.json()) as { gameId: number };
  s.fake.failNext({ status: 500, afterProcessing: taken }, CHARGE);
  s.fake.failNext({ status: 503 }, LIST);
  const paid = await client.post('/api/payments', { json: { productId: tee.id, variantId: tee.variant.M, amount: 1, type: 'play' } });
  expect(paid.status).toBe(502);
  return { tee, before, gameId };
}

/** Each size's ledger holds (stocked = available + held + sold), and the product's count is their available sum. */
export function expectLedgerHolds(s: { db: Queryable }, productId: number): void {
  const bySize = ledgerBySize(s.db, productId);
  for (const [size, count] of Object.entries(bySize))
    expect({ size, stocked: count.available + count.held + count.sold }).toEqual({ size, stocked: count.stocked });
  const sum = Object.values(bySize).reduce((n, count) => n + count.available, 0);
  expect(s.db.select({ quantity: products.quantity }).from(products).where(eq(products.id, productId)).get()!.quantity).toBe(sum);
}

/** Each size's change from `before`, as `{ M: { available: -1, sold: +1 } }`, sizes without change left out. */
export function movedBySize(s: SquareStore, productId: number, before: ReturnType<typeof ledgerBySize>) {
  const now = ledgerBySize(s.db, productId);
  const moved: Record<string, Record<string, number>> = {};
  for (const [size, count] of Object.entries(now)) {
    const was = before[size]!;
    const delta: Record<string, number> = {};
    for (const key of ['stocked', 'available', 'held', 'sold'] as const) if (count[key] !== was[key]) delta[key] = count[key] - was[key];
    if (Object.keys(delta).length) moved[size] = delta;
  }
  return moved;
}

export const orderStatus = (s: SquareStore, orderId: number) => s.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).get()!.status;

export const sizesOfOrder = (s: SquareStore, orderId: number) =>
  s.db
    .select({ size: orderItems.sizeLabel })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .all()
    .map((line) => line.size)
    .sort();
