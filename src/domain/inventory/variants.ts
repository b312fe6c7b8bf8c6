import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { productVariants } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';

/*
 * A product's variants (issue 38): its sizes, each with its own stock. Every way to buy names
 * the variant it takes a unit of; `chooseVariant` is the one rule for what a request may leave
 * out: a product with one variant needs no choice, a product with several refuses without one
 * and names the sizes on offer.
 */

export type Variant = typeof productVariants.$inferSelect;

/** The product's variants in the picker's order. */
export function variantsOf(db: Queryable, productId: number): Variant[] {
  return variantsOfProduct(db).all({ productId });
}

/* Every way to buy reads these: built once (db/prepared.ts). */
const variantsOfProduct = preparedOnce((db) =>
  db
    .select()
    .from(productVariants)
    .where(eq(productVariants.productId, sql.placeholder('productId')))
    .orderBy(asc(productVariants.position), asc(productVariants.id))
    .prepare(),
);
const variantRow = preparedOnce((db) =>
  db
    .select()
    .from(productVariants)
    .where(eq(productVariants.id, sql.placeholder('id')))
    .prepare(),
);
const variantCountOf = preparedOnce((db) =>
  db
    .select({ variants: count() })
    .from(productVariants)
    .where(eq(productVariants.productId, sql.placeholder('productId')))
    .prepare(),
);

/** Many products' variants in one read, by product id (listings, the cart, the admin's table). */
export function variantsByProduct(db: Queryable, productIds: readonly number[]): Map<number, Variant[]> {
  const byProduct = new Map<number, Variant[]>();
  if (productIds.length === 0) return byProduct;
  const rows = db
    .select()
    .from(productVariants)
    .where(inArray(productVariants.productId, [...new Set(productIds)]))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id))
    .all();
  for (const row of rows) {
    const list = byProduct.get(row.productId);
    if (list) list.push(row);
    else byProduct.set(row.productId, [row]);
  }
  return byProduct;
}

export function variantById(db: Queryable, variantId: number): Variant | undefined {
  return variantRow(db).get({ id: variantId });
}

/** 'S, M, L or XL': the sizes as a sentence names them. */
export function sizesInWords(variants: readonly Pick<Variant, 'size'>[]): string {
  const sizes = variants.map((variant) => variant.size).filter((size) => size !== '');
  if (sizes.length <= 1) return sizes.join('');
  return `${sizes.slice(0, -1).join(', ')} or ${sizes.at(-1)}`;
}

export const chooseASize = (variants: readonly Pick<Variant, 'size'>[]) => `Choose a size: ${sizesInWords(variants)}.`;

/**
 * The variant a request buys: the one named (it must be the product's), or the only one. A
 * product with several sizes and none named is a 400 naming the sizes, under `field`.
 */
export function chooseVariant(db: Queryable, productId: number, variantId: number | null | undefined, field = 'variantId'): Variant {
  return pickVariant(variantsOf(db, productId), variantId, field);
}

/** chooseVariant's rule over a product's variants already read. */
function pickVariant(variants: readonly Variant[], variantId: number | null | undefined, field: string): Variant {
  if (variantId !== undefined && variantId !== null) {
    const named = variants.find((variant) => variant.id === variantId);
    if (named) return named;
    const message = variants.length > 1 ? chooseASize(variants) : 'That size is not sold here.';
    throw new DomainError(400, message, { [field]: message });
  }
  if (variants.length === 1) return variants[0]!;
  if (variants.length === 0) throw new DomainError(404, 'Product not found');
  const message = chooseASize(variants);
  throw new DomainError(400, message, { [field]: message });
}

/** The sizes joined, as `products.size` keeps them for listings and today's API clients ('S, M, L'). */
export function joinedSizes(variants: readonly Pick<Variant, 'size'>[]): string {
  return [...new Set(variants.map((variant) => variant.size).filter((size) => size !== ''))].join(', ');
}

/** A product sells by size when it has more than one variant: only then do lines, receipts and prizes name one. */
export const sellsBySize = (variants: readonly unknown[]) => variants.length > 1;

/** Tees and shoes are sold by size; sunglasses and books keep `size` for a fit or a page count, not a choice. */
const SIZED_TYPES: readonly string[] = ['tshirt', 'shoe'];

/** Tees and shoes: what is bought of them (a mystery box too) names a size. */
export const soldBySize = (productType: string) => SIZED_TYPES.includes(productType);

/**
 * The size a line, a receipt or a prize names: always for tees and shoes, and for any product
 * that sells more than one variant; '' otherwise (a book's page count is not a size).
 */
export function sizeLabelOf(productType: string, variantCount: number, variant: Pick<Variant, 'size'>): string {
  return SIZED_TYPES.includes(productType) || variantCount > 1 ? variant.size : '';
}

export interface ChosenSize {
  variantId: number;
  /** What lines, receipts and prizes name ('' when the product has no sizes to tell apart). */
  sizeLabel: string;
  /** The variant's available count. */
  available: number;
  /** The variant's own price, else the product's. */
  priceCents: number;
}

/** The size a line buys, with what it shows and costs: `chooseVariant`'s rule, for a product in hand. */
export function chooseSize(
  db: Queryable,
  product: { id: number; productType: string; priceCents: number },
  variantId: number | null | undefined,
  field = 'variantId',
): ChosenSize {
  const variants = variantsOf(db, product.id);
  const variant = pickVariant(variants, variantId, field);
  const count = variants.length;
  return {
    variantId: variant.id,
    sizeLabel: sizeLabelOf(product.productType, count, variant),
    available: variant.quantity,
    priceCents: variant.priceCents ?? product.priceCents,
  };
}

export const SIZE_GONE = 'This size is no longer sold.';

/** The variant a game, an auction or a team was set up for; null once that size was removed. */
export function heldVariant(variantId: number | null): number {
  if (variantId === null) throw new DomainError(409, SIZE_GONE);
  return variantId;
}

/** The size label of a variant already chosen (a prize, an auction's unit, a team's). */
export function sizeLabelFor(db: Queryable, productType: string, variantId: number | null): string {
  if (variantId === null) return '';
  const variant = variantById(db, variantId);
  if (!variant) return '';
  if (soldBySize(productType)) return variant.size;
  return sizeLabelOf(productType, variantCountOf(db).get({ productId: variant.productId })?.variants ?? 0, variant);
}
