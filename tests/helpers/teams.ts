import { eq } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { emailOutbox, notifications, orderItems, orders, payments, products, teamMembers, teams, userProfiles } from '../../src/db/schema.ts';
import type { TestClient } from './app.ts';
import { setShelf } from './variants.ts';

/*
 * Team buys as the tests see them: a product ticked for half price with a friend, the three
 * calls of the API (each with its own Idempotency-Key), and the rows they leave behind.
 */

type Store = { db: Db };

/** A product on sale with half price on: $24.99 (so $12.50 each, rounded up, + $1.00 tax = $13.50), `quantity` units. */
export function teamProduct(ctx: Store, quantity = 5, priceCents = 2499): number {
  const product = ctx.db.select().from(products).where(eq(products.buyNowEnabled, true)).get()!;
  ctx.db.update(products).set({ halfPriceEnabled: true, priceCents, archivedAt: null }).where(eq(products.id, product.id)).run();
  setShelf(ctx.db, product.id, quantity);
  return product.id;
}

let keys = 0;
const key = () => ({ 'idempotency-key': `team-test-${++keys}-${Math.random()}` });

/** `body`: the start request's JSON, such as `{ variantId }` for a product sold by size. */
export const startTeam = (client: TestClient, productId: number | string, body?: unknown) =>
  client.post(`/api/products/${productId}/teams`, { headers: key(), ...(body === undefined ? {} : { json: body }) });
export const joinTeam = (client: TestClient, code: string) => client.post(`/api/teams/${code}/join`, { headers: key() });
export const readTeam = (client: TestClient, code: string) => client.get(`/api/teams/${code}`);

export const stockOf = (ctx: Store, productId: number) => ctx.db.select().from(products).where(eq(products.id, productId)).get()!.quantity;
export const teamRows = (ctx: Store) => ctx.db.select().from(teams).all();
export const memberRows = (ctx: Store) => ctx.db.select().from(teamMembers).all();
export const holdRows = (ctx: Store) => ctx.db.select().from(payments).all();
export const teamOrders = (ctx: Store) =>
  ctx.db
    .select({ order: orders, item: orderItems })
    .from(orders)
    .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
    .where(eq(orderItems.purchaseType, 'team'))
    .all();
export const teamNotes = (ctx: Store, userId: number) => ctx.db.select().from(notifications).where(eq(notifications.userId, userId)).all();
export const teamMails = (ctx: Store) => ctx.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'team_update')).all();

/** Everything a refusal must leave as it was. */
export function snapshot(ctx: Store, productId: number) {
  return { stock: stockOf(ctx, productId), teams: teamRows(ctx).length, members: memberRows(ctx).length, payments: holdRows(ctx).length };
}

/** Moves the shopper's profile address out of 92651. */
export function moveAway(ctx: Store, userId: number): void {
  const profile = ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, userId)).get()!;
  ctx.db
    .update(userProfiles)
    .set({ address: { ...profile.address!, postalCode: '90210', city: 'Beverly Hills' } })
    .where(eq(userProfiles.userId, userId))
    .run();
}
