import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../src/db/client.ts';
import { products, productVariants } from '../../src/db/schema.ts';

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
