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
