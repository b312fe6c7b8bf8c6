import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../src/db/client.ts';
import { orderItems, orders, products, productVariants } from '../../src/db/schema.ts';
import { stockNewVariant } from '../../src/domain/inventory/stock.ts';
import { type StockCount, variantStockOf } from '../../src/domain/inventory/stock-counts.ts';
import { joinedSizes, variantsOf } from '../../src/domain/inventory/variants.ts';

/*
 * Stock belongs to a variant (issue 38). Tests that set a product's shelf directly go through
 * here, so the variant, its stocked count and the product's sum move together as the ledger
 * keeps them.
 */

/** The product's one variant (every product is inserted with one); throws when it has several. */
export function soleVariantId(db: Queryable, productId: number): number {
  const rows = db.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, productId)).all();
  if (rows.length !== 1) throw new Error(`product ${productId} has ${rows.length} variants, not one`);
  return rows[0]!.id;
}

/** Sets a one-variant product's available count to `quantity` (the stocked count moves by as much). */
export function setShelf(db: Queryable, productId: number, quantity: number): void {
  const variantId = soleVariantId(db, productId);
  db.update(productVariants)
    .set({ stocked: sql`${productVariants.stocked} + ${quantity} - ${productVariants.quantity}`, quantity })
    .where(eq(productVariants.id, variantId))
    .run();
  db.update(products).set({ quantity }).where(eq(products.id, productId)).run();
}

export interface SizeStock<S extends string = string> {
  size: S;
  quantity: number;
  /** Null or absent: the product's price. */
  priceCents?: number | null;
  colour?: string | null;
}

/**
 * Makes a product sell in these sizes, in this order (the picker's): its variants are renamed and
 * restocked in place (ids kept; the stocked count moves with the available one), more are added
 * as needed, each stocked with what is available. The product's quantity becomes their sum and
 * its size the sizes joined, as the admin's variant edits keep them. Returns each size's variant id.
 */
export function withSizes<S extends string>(db: Queryable, productId: number, sizes: readonly SizeStock<S>[]): Record<S, number> {
  const product = db.select().from(products).where(eq(products.id, productId)).get()!;
  const existing = db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(productVariants.position, productVariants.id)
    .all();
  if (existing.length > sizes.length) throw new Error(`product ${productId} has ${existing.length} variants, more than the ${sizes.length} sizes asked`);
  const ids = {} as Record<S, number>;
  sizes.forEach((entry, position) => {
    const values = {
      sku: `${product.model}-${entry.size}`,
      size: entry.size,
      colour: entry.colour ?? null,
      priceCents: entry.priceCents ?? null,
      quantity: entry.quantity,
      position,
    };
    const kept = existing[position];
    if (kept) {
      db.update(productVariants)
        .set({ ...values, stocked: sql`${productVariants.stocked} + ${entry.quantity} - ${productVariants.quantity}` })
        .where(eq(productVariants.id, kept.id))
        .run();
      ids[entry.size] = kept.id;
    } else
      ids[entry.size] = db
        .insert(productVariants)
        .values({ productId, createdAt: product.createdAt, stocked: entry.quantity, ...values })
        .returning({ id: productVariants.id })
        .get().id;
  });
  db.update(products)
    .set({ quantity: sizes.reduce((sum, entry) => sum + entry.quantity, 0), size: [...new Set(sizes.map((entry) => entry.size))].join(', ') })
    .where(eq(products.id, productId))
    .run();
  return ids;
}

/**
 * Gives a product more sizes (tests/api/stock-ledger*, sizes-two-processes): each row made and
 * stocked as the admin's form stocks a new size, through the ledger, and `products.size` the
 * sizes joined. Answers the new variants' ids in order.
 */
export function addSizes(db: Db, productId: number, sizes: { size: string; quantity: number }[], now = Date.now()): number[] {
  return db.transaction((tx) => {
    const ids = sizes.map(({ size, quantity }, i) => {
      const id = tx
        .insert(productVariants)
        .values({ productId, sku: `${productId}-${size}`, size, position: i + 1, createdAt: now })
        .returning({ id: productVariants.id })
        .get().id;
      stockNewVariant(tx, id, quantity);
      return id;
    });
    tx.update(products)
      .set({ size: joinedSizes(variantsOf(tx, productId)) })
      .where(eq(products.id, productId))
      .run();
    return ids;
  });
}

/** A tee sold in the sizes given ('S' 3, 'M' 1, ...), stocked through the ledger; its id and its variants' ids by size. */
export function sizedTee(
  db: Db,
  sizes: { size: string; quantity: number }[],
  priceCents = 2200,
  now = Date.now(),
): { id: number; priceCents: number; variant: Record<string, number> } {
  const [first, ...more] = sizes;
  if (!first) throw new Error('a tee needs a size');
  const id = db
    .insert(products)
    .values({
      brand: 'Sized',
      model: `TEE-${crypto.randomUUID().slice(0, 6)}`,
      productType: 'tshirt',
      size: first.size,
      quantity: first.quantity,
      priceCents,
      createdAt: now,
    })
    .returning({ id: products.id })
    .get().id;
  addSizes(db, id, more, now);
  return { id, priceCents, variant: Object.fromEntries(variantsOf(db, id).map((v) => [v.size, v.id])) };
}

/** Each size's ledger (stocked, available, held, sold), by size: what a test compares before and after. */
export function ledgerBySize(db: Queryable, productId: number): Record<string, StockCount> {
  return Object.fromEntries(variantsOf(db, productId).map((v) => [v.size, variantStockOf(db, v.id)!]));
}

/** withSizes with the sizes as [size, units] pairs (the mystery boxes' tests). */
export function giveSizes(db: Queryable, productId: number, sizes: [size: string, units: number][]): Record<string, number> {
  return withSizes(
    db,
    productId,
    sizes.map(([size, quantity]) => ({ size, quantity })),
  );
}

/** withSizes under the name the order lines' tests read it by. */
export const sellInSizes = (db: Queryable, productId: number, sizes: readonly { size: string; quantity: number }[]): Record<string, number> =>
  withSizes(db, productId, sizes);

/**
 * A new tee sold in these sizes (position in the order given), each with its own shelf; the
 * product's quantity is their sum and its size the sizes joined, as the ledger and the admin keep
 * them. `fields` overrides the product's columns (price, flags). Returns the product id and the
 * variant id of each size.
 */
export function sizedProduct(
  db: Queryable,
  sizes: Record<string, number>,
  fields: Partial<typeof products.$inferInsert> = {},
): { productId: number; variants: Record<string, number> } {
  const entries = Object.entries(sizes);
  const [first] = entries;
  if (!first) throw new Error('sizedProduct needs at least one size');
  const product = db
    .insert(products)
    .values({
      productType: 'tshirt',
      brand: 'Sized',
      model: `SIZED-${Math.random().toString(36).slice(2, 8)}`,
      size: first[0],
      quantity: first[1],
      priceCents: 200,
      createdAt: 0,
      ...fields,
    })
    .returning()
    .get();
  const variants = withSizes(
    db,
    product.id,
    entries.map(([size, quantity]) => ({ size, quantity })),
  );
  return { productId: product.id, variants };
}

/** The units of one size the orders' own lines say were paid for (processing, shipped or completed). */
export function paidUnitsOf(db: Queryable, variantId: number): number {
  return db
    .select({ quantity: orderItems.quantity })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.variantId, variantId), inArray(orders.status, ['processing', 'shipped', 'completed'])))
    .all()
    .reduce((n, line) => n + line.quantity, 0);
}
