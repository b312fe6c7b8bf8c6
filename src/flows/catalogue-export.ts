import { asc } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { products, productVariants } from '../db/schema.ts';
import { productLabel } from '../domain/catalog/catalog.ts';
import { heldAndSoldByVariant } from '../domain/inventory/stock-counts.ts';
import { csvCell } from '../shared/csv.ts';
import { centsToDollars } from '../shared/money.ts';

/*
 * The admin's catalogue as CSV (issue 38): one row per variant (a size), with the ledger's
 * counts for it, for stocktakes and the books. A flow only because the CSV cell rule lives
 * with the orders export (orders sits above the catalogue); the figures are the catalogue's
 * and the ledger's own.
 */

const COLUMNS = ['Product', 'Name', 'Type', 'Variant', 'SKU', 'Size', 'Colour', 'Price', 'Available', 'Stocked', 'Held', 'Sold', 'Archived'];

/** Every product's variants (archived products too, marked), by product then the picker's order; `type` narrows to one product type. */
export function catalogueCsv(db: Queryable, type?: string): string {
  const counts = heldAndSoldByVariant(db);
  const byId = new Map(
    db
      .select()
      .from(products)
      .all()
      .filter((product) => type === undefined || product.productType === type)
      .map((product) => [product.id, product]),
  );
  const variants = db.select().from(productVariants).orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id)).all();
  const rows = variants.flatMap((variant) => {
    const product = byId.get(variant.productId);
    if (!product) return [];
    const { held, sold } = counts.get(variant.id) ?? { held: 0, sold: 0 };
    return [
      [
        product.id,
        productLabel(product),
        product.productType,
        variant.id,
        variant.sku,
        variant.size,
        variant.colour,
        centsToDollars(variant.priceCents ?? product.priceCents).toFixed(2),
        variant.quantity,
        variant.stocked,
        held,
        sold,
        product.archivedAt === null ? '' : 'yes',
      ]
        .map(csvCell)
        .join(','),
    ];
  });
  return `${[COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
