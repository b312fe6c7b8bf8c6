import { and, eq, gte, inArray, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { products, stockLevels, stockReservations, type ReservationReason } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';

/*
 * The one stock ledger (issue 34, item 3; docs/decisions.md "One stock ledger"), shaped like
 * Medusa's inventory module: a stocked quantity, reservations with a reason and an owner, and
 * available = stocked - held - sold. `products.quantity` is the available count every listing
 * reads; only this file writes it, and only by a relative step (x = x - n WHERE x >= n,
 * x = x + n), so a write can never put back a unit someone else holds.
 *
 * Every function runs in the caller's transaction. Each move is a conditional UPDATE on the
 * reservation's state, so a release, a sale or a return happens once whoever calls it twice;
 * and an owner with no reservation (nothing held) moves no unit, which keeps the invariant.
 */

export interface Hold {
  productId: number;
  quantity: number;
  reason: ReservationReason;
  /** 'order:{id}', 'team_member:{id}', 'auction:{id}', 'game:{id}'. */
  owner: string;
  /** The order that will pay for it, when known already. */
  orderId?: number;
  now: number;
}

/** The owners' names, one place: each area names its holds through these. */
export const owners = {
  order: (orderId: number) => `order:${orderId}`,
  teamMember: (memberId: number) => `team_member:${memberId}`,
  auction: (auctionId: number) => `auction:${auctionId}`,
  game: (gameId: number) => `game:${gameId}`,
};
const orderOwner = owners.order;

/** Takes `quantity` units off the shelf for `owner`: false, and nothing written, when fewer are available. */
export function reserve(tx: Queryable, hold: Hold): boolean {
  const taken = tx
    .update(products)
    .set({ quantity: sql`${products.quantity} - ${hold.quantity}` })
    .where(and(eq(products.id, hold.productId), gte(products.quantity, hold.quantity)))
    .returning({ id: products.id })
    .all();
  if (taken.length === 0) return false;
  tx.insert(stockReservations)
    .values({
      productId: hold.productId,
      quantity: hold.quantity,
      reason: hold.reason,
      owner: hold.owner,
      orderId: hold.orderId ?? null,
      state: 'held',
      createdAt: hold.now,
      updatedAt: hold.now,
    })
    .run();
  return true;
}

type Row = typeof stockReservations.$inferSelect;

function putBack(tx: Queryable, rows: Pick<Row, 'productId' | 'quantity'>[]): number {
  let units = 0;
  for (const row of rows) {
    tx.update(products)
      .set({ quantity: sql`${products.quantity} + ${row.quantity}` })
      .where(eq(products.id, row.productId))
      .run();
    units += row.quantity;
  }
  return units;
}

/** The owner's held units go back on the shelf; answers how many (0 when it held none). */
export function release(tx: Queryable, owner: string, now: number): number {
  const released = tx
    .update(stockReservations)
    .set({ state: 'released', updatedAt: now })
    .where(and(eq(stockReservations.owner, owner), eq(stockReservations.state, 'held')))
    .returning()
    .all();
  return putBack(tx, released);
}

/** The owner's held units are paid for (or given away): they leave the store for good, with the order that bought them. */
export function markSold(tx: Queryable, owner: string, now: number, orderId?: number): number {
  return tx
    .update(stockReservations)
    .set({ state: 'sold', updatedAt: now, ...(orderId === undefined ? {} : { orderId }) })
    .where(and(eq(stockReservations.owner, owner), eq(stockReservations.state, 'held')))
    .returning()
    .all()
    .reduce((sum, row) => sum + row.quantity, 0);
}

/** An order will pay for a unit another owner holds (a prize, an auction): its sale and its return follow the order. */
export function attachOrder(tx: Queryable, owner: string, orderId: number, now: number): void {
  tx.update(stockReservations)
    .set({ orderId, updatedAt: now })
    .where(and(eq(stockReservations.owner, owner), eq(stockReservations.state, 'held')))
    .run();
}

/** Paid: every unit held for the order, its own and those attached to it, is sold. */
export function sellOrder(tx: Queryable, orderId: number, now: number): number {
  const own = markSold(tx, orderOwner(orderId), now, orderId);
  const attached = tx
    .update(stockReservations)
    .set({ state: 'sold', updatedAt: now })
    .where(and(eq(stockReservations.orderId, orderId), eq(stockReservations.state, 'held')))
    .returning()
    .all();
  return own + attached.reduce((sum, row) => sum + row.quantity, 0);
}

/** Not paid: the order's own units go back; a unit attached to it stays held for its owner (the prize's game, the auction). */
export function releaseOrder(tx: Queryable, orderId: number, now: number): number {
  const units = release(tx, orderOwner(orderId), now);
  tx.update(stockReservations)
    .set({ orderId: null, updatedAt: now })
    .where(and(eq(stockReservations.orderId, orderId), eq(stockReservations.state, 'held')))
    .run();
  return units;
}

/**
 * A paid order canceled or refunded: its sold units go back on the shelf, once. `keep` names the
 * reasons whose units stay out (a prize's: its game gave it away).
 */
export function returnOrder(tx: Queryable, orderId: number, now: number, keep: ReservationReason[] = []): number {
  const returned = tx
    .update(stockReservations)
    .set({ state: 'returned', updatedAt: now })
    .where(
      and(eq(stockReservations.orderId, orderId), eq(stockReservations.state, 'sold'), keep.length ? notInArray(stockReservations.reason, keep) : undefined),
    )
    .returning()
    .all();
  return putBack(tx, returned);
}

export const stockChanged = (now: number) => `Stock changed since you opened this form: now ${now}`;

/**
 * The admin's count: the product should have `quantity` available, given that they saw `seen`.
 * The difference moves the stocked and the available counts alike, in one conditional step
 * (WHERE quantity = seen), so units held meanwhile stay held and a count that moved since the
 * form was opened is a 409 naming the current one, with nothing changed.
 */
export function setAvailable(tx: Queryable, productId: number, change: { quantity: number; seen: number; now: number }): void {
  const delta = change.quantity - change.seen;
  if (delta === 0) return;
  const moved = tx
    .update(products)
    .set({ quantity: sql`${products.quantity} + ${delta}` })
    .where(and(eq(products.id, productId), eq(products.quantity, change.seen), gte(sql`${products.quantity} + ${delta}`, 0)))
    .returning({ id: products.id })
    .all();
  if (moved.length === 0) {
    const now = tx.select({ quantity: products.quantity }).from(products).where(eq(products.id, productId)).get();
    if (!now) throw new DomainError(404, 'Product not found');
    const message = stockChanged(now.quantity);
    throw new DomainError(409, message, { quantity: message });
  }
  tx.update(stockLevels)
    .set({ stocked: sql`${stockLevels.stocked} + ${delta}`, updatedAt: change.now })
    .where(eq(stockLevels.productId, productId))
    .run();
}

export interface StockCount {
  stocked: number;
  available: number;
  held: number;
  sold: number;
}

/** The ledger of one product, read in one go (the admin's view and the property test's invariant). */
export function stockOf(db: Queryable, productId: number): StockCount | undefined {
  const product = db.select({ available: products.quantity }).from(products).where(eq(products.id, productId)).get();
  if (!product) return undefined;
  const level = db.select({ stocked: stockLevels.stocked }).from(stockLevels).where(eq(stockLevels.productId, productId)).get();
  const sums = db
    .select({ state: stockReservations.state, units: sql<number>`sum(${stockReservations.quantity})` })
    .from(stockReservations)
    .where(and(eq(stockReservations.productId, productId), inArray(stockReservations.state, ['held', 'sold'])))
    .groupBy(stockReservations.state)
    .all();
  const of = (state: string) => Number(sums.find((row) => row.state === state)?.units ?? 0);
  return { stocked: level?.stocked ?? 0, available: product.available, held: of('held'), sold: of('sold') };
}
