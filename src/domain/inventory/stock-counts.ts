import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { products, productVariants, stockReservations } from '../../db/schema.ts';

/*
 * What the stock ledger (stock.ts) holds, read: stocked = available + held + sold, per variant
 * and per product. The admin's views, the catalogue export and the ledger's property tests read
 * it here; only stock.ts writes it.
 */

export interface StockCount {
  stocked: number;
  available: number;
  held: number;
  sold: number;
}

/* held and sold units of a variant or a product, and their shelf: the invariant's reads, built once. */
const heldAndSold = (by: typeof stockReservations.variantId | typeof stockReservations.productId) =>
  preparedOnce((db) =>
    db
      .select({ state: stockReservations.state, units: sql<number>`sum(${stockReservations.quantity})` })
      .from(stockReservations)
      .where(and(eq(by, sql.placeholder('id')), inArray(stockReservations.state, ['held', 'sold'])))
      .groupBy(stockReservations.state)
      .prepare(),
  );
const variantHeldAndSold = heldAndSold(stockReservations.variantId);
const productHeldAndSold = heldAndSold(stockReservations.productId);
const variantLevel = preparedOnce((db) =>
  db
    .select({ stocked: productVariants.stocked, available: productVariants.quantity })
    .from(productVariants)
    .where(eq(productVariants.id, sql.placeholder('id')))
    .prepare(),
);
const productAvailable = preparedOnce((db) =>
  db
    .select({ available: products.quantity })
    .from(products)
    .where(eq(products.id, sql.placeholder('id')))
    .prepare(),
);
const productStocked = preparedOnce((db) =>
  db
    .select({ stocked: sql<number>`coalesce(sum(${productVariants.stocked}), 0)` })
    .from(productVariants)
    .where(eq(productVariants.productId, sql.placeholder('id')))
    .prepare(),
);

function countOf(sums: { state: string; units: number }[], level: { stocked: number; available: number }): StockCount {
  const of = (state: string) => Number(sums.find((row) => row.state === state)?.units ?? 0);
  return { stocked: level.stocked, available: level.available, held: of('held'), sold: of('sold') };
}

/** The ledger of one variant, read in one go (the property test's invariant, per size). */
export function variantStockOf(db: Queryable, variantId: number): StockCount | undefined {
  const level = variantLevel(db).get({ id: variantId });
  return level ? countOf(variantHeldAndSold(db).all({ id: variantId }), level) : undefined;
}

/** The ledger of one product, all its variants together (the admin's view and the property test's invariant). */
export function stockOf(db: Queryable, productId: number): StockCount | undefined {
  const product = productAvailable(db).get({ id: productId });
  if (!product) return undefined;
  const level = productStocked(db).get({ id: productId });
  return countOf(productHeldAndSold(db).all({ id: productId }), { stocked: Number(level?.stocked ?? 0), available: product.available });
}

/** Every variant's held and sold units in one read (the admin's catalogue export); a variant with none is absent. */
export function heldAndSoldByVariant(db: Queryable): Map<number, { held: number; sold: number }> {
  const rows = db
    .select({ variantId: stockReservations.variantId, state: stockReservations.state, units: sql<number>`sum(${stockReservations.quantity})` })
    .from(stockReservations)
    .where(inArray(stockReservations.state, ['held', 'sold']))
    .groupBy(stockReservations.variantId, stockReservations.state)
    .all();
  const byVariant = new Map<number, { held: number; sold: number }>();
  for (const row of rows) {
    if (row.variantId === null) continue;
    const counts = byVariant.get(row.variantId) ?? { held: 0, sold: 0 };
    counts[row.state as 'held' | 'sold'] = Number(row.units);
    byVariant.set(row.variantId, counts);
  }
  return byVariant;
}
