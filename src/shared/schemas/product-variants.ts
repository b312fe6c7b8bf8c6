import * as z from 'zod/mini';
import { fieldErrorsOf } from './field-errors.ts';
import { numberOf, QUANTITY_SEEN_INVALID, type VariantRaw } from './product.ts';

/*
 * A product's sizes as the admin sends them (issue 38): the API's `variants` list, or the
 * product form's Sizes rows ('variants.0.size', 'variants.0.quantity', ...). The list is the
 * product's whole set of sizes: a size left out (or a row ticked Remove) is removed. Errors
 * are keyed by the row as sent ('variants.1.quantity'), so each shows under its own field.
 */

/** One size to keep or add, checked; `index` is its row as sent. */
export interface VariantInput {
  index: number;
  /** An existing variant of the product; absent: a new size. */
  id?: number;
  sku: string;
  size: string;
  /** Undefined (not sent): an existing size keeps its own. */
  colour?: string | null;
  /** Null: the product's price; undefined (not sent): an existing size keeps its own. */
  priceCents?: number | null;
  quantity: number;
  /** The available count the admin saw (existing sizes); absent: the count read when saving. */
  seen?: number;
}

export type VariantsCheck = { ok: true; variants: VariantInput[]; removed: { index: number; id: number }[] } | { ok: false; errors: Record<string, string> };

export const AT_LEAST_ONE_SIZE = 'A product needs at least one size.';
export const sizeListedTwice = (size: string) => `Sizes must differ: ${size} is listed twice.`;

const rowSchema = z.object({
  sku: z.string().check(z.minLength(1, 'SKU is required'), z.maxLength(64, 'SKU must be at most 64 characters')),
  size: z.string().check(z.maxLength(40, 'Size must be at most 40 characters')),
  colour: z.string().check(z.maxLength(40, 'Colour must be at most 40 characters')),
  price: z.nullable(
    z.number({ error: 'Price must be greater than 0' }).check(z.gte(0.01, 'Price must be greater than 0'), z.lte(100_000, 'Price must be at most $100,000')),
  ),
  quantity: z
    .int({ error: 'Quantity must be a whole number' })
    .check(z.gte(0, 'Quantity cannot be negative'), z.lte(1_000_000, 'Quantity must be at most 1,000,000')),
});

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');
const blank = (value: unknown) => text(value) === '';
const ticked = (value: unknown) => value === true || ['true', 'on', '1', 'yes'].includes(String(value).toLowerCase());

/** The rows sent, by their index: the API's list, or the form's flat 'variants.N.field' keys. Undefined: none sent. */
export function variantRowsOf(raw: Record<string, unknown>): { index: number; row: VariantRaw }[] | undefined {
  if (Array.isArray(raw.variants)) return raw.variants.map((row, index) => ({ index, row: (row ?? {}) as VariantRaw }));
  const rows = new Map<number, VariantRaw>();
  for (const [key, value] of Object.entries(raw)) {
    const match = /^variants\.(\d{1,2})\.([a-zA-Z]+)$/.exec(key);
    if (!match) continue;
    const index = Number(match[1]);
    const row = rows.get(index) ?? {};
    row[match[2]!] = value as VariantRaw[string];
    rows.set(index, row);
  }
  if (rows.size === 0) return undefined;
  return [...rows.entries()].sort(([a], [b]) => a - b).map(([index, row]) => ({ index, row }));
}

/**
 * Checks the sizes sent: each row's fields (the product form's own messages), sizes unique
 * within the product, at least one kept. A blank new row (the form's 'Add a size' row left
 * empty) is no size. Undefined when no sizes were sent (today's single size and quantity).
 */
export function checkVariantsInput(raw: Record<string, unknown>): VariantsCheck | undefined {
  const rows = variantRowsOf(raw);
  if (!rows) return undefined;
  const errors: Record<string, string> = {};
  const variants: VariantInput[] = [];
  const removed: { index: number; id: number }[] = [];
  for (const { index, row } of rows) {
    const field = (name: string) => `variants.${index}.${name}`;
    const id = blank(row.id) ? undefined : numberOf(row.id);
    if (id !== undefined && !(Number.isSafeInteger(id) && id >= 1)) {
      errors[field('id')] = 'That size is not part of this product.';
      continue;
    }
    if (ticked(row.remove)) {
      if (id !== undefined) removed.push({ index, id });
      continue;
    }
    if (id === undefined && ['sku', 'size', 'colour', 'price', 'quantity'].every((name) => blank(row[name]))) continue;
    const checked = rowSchema.safeParse({
      sku: text(row.sku),
      size: text(row.size),
      colour: text(row.colour),
      price: blank(row.price) ? null : numberOf(row.price),
      quantity: numberOf(row.quantity),
    });
    if (!checked.success) {
      for (const [name, message] of Object.entries(fieldErrorsOf(checked.error))) errors[field(name)] ??= message;
      continue;
    }
    const seen = blank(row.quantitySeen) ? undefined : numberOf(row.quantitySeen);
    if (seen !== undefined && !(Number.isInteger(seen) && seen >= 0 && seen <= 1_000_000)) {
      errors[field('quantitySeen')] = QUANTITY_SEEN_INVALID;
      continue;
    }
    const { sku, size, colour, price, quantity } = checked.data;
    variants.push({
      index,
      id,
      sku,
      size,
      colour: row.colour === undefined ? undefined : colour || null,
      priceCents: row.price === undefined ? undefined : price === null ? null : Math.round(price * 100),
      quantity,
      seen,
    });
  }
  const sizes = new Map<string, number>();
  for (const variant of variants) {
    const key = variant.size.toLowerCase();
    if (variants.length > 1 && key === '') errors[`variants.${variant.index}.size`] ??= 'Size is required';
    else if (sizes.has(key)) errors[`variants.${variant.index}.size`] ??= sizeListedTwice(variant.size);
    sizes.set(key, variant.index);
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  if (variants.length === 0) return { ok: false, errors: { variants: AT_LEAST_ONE_SIZE } };
  return { ok: true, variants, removed };
}
