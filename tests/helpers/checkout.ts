import { expect } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { cartItems, notifications, orders, products } from '../../src/db/schema.ts';
import { testTokenForCard } from '../../src/shared/test-cards.ts';
import { shopper } from './actors.ts';
import { seededApp, type TestApp, type TestClient } from './app.ts';

/*
 * Buying through the API (spec section 7): a seeded store with one signed-in shopper, the
 * seeded sunglasses the tests buy, a cart filled through POST /api/cart, and the body the cart
 * page sends to POST /api/checkout.
 */

/** A seeded store and one signed-in shopper (registered, complete profile with a card). */
export async function checkoutStore() {
  const ctx = await seededApp();
  const { client, id } = await shopper(ctx);
  return { ...ctx, shopper: client, userId: id };
}
export type CheckoutStore = Awaited<ReturnType<typeof checkoutStore>>;

export function product(ctx: TestApp, brand: string, model: string) {
  const row = ctx.db
    .select()
    .from(products)
    .where(and(eq(products.brand, brand), eq(products.model, model)))
    .get();
  if (!row) throw new Error(`no seeded product ${brand} ${model}`);
  return row;
}

// Seeded (src/db/seed-products.ts): Aviator $171.00 x12, Wayfarer $163.00 x4, Oakley Radar sold out.
export const aviator = (ctx: TestApp) => product(ctx, 'Ray-Ban', 'RB3025-L0205');
export const wayfarer = (ctx: TestApp) => product(ctx, 'Ray-Ban', 'RB2140-901');
export const radar = (ctx: TestApp) => product(ctx, 'Oakley', 'OO9208-46');

export const stockOf = (ctx: TestApp, id: number) => ctx.db.select().from(products).where(eq(products.id, id)).get()!.quantity;
export const allOrders = (ctx: TestApp) => ctx.db.select().from(orders).all();
export const cartOf = (ctx: TestApp, userId: number) => ctx.db.select().from(cartItems).where(eq(cartItems.userId, userId)).all();
export const notificationsOf = (ctx: TestApp, userId: number) => ctx.db.select().from(notifications).where(eq(notifications.userId, userId)).all();

/** The delivery details the cart page's form sends. */
export const customer = {
  fullName: 'Lena Ocean',
  email: 'lena@example.com',
  phone: '949-555-0123',
  address: '123 Coast Hwy',
  city: 'Laguna Beach',
  state: 'CA',
  zipCode: '92651',
};

export async function addToCart(client: TestClient, productId: number, quantity = 1) {
  const response = await client.post('/api/cart', { json: { productId, quantity } });
  expect(response.status).toBe(201);
  return response.json() as Promise<{ id: number; productId: number; quantity: number; price: number; type: string }>;
}

export type Summary = { subtotal: number; shipping: number; tax: number; total: number };

/** The body the cart page sends (spec section 7), from the cart as GET /api/cart shows it. */
export async function checkoutBody(
  client: TestClient,
  summary: Summary,
  overrides: Record<string, unknown> = {},
  method: 'local' | 'standard' | 'express' = 'standard',
) {
  const cart = (await (await client.get('/api/cart')).json()) as { id: number; productId: number; quantity: number; price: number; type: string }[];
  return {
    paymentMethod: 'cod',
    items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
    shipping: { method, cost: summary.shipping },
    summary,
    customer,
    ...overrides,
  };
}

/** Aviator x1 + Wayfarer x2 = 171 + 326 = 497.00; 8% tax 39.76; standard 5.99. */
export const STANDARD: Summary = { subtotal: 497, shipping: 5.99, tax: 39.76, total: 542.75 };
export const EXPRESS: Summary = { subtotal: 497, shipping: 12.99, tax: 39.76, total: 549.75 };

/** Puts one Aviator and two Wayfarers in the shopper's cart: the STANDARD and EXPRESS totals. */
export async function fillCart(ctx: CheckoutStore, client = ctx.shopper) {
  const a = await addToCart(client, aviator(ctx).id, 1);
  const w = await addToCart(client, wayfarer(ctx).id, 2);
  return [a, w];
}

export const checkout = (client: TestClient, json: unknown) => client.post('/api/checkout', { json });

/** A one-time token for a Visa the test gateway accepts. */
export function visaToken(): string {
  const made = testTokenForCard('4111111111111111', 12, 2030, '123');
  if ('error' in made) throw new Error(made.error);
  return made.token;
}
