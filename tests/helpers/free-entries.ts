import { expect } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { freeEntries, products } from '../../src/db/schema.ts';
import type { TestClient } from './app.ts';
import { buyNowBody } from './actors.ts';
import { customer } from './checkout.ts';

/* Buy one, play free (issue 29): flagging a product, buying it, and reading the entries it gave. */

export function flagFree(db: Db, productId: number, on = true): void {
  db.update(products).set({ buyOnePlayFreeEnabled: on }).where(eq(products.id, productId)).run();
}

export const entryRows = (db: Db, userId?: number) =>
  db
    .select()
    .from(freeEntries)
    .where(userId === undefined ? undefined : eq(freeEntries.userId, userId))
    .orderBy(asc(freeEntries.id))
    .all();

/** Buys one unit now with the card on file (POST /api/orders); the order id. */
export async function buyOne(client: TestClient, product: { id: number; priceCents: number }): Promise<number> {
  const response = await client.post('/api/orders', { json: buyNowBody(product.id, product.priceCents) });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { id?: number; orderId?: number };
  return (body.id ?? body.orderId)!;
}

/** Puts `quantity` of a product in the cart and pays by card (or cash): the order id. */
export async function buyInCart(client: TestClient, productId: number, quantity: number, paymentMethod: 'square' | 'cod' = 'square'): Promise<number> {
  expect((await client.post('/api/cart', { json: { productId, quantity } })).status).toBe(201);
  const cart = (await (await client.get('/api/cart')).json()) as { id: number; productId: number; quantity: number; price: number; type: string }[];
  const body = (summary: unknown) => ({
    paymentMethod,
    items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
    shipping: { method: 'standard', cost: (summary as { shipping: number }).shipping },
    summary,
    customer,
  });
  // The store's own totals, as the cart page shows them after a 409.
  const probe = await client.post('/api/checkout', { json: body({ subtotal: 0, shipping: 0, tax: 0, total: 0 }) });
  expect(probe.status).toBe(409);
  const { summary } = (await probe.json()) as { summary: unknown };
  const paid = await client.post('/api/checkout', { json: body(summary) });
  expect(paid.status).toBe(201);
  return ((await paid.json()) as { orderId: number }).orderId;
}

export async function myEntries(client: TestClient) {
  const response = await client.get('/api/user/free-entries');
  expect(response.status).toBe(200);
  return (await response.json()) as { available: number; entries: { id: number; status: string; orderId: number; expiresAt: number; gameId: number | null }[] };
}

export const joinFree = (client: TestClient, productId: number, extra: Record<string, unknown> = {}) =>
  client.post('/api/payments', { json: { productId, type: 'play', useFreeEntry: true, ...extra } });
