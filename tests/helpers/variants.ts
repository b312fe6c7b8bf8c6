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
