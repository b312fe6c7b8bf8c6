import { eq } from 'drizzle-orm';
import type { Queryable } from './client.ts';
import { products, productVariants } from './schema.ts';

/*
 * The demo catalogue's sizes (issue 38): a tee in S–XL and a shoe in four US sizes, one of each
 * sold out, so a newcomer sees the size picker at work. Each size's units are its own; the
 * product's count is their sum (the same as its single count before sizes, so the listings
 * read as they did). Every other demo product keeps its one variant.
 */

/** By SKU (model): each size in the picker's order and its stock (0: sold out). */
export const seedSizes: Record<string, { size: string; quantity: number }[]> = {
  // Lululemon Metal Vent Tech 2.0
  'LM3DWPS-HRD': [
    { size: 'S', quantity: 2 },
    { size: 'M', quantity: 0 },
    { size: 'L', quantity: 3 },
    { size: 'XL', quantity: 1 },
  ],
  // On Cloud 5
  '59.98904': [
    { size: '8', quantity: 2 },
    { size: '9', quantity: 0 },
    { size: '10', quantity: 3 },
    { size: '11', quantity: 1 },
  ],
};

/** Gives a just-seeded product its sizes: its first variant (made with it) becomes the first size; each size's SKU is the model and the size. */
export function seedVariants(tx: Queryable, productId: number, model: string, now: number): void {
  const sizes = seedSizes[model];
  if (!sizes) return;
  const [first] = tx.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, productId)).all();
  sizes.forEach(({ size, quantity }, position) => {
    const row = { sku: `${model}-${size}`, size, quantity, stocked: quantity, position };
    if (position === 0 && first) tx.update(productVariants).set(row).where(eq(productVariants.id, first.id)).run();
    else
      tx.insert(productVariants)
        .values({ ...row, productId, createdAt: now })
        .run();
  });
  tx.update(products)
    .set({ size: sizes.map((s) => s.size).join(', '), quantity: sizes.reduce((sum, s) => sum + s.quantity, 0) })
    .where(eq(products.id, productId))
    .run();
}
