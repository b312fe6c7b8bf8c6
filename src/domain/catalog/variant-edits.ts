import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { auctions, games, LIVE_STATUSES, OPEN_TEAM_STATUSES, products, productVariants, teams } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import { removeVariant, setAvailable, stockNewVariant } from '../inventory/stock.ts';
import { joinedSizes, variantsOf, type Variant } from '../inventory/variants.ts';
import type { VariantInput } from '../../shared/schemas/product-variants.ts';

/*
 * The admin's edits to a product's sizes (issue 38), in the caller's transaction: rename, add,
 * set each size's stock from the count the admin saw (the ledger's setAvailable, so held units
 * stay held and a count that moved is a 409 under that row), remove a size only when nothing of
 * it is held or sold and nothing open is for it. `products.size` is kept as the sizes joined;
 * the ledger keeps `products.quantity` their sum.
 */

export const notThisProductsSize = 'That size is not part of this product.';
export const sizeInUse = (size: string, what: string) => `Size ${size || '(no size)'} cannot be removed: ${what}.`;

/** What still names the size (a waiting or running game, an open team, a live auction); null when nothing does. */
function openUseOf(tx: Queryable, variantId: number): string | null {
  const game = tx
    .select({ id: games.id })
    .from(games)
    .where(and(eq(games.variantId, variantId), inArray(games.status, ['waiting', 'active'])))
    .get();
  if (game) return 'a game is being played for it';
  const team = tx
    .select({ id: teams.id })
    .from(teams)
    .where(and(eq(teams.variantId, variantId), inArray(teams.status, [...OPEN_TEAM_STATUSES, 'capturing'])))
    .get();
  if (team) return 'a team buy is open for it';
  const auction = tx
    .select({ id: auctions.id })
    .from(auctions)
    .where(and(eq(auctions.variantId, variantId), inArray(auctions.status, LIVE_STATUSES)))
    .get();
  if (auction) return 'its auction is not over';
  return null;
}

function removeSize(tx: Queryable, variant: Variant, field: string): void {
  const open = openUseOf(tx, variant.id);
  const refusal = open ?? (removeVariant(tx, variant.id) ? null : 'units of it are held or sold');
  if (refusal === null) return;
  const message = sizeInUse(variant.size, refusal);
  throw new DomainError(409, message, { [field]: message });
}

/**
 * Makes the product's sizes the list sent: sizes named by id are renamed and restocked, new
 * ones added, the product's other sizes removed. The list has been checked (unique sizes, at
 * least one); a size of another product is refused here.
 */
export function applyVariants(
  tx: Queryable,
  productId: number,
  sent: { variants: VariantInput[]; removed: { index: number; id: number }[] },
  now: number,
): void {
  const existing = new Map(variantsOf(tx, productId).map((variant) => [variant.id, variant]));
  for (const row of [...sent.variants, ...sent.removed]) {
    if (row.id !== undefined && !existing.has(row.id)) throw new DomainError(400, notThisProductsSize, { [`variants.${row.index}.id`]: notThisProductsSize });
  }
  const kept = new Set(sent.variants.map((variant) => variant.id));
  const removedAt = new Map(sent.removed.map((row) => [row.id, row.index]));
  for (const variant of existing.values()) {
    if (kept.has(variant.id)) continue;
    const index = removedAt.get(variant.id);
    removeSize(tx, variant, index === undefined ? 'variants' : `variants.${index}.remove`);
  }
  sent.variants.forEach((variant, position) => {
    if (variant.id === undefined) return;
    const fields = { sku: variant.sku, size: variant.size, colour: variant.colour, priceCents: variant.priceCents, position };
    tx.update(productVariants).set(fields).where(eq(productVariants.id, variant.id)).run();
    const current = existing.get(variant.id)!;
    setAvailable(tx, variant.id, { quantity: variant.quantity, seen: variant.seen ?? current.quantity, now, field: `variants.${variant.index}.quantity` });
  });
  sent.variants.forEach((variant, position) => {
    if (variant.id !== undefined) return;
    const { id } = tx
      .insert(productVariants)
      .values({
        productId,
        sku: variant.sku,
        size: variant.size,
        colour: variant.colour ?? null,
        priceCents: variant.priceCents ?? null,
        position,
        createdAt: now,
      })
      .returning({ id: productVariants.id })
      .get();
    stockNewVariant(tx, id, variant.quantity);
  });
  tx.update(products)
    .set({ size: joinedSizes(variantsOf(tx, productId)) })
    .where(eq(products.id, productId))
    .run();
}

/**
 * Today's single size and SKU (no `variants` sent) on a product with one variant: its variant
 * follows them. A product with several sizes keeps its sizes; renaming them is the Sizes list's.
 */
export function followSingleFields(tx: Queryable, productId: number, fields: { model: string; size: string }, previous: { model: string; size: string }): void {
  const variants = variantsOf(tx, productId);
  if (variants.length !== 1) return;
  const variant = variants[0]!;
  const change: Partial<Pick<Variant, 'sku' | 'size'>> = {};
  if (fields.size !== previous.size) change.size = fields.size;
  if (fields.model !== previous.model && variant.sku === previous.model) change.sku = fields.model;
  if (Object.keys(change).length) tx.update(productVariants).set(change).where(eq(productVariants.id, variant.id)).run();
}
