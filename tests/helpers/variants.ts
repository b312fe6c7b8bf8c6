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
