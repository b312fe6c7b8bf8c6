import type { Queryable } from '../../db/client.ts';
import { type ChosenSize, chooseSize, variantsOf } from '../inventory/variants.ts';

/*
 * The size a buy-now checkout is for (issue 38): the product page sends the shopper on with the
 * size in the URL (`/checkout?productId=&size=M`, or `variantId=`). A product with one variant
 * needs none; a product with several and no size named (or one it does not sell) shows its sizes
 * to choose from instead of a Pay button that would be refused.
 */

export interface CheckoutSize {
  chosen: ChosenSize | null;
  /** The sizes on offer, when one is still to be chosen; empty otherwise. */
  choices: { size: string; available: number }[];
}

export function checkoutSize(
  db: Queryable,
  product: { id: number; productType: string; priceCents: number },
  asked: { variantId?: string; size?: string },
): CheckoutSize {
  const variants = variantsOf(db, product.id);
  if (variants.length <= 1) return { chosen: variants.length ? chooseSize(db, product, variants[0]!.id) : null, choices: [] };
  const byId = asked.variantId && /^[0-9]{1,15}$/.test(asked.variantId) ? Number(asked.variantId) : null;
  const wanted = asked.size?.trim().toLowerCase();
  const named = variants.find((variant) => variant.id === byId) ?? variants.find((variant) => wanted && variant.size.toLowerCase() === wanted);
  if (named) return { chosen: chooseSize(db, product, named.id), choices: [] };
  return { chosen: null, choices: variants.map((variant) => ({ size: variant.size, available: variant.quantity })) };
}
