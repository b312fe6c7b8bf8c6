import { eq, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../src/db/client.ts';
import { products, productVariants } from '../../src/db/schema.ts';
import { type StockCount, stockNewVariant, variantStockOf } from '../../src/domain/inventory/stock.ts';
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
 * Gives a one-variant product these sizes, in this order (the picker's): its variant becomes the
 * first, the others are added, each stocked with what is available. The product's quantity becomes
 * their sum and its size the sizes joined, as the admin's variant edits keep them. Returns each
 * size's variant id.
 */
export function withSizes<S extends string>(db: Queryable, productId: number, sizes: readonly SizeStock<S>[]): Record<S, number> {
  const first = soleVariantId(db, productId);
  const product = db.select().from(products).where(eq(products.id, productId)).get()!;
  const ids = {} as Record<S, number>;
  sizes.forEach((entry, position) => {
    const values = {
      sku: `${product.model}-${entry.size}`,
      size: entry.size,
      colour: entry.colour ?? null,
      priceCents: entry.priceCents ?? null,
      quantity: entry.quantity,
      stocked: entry.quantity,
      position,
    };
    if (position === 0) db.update(productVariants).set(values).where(eq(productVariants.id, first)).run();
    ids[entry.size] =
      position === 0
        ? first
        : db
            .insert(productVariants)
            .values({ productId, createdAt: product.createdAt, ...values })
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

/**
 * Makes a one-variant product a product in several sizes (mystery boxes by size): its variant
 * becomes the first size and a variant is added for each other, each with its units, in the
 * order given; products.quantity is their sum and products.size the sizes joined, as the admin's
 * variant edits keep them. Returns each size's variant id.
 */
export function giveSizes(db: Queryable, productId: number, sizes: [size: string, units: number][]): Record<string, number> {
  const first = soleVariantId(db, productId);
  const product = db.select().from(products).where(eq(products.id, productId)).get()!;
  const ids: Record<string, number> = {};
  sizes.forEach(([size, units], position) => {
    const values = { size, quantity: units, stocked: units, position, sku: `${product.model}-${size}` };
    if (position === 0) {
      db.update(productVariants).set(values).where(eq(productVariants.id, first)).run();
      ids[size] = first;
    } else
      ids[size] = db
        .insert(productVariants)
        .values({ ...values, productId, createdAt: Date.now() })
        .returning({ id: productVariants.id })
        .get().id;
  });
  const total = sizes.reduce((sum, [, units]) => sum + units, 0);
  db.update(products)
    .set({ quantity: total, size: sizes.map(([size]) => size).join(', ') })
    .where(eq(products.id, productId))
    .run();
  return ids;
}

/**
 * Makes a product sell in `sizes`, in that order, each with its available count: its variants
 * are renamed and stocked in place (ids kept), more are added as needed; `products.quantity`
 * becomes their sum and `products.size` the sizes joined, as the admin's variant edits keep
 * them. Returns the variant ids by size.
 */
export function sellInSizes(db: Queryable, productId: number, sizes: readonly { size: string; quantity: number }[]): Record<string, number> {
  const existing = db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, productId))
    .orderBy(productVariants.position, productVariants.id)
    .all();
  if (existing.length > sizes.length) throw new Error(`product ${productId} has ${existing.length} variants, more than the ${sizes.length} sizes asked`);
  const ids: Record<string, number> = {};
  sizes.forEach(({ size, quantity }, position) => {
    const kept = existing[position];
    const sku = `${kept?.sku ?? existing[0]?.sku ?? `P${productId}`}-${size}`;
    if (kept) {
      db.update(productVariants)
        .set({ size, sku, position, quantity, stocked: sql`${productVariants.stocked} + ${quantity} - ${productVariants.quantity}` })
        .where(eq(productVariants.id, kept.id))
        .run();
      ids[size] = kept.id;
    } else {
      const made = db
        .insert(productVariants)
        .values({ productId, sku, size, position, quantity, stocked: quantity, createdAt: Date.now() })
        .returning({ id: productVariants.id })
        .get();
      ids[size] = made.id;
    }
  });
  const total = sizes.reduce((sum, { quantity }) => sum + quantity, 0);
  db.update(products)
    .set({ quantity: total, size: sizes.map(({ size }) => size).join(', ') })
    .where(eq(products.id, productId))
    .run();
  return ids;
}

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
  const [first, ...rest] = entries;
  if (!first) throw new Error('sizedProduct needs at least one size');
  const total = entries.reduce((sum, [, quantity]) => sum + quantity, 0);
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
  const variants: Record<string, number> = { [first[0]]: soleVariantId(db, product.id) };
  rest.forEach(([size, quantity], index) => {
    variants[size] = db
      .insert(productVariants)
      .values({ productId: product.id, sku: `${product.model}-${size}`, size, quantity, stocked: quantity, position: index + 1, createdAt: 0 })
      .returning({ id: productVariants.id })
      .get().id;
  });
  db.update(products)
    .set({ quantity: total, size: entries.map(([size]) => size).join(', ') })
    .where(eq(products.id, product.id))
    .run();
  return { productId: product.id, variants };
}
