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

/** One size of a product made by `sizeThePicker`: its own price in cents, or the product's. */
export interface PickerSize {
  size: string;
  quantity: number;
  priceCents?: number;
}

/**
 * Gives a one-variant product the sizes listed, in that order (its variant becomes the first):
 * the stocked counts as the available ones, the product's quantity their sum and its size the
 * sizes joined, as the admin's variant edits keep them. Answers the variant ids by size.
 */
export function sizeThePicker(db: Queryable, productId: number, sizes: readonly PickerSize[]): Record<string, number> {
  const first = soleVariantId(db, productId);
  const ids: Record<string, number> = {};
  for (const [position, { size, quantity, priceCents = null }] of sizes.entries()) {
    const row = { size, quantity, stocked: quantity, priceCents, position };
    if (position === 0) {
      db.update(productVariants).set(row).where(eq(productVariants.id, first)).run();
      ids[size] = first;
    } else {
      const sku = `P${productId}-${size}`;
      ids[size] = db
        .insert(productVariants)
        .values({ ...row, productId, sku, createdAt: Date.now() })
        .returning({ id: productVariants.id })
        .get().id;
    }
  }
  const total = sizes.reduce((sum, { quantity }) => sum + quantity, 0);
  db.update(products)
    .set({ quantity: total, size: sizes.map(({ size }) => size).join(', ') })
    .where(eq(products.id, productId))
    .run();
  return ids;
}
