import { and, eq, gte, inArray, notExists, notInArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { products, productVariants, stockReservations, type ReservationReason } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';

/*
 * The one stock ledger (issue 34, item 3; docs/decisions.md "One stock ledger"), shaped like
 * Medusa's inventory module: a stocked quantity, reservations with a reason and an owner, and
 * available = stocked - held - sold, per variant (issue 38: a size is a variant, and stock
 * belongs to it). `product_variants.quantity` is the variant's available count and
 * `products.quantity` their sum, the count every listing reads; only this file writes them,
 * both in the same step and only relatively (x = x - n WHERE x >= n, x = x + n), so a write can
 * never put back a unit someone else holds.
 *
 * Every function runs in the caller's transaction. Each move is a conditional UPDATE on the
 * reservation's state, so a release, a sale or a return happens once whoever calls it twice;
 * and an owner with no reservation (nothing held) moves no unit, which keeps the invariant.
 */

export interface Hold {
  productId: number;
  /** The size held; see variants.ts for choosing it. */
  variantId: number;
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

/**
 * A count the admin typed, checked where it is used (the forms check it too): a fraction or a
 * negative would move the shelf by something that is not a number of units.
 */
function checkCount(quantity: number, field: string): void {
  const message = !Number.isInteger(quantity) ? 'Quantity must be a whole number' : quantity < 0 ? 'Quantity cannot be negative' : undefined;
  if (message) throw new DomainError(400, message, { [field]: message });
}

/** Takes `quantity` units off the shelf for `owner`: false, and nothing written, when fewer are available. */
export function reserve(tx: Queryable, hold: Hold): boolean {
  // Every caller counts whole units of at least one: anything else would put units on the shelf or hold none.
  if (!Number.isInteger(hold.quantity) || hold.quantity < 1) throw new Error(`reserve: ${hold.quantity} is not a number of units to hold`);
  const taken = takeFromVariant(tx).all({ variantId: hold.variantId, productId: hold.productId, units: hold.quantity });
  if (taken.length === 0) return false;
  moveProductCount(tx, hold.productId, -hold.quantity);
  insertHold(tx).run({
    productId: hold.productId,
    variantId: hold.variantId,
    quantity: hold.quantity,
    reason: hold.reason,
    owner: hold.owner,
    orderId: hold.orderId ?? null,
    now: hold.now,
  });
  return true;
}

/* The ledger's steps every way to buy takes, built once (db/prepared.ts). */
const takeFromVariant = preparedOnce((db) =>
  db
    .update(productVariants)
    .set({ quantity: sql`${productVariants.quantity} - ${sql.placeholder('units')}` })
    .where(
      and(
        eq(productVariants.id, sql.placeholder('variantId')),
        eq(productVariants.productId, sql.placeholder('productId')),
        gte(productVariants.quantity, sql.placeholder('units')),
      ),
    )
    .returning({ id: productVariants.id })
    .prepare(),
);
const insertHold = preparedOnce((db) =>
  db
    .insert(stockReservations)
    .values({
      productId: sql.placeholder('productId'),
      variantId: sql.placeholder('variantId'),
      quantity: sql.placeholder('quantity'),
      reason: sql.placeholder('reason'),
      owner: sql.placeholder('owner'),
      orderId: sql.placeholder('orderId'),
      state: 'held',
      createdAt: sql.placeholder('now'),
      updatedAt: sql.placeholder('now'),
    })
    .prepare(),
);
const addToProductCount = preparedOnce((db) =>
  db
    .update(products)
    .set({ quantity: sql`${products.quantity} + ${sql.placeholder('delta')}` })
    .where(eq(products.id, sql.placeholder('productId')))
    .prepare(),
);
const addToVariantCount = preparedOnce((db) =>
  db
    .update(productVariants)
    .set({ quantity: sql`${productVariants.quantity} + ${sql.placeholder('units')}` })
    .where(eq(productVariants.id, sql.placeholder('variantId')))
    .prepare(),
);

type Row = typeof stockReservations.$inferSelect;

function moveProductCount(tx: Queryable, productId: number, delta: number): void {
  addToProductCount(tx).run({ delta, productId });
}

function putBack(tx: Queryable, rows: Pick<Row, 'productId' | 'variantId' | 'quantity'>[]): number {
  let units = 0;
  for (const row of rows) {
    // A removed variant's units have no shelf to go back to (a variant is removed only when nothing is held or sold).
    if (row.variantId === null) continue;
    addToVariantCount(tx).run({ units: row.quantity, variantId: row.variantId });
    moveProductCount(tx, row.productId, row.quantity);
    units += row.quantity;
  }
  return units;
}

/* The ledger's moves of a checkout, a payment and a release, built once (db/prepared.ts); each keeps its conditional WHERE. */
const heldOfOwner = and(eq(stockReservations.owner, sql.placeholder('owner')), eq(stockReservations.state, 'held'));
const releaseOwner = preparedOnce((db) =>
  db
    .update(stockReservations)
    .set({ state: 'released', updatedAt: sql`${sql.placeholder('now')}` })
    .where(heldOfOwner)
    .returning()
    .prepare(),
);
const sellOwner = preparedOnce((db) =>
  db
    .update(stockReservations)
    .set({ state: 'sold', updatedAt: sql`${sql.placeholder('now')}` })
    .where(heldOfOwner)
    .returning()
    .prepare(),
);
const sellOwnerFor = preparedOnce((db) =>
  db
    .update(stockReservations)
    .set({ state: 'sold', updatedAt: sql`${sql.placeholder('now')}`, orderId: sql`${sql.placeholder('orderId')}` })
    .where(heldOfOwner)
    .returning()
    .prepare(),
);
const sellAttached = preparedOnce((db) =>
  db
    .update(stockReservations)
    .set({ state: 'sold', updatedAt: sql`${sql.placeholder('now')}` })
    .where(and(eq(stockReservations.orderId, sql.placeholder('orderId')), eq(stockReservations.state, 'held')))
    .returning()
    .prepare(),
);

/** The owner's held units go back on the shelf; answers how many (0 when it held none). */
export function release(tx: Queryable, owner: string, now: number): number {
  return putBack(tx, releaseOwner(tx).all({ owner, now }));
}

/** The owner's held units are paid for (or given away): they leave the store for good, with the order that bought them. */
export function markSold(tx: Queryable, owner: string, now: number, orderId?: number): number {
  const sold = orderId === undefined ? sellOwner(tx).all({ owner, now }) : sellOwnerFor(tx).all({ owner, now, orderId });
  return sold.reduce((sum, row) => sum + row.quantity, 0);
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
  const attached = sellAttached(tx).all({ orderId, now });
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

/* The admin's count, built once (db/prepared.ts): the same conditional step, its values bound. */
const countVariant = preparedOnce((db) =>
  db
    .update(productVariants)
    .set({
      quantity: sql`${productVariants.quantity} + ${sql.placeholder('delta')}`,
      stocked: sql`${productVariants.stocked} + ${sql.placeholder('delta')}`,
    })
    .where(
      and(
        eq(productVariants.id, sql.placeholder('variantId')),
        eq(productVariants.quantity, sql.placeholder('seen')),
        gte(sql`${productVariants.quantity} + ${sql.placeholder('delta')}`, 0),
      ),
    )
    .returning({ productId: productVariants.productId })
    .prepare(),
);

/**
 * The admin's count: the variant should have `quantity` available, given that they saw `seen`.
 * The difference moves the stocked and the available counts alike, in one conditional step
 * (WHERE quantity = seen), so units held meanwhile stay held and a count that moved since the
 * form was opened is a 409 naming the current one, with nothing changed. `field` names the
 * form field the 409 belongs to (the product form's 'quantity', or a variant row's).
 */
export function setAvailable(tx: Queryable, variantId: number, change: { quantity: number; seen: number; now: number; field?: string }): void {
  checkCount(change.quantity, change.field ?? 'quantity');
  const delta = change.quantity - change.seen;
  if (delta === 0) return;
  const moved = countVariant(tx).all({ variantId, seen: change.seen, delta });
  if (moved.length === 0) {
    const now = tx.select({ quantity: productVariants.quantity }).from(productVariants).where(eq(productVariants.id, variantId)).get();
    if (!now) throw new DomainError(404, 'Size not found');
    const message = stockChanged(now.quantity);
    throw new DomainError(409, message, { [change.field ?? 'quantity']: message });
  }
  moveProductCount(tx, moved[0]!.productId, delta);
}

/** A new variant's first count: stocked and available alike, and the product's sum with them. */
export function stockNewVariant(tx: Queryable, variantId: number, quantity: number, field = 'quantity'): void {
  checkCount(quantity, field);
  if (quantity === 0) return;
  const row = tx
    .update(productVariants)
    .set({ quantity: sql`${productVariants.quantity} + ${quantity}`, stocked: sql`${productVariants.stocked} + ${quantity}` })
    .where(eq(productVariants.id, variantId))
    .returning({ productId: productVariants.productId })
    .get();
  if (row) moveProductCount(tx, row.productId, quantity);
}

/*
 * Built once (db/prepared.ts). The id is bound as `cast(? as integer)`: the subquery compares the
 * outer row's id, and a bare `?` there could make SQLite compile the statement again for each new
 * value (see accounts/sessions.ts).
 */
const removeFreeVariant = preparedOnce((db) =>
  db
    .delete(productVariants)
    .where(
      and(
        eq(productVariants.id, sql`cast(${sql.placeholder('variantId')} as integer)`),
        notExists(
          db
            .select({ id: stockReservations.id })
            .from(stockReservations)
            .where(and(eq(stockReservations.variantId, productVariants.id), inArray(stockReservations.state, ['held', 'sold']))),
        ),
      ),
    )
    .returning()
    .prepare(),
);

/**
 * A variant leaves the product only when none of its units is held or sold; its available units
 * leave the product's count with it. False, and nothing written, when it may not go. A product's
 * last size may go: the admin's form replaces a size by removing it and adding the new one in one
 * transaction, and its list check (at least one size) keeps every product with a variant.
 * The size's released and returned reservations stay, naming no variant (ON DELETE SET NULL):
 * they are done, so no release, sale or return moves them again.
 */
export function removeVariant(tx: Queryable, variantId: number): boolean {
  // One statement: the check and the delete cannot be split by a reserve of another process,
  // even for a caller that forgot its transaction.
  const gone = removeFreeVariant(tx).get({ variantId });
  if (gone) moveProductCount(tx, gone.productId, -gone.quantity);
  return gone !== undefined;
}
