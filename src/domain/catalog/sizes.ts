import type { Queryable } from '../../db/client.ts';
import { centsToDollars } from '../../shared/money.ts';
import { sizeLabelOf, variantsByProduct, type Variant } from '../inventory/variants.ts';

/*
 * What a shopper sees of a product's sizes (issue 38): the card's one line and the product
 * page's choice. Both read the variants in the picker's order (variantsOf, variantsByProduct).
 */

type Sized = Pick<Variant, 'size' | 'quantity'>;

/** A card's product; a listing's rows carry their variants already. */
export interface CardSized {
  id: number;
  productType: string;
  variants?: readonly Sized[];
}

/**
 * The card's size line: 'S–XL' (the first to the last size with a unit left, in the picker's
 * order), 'Only L left' when one size of several is left, the size alone for a one-size tee,
 * and null for what has no sizes to tell apart (sunglasses, books) or nothing left at all (the
 * stock badge says that).
 */
export function cardSizeText(productType: string, variants: readonly Sized[]): string | null {
  if (variants.length === 1) return sizeLabelOf(productType, 1, variants[0]!) || null;
  const left = variants.filter((variant) => variant.quantity > 0 && variant.size !== '');
  if (left.length === 0) return null;
  if (left.length === 1) return `Only ${left[0]!.size} left`;
  return `${left[0]!.size}–${left.at(-1)!.size}`;
}

/**
 * The size lines of a gallery's cards, by product id: from the variants a listing already holds
 * (listProducts), else read for the whole gallery in one statement.
 */
export function cardSizesOf(db: Queryable, products: readonly CardSized[]): Map<number, string> {
  const unread = products.filter((product) => product.variants === undefined).map((product) => product.id);
  const read = unread.length > 0 ? variantsByProduct(db, unread) : new Map<number, Sized[]>();
  const sizes = new Map<number, string>();
  for (const product of products) {
    const text = cardSizeText(product.productType, product.variants ?? read.get(product.id) ?? []);
    if (text !== null) sizes.set(product.id, text);
  }
  return sizes;
}

/**
 * The size a product page shows chosen: the only variant of a one-variant product, else the
 * one `?size=` names (exactly as the picker writes it); undefined for none or one not sold here.
 */
export function chosenVariant<V extends Pick<Variant, 'size'>>(variants: readonly V[], size: string | undefined): V | undefined {
  if (variants.length === 1) return variants[0];
  if (size === undefined || size === '') return undefined;
  return variants.find((variant) => variant.size === size);
}

/** A size the product's page may be kept under: one of its own (an unknown one is rendered, never kept). */
export const isSizeOf = (variants: readonly Pick<Variant, 'size'>[], size: string) => variants.length > 1 && variants.some((variant) => variant.size === size);

/** A size's price in dollars: its own, else the product's. */
export const variantPrice = (product: { price: number }, variant: Pick<Variant, 'priceCents'>) =>
  variant.priceCents === null ? product.price : centsToDollars(variant.priceCents);
