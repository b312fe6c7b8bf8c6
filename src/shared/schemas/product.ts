import * as z from 'zod/mini';
import { formFile, formText } from './fields.ts';
import { fieldErrorsOf } from './field-errors.ts';

/*
 * Product rules of spec section 5, per type, shared by the products API and the admin forms.
 * Input arrives as JSON (API `data`) or as form strings; both are normalised first. Books use
 * their form fields (name, author, pages, summary), mapped as spec section 3 says: brand holds
 * the name, size the page count, description 'AUTHOR:{author};;{summary}'.
 */

export const PRODUCT_TYPES = ['sunglasses', 'tshirt', 'shoe', 'book'] as const;
export type ProductKind = (typeof PRODUCT_TYPES)[number];

export const PRODUCT_FLAGS = [
  'buyNowEnabled',
  'bidEnabled',
  'playEnabled',
  'halfPriceEnabled',
  'mysteryBoxEnabled',
  'buyOnePlayFreeEnabled',
  'donateEnabled',
] as const;
export type ProductFlag = (typeof PRODUCT_FLAGS)[number];

export const imageRequiredMessage: Record<ProductKind, string> = {
  sunglasses: 'An image is required for new products',
  tshirt: 'An image is required for new t-shirts',
  shoe: 'An image is required for new shoes',
  book: 'A cover image is required for new books',
};

const price = z
  .number({ error: 'Price must be greater than 0' })
  .check(z.gte(0.01, 'Price must be greater than 0'), z.lte(100_000, 'Price must be at most $100,000'));
const quantity = z
  .int({ error: 'Quantity must be a whole number' })
  .check(z.gte(0, 'Quantity cannot be negative'), z.lte(1_000_000, 'Quantity must be at most 1,000,000'));
const sku = z.string().check(z.minLength(1, 'SKU is required'), z.maxLength(64, 'SKU must be at most 64 characters'));
const flags = Object.fromEntries(PRODUCT_FLAGS.map((flag) => [flag, z.boolean()])) as Record<ProductFlag, z.ZodMiniBoolean>;

const goodsSchema = z.object({
  name: z.string().check(z.maxLength(100, 'Product name must be at most 100 characters')),
  brand: z.string().check(z.minLength(1, 'Brand is required'), z.maxLength(100, 'Brand must be at most 100 characters')),
  model: sku,
  size: z.string().check(z.maxLength(40, 'Size must be at most 40 characters')),
  badge: z.string().check(z.maxLength(30, 'Badge must be at most 30 characters'), z.regex(/^[^;]*$/, 'Badge cannot contain ;')),
  description: z.string().check(z.maxLength(2000, 'Description must be at most 2000 characters')),
  price,
  quantity,
  ...flags,
});

const bookSchema = z.object({
  name: z.string().check(z.minLength(1, 'Book name is required'), z.maxLength(200, 'Book name must be at most 200 characters')),
  author: z
    .string()
    .check(z.minLength(1, 'Author is required'), z.maxLength(120, 'Author must be at most 120 characters'), z.regex(/^[^;]*$/, 'Author cannot contain ;')),
  model: sku,
  pages: z.int({ error: 'Pages must be at least 1' }).check(z.gte(1, 'Pages must be at least 1'), z.lte(100_000, 'Pages must be at most 100,000')),
  summary: z.string().check(z.maxLength(2000, 'Summary must be at most 2000 characters')),
  price,
  quantity,
  ...flags,
});

/** The names a product's fields go by: stored (brand, model, size), the form's (sku, badge), a book's (name, author, pages, summary). */
const FIELD_NAMES = [
  'productType',
  'brand',
  'model',
  'sku',
  'size',
  'price',
  'quantity',
  'quantitySeen',
  'description',
  'badge',
  'name',
  'author',
  'pages',
  'summary',
] as const;

const SCALAR = 'Send each product field as text, a number or true/false.';
const VARIANT_SHAPE = 'Send `variants` as a list of objects: {id?, sku, size, colour?, price?, quantity, quantitySeen?}.';
export const MAX_VARIANTS = 40;
const scalar = z.optional(z.union([z.string().check(z.maxLength(5000, 'At most 5000 characters.')), z.number(), z.boolean(), z.null()], { error: SCALAR }));

/**
 * POST /api/products and PUT /api/products/{id}: the product fields of a JSON body or of the
 * multipart `data` field. Unknown keys are dropped; each value is one scalar, which the type's
 * field rules below then check (so `{ "price": "free" }` gets the price's own message).
 */
export const productData = z.object({
  ...Object.fromEntries(FIELD_NAMES.map((name) => [name, scalar])),
  ...Object.fromEntries([...PRODUCT_FLAGS, 'betEnabled'].map((flag) => [flag, scalar])),
  imageUrl: scalar,
  variants: z.optional(
    z
      .array(z.record(z.string(), scalar, { error: VARIANT_SHAPE }), { error: VARIANT_SHAPE })
      .check(z.maxLength(MAX_VARIANTS, `A product has at most ${MAX_VARIANTS} sizes.`)),
  ),
}) as z.ZodMiniType<ProductData>;

/** One size as sent (product-variants.ts checks it). */
export type VariantRaw = Record<string, string | number | boolean | null | undefined>;

/** A product's fields as the API sends them; `variants` its sizes (product-variants.ts). */
export type ProductData = Record<string, string | number | boolean | null | undefined | VariantRaw[]>;

/** The multipart body of the products API (spec section 7): `data` (JSON text of productData), an `image` file, `keepExistingImage`. */
export const productMultipart = z.object({
  data: formText(20_000),
  image: formFile,
  keepExistingImage: formText(5),
});

/** POST /admin/{product|tshirt|shoe|book}/{new|id}: the admin's product form as posted (ticked flags send 'on'). */
export const productFormPost = z.catchall(
  z.object({
    ...Object.fromEntries(FIELD_NAMES.filter((name) => name !== 'productType').map((name) => [name, formText(5000)])),
    ...Object.fromEntries(PRODUCT_FLAGS.map((flag) => [flag, formText(5)])),
    image: formFile,
  }),
  // The Sizes rows ('variants.0.size', ...): text, read by checkVariantsInput.
  formText(200),
) as z.ZodMiniType<Record<string, string | File | undefined>>;

/** A product ready to store: money in cents, markers folded into the description. */
export interface ProductFields {
  productType: ProductKind;
  /** The optional title of goods; a book's title is its brand. */
  name: string | null;
  brand: string;
  model: string;
  size: string;
  quantity: number;
  priceCents: number;
  description: string;
  buyNowEnabled: boolean;
  bidEnabled: boolean;
  playEnabled: boolean;
  halfPriceEnabled: boolean;
  mysteryBoxEnabled: boolean;
  buyOnePlayFreeEnabled: boolean;
  donateEnabled: boolean;
}

export type ProductCheck = { ok: true; fields: ProductFields } | { ok: false; errors: Record<string, string> };

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

/**
 * A JSON number, or the decimal text a form (or the multipart `data`) carries: digits with an
 * optional '$', thousands commas and cents. Hex ('0x10'), exponents, 'Infinity' and booleans
 * are not numbers here.
 */
export function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const text = value.trim();
  if (!/^-?\$?[0-9][0-9,]*(\.[0-9]+)?$/.test(text)) return Number.NaN;
  return Number(text.replace(/[$,]/g, ''));
}

function flagOf(value: unknown, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'boolean') return value;
  return ['true', 'on', '1', 'yes'].includes(String(value).toLowerCase());
}

/** Description markers: 'BADGE:{text};;rest' and 'AUTHOR:{author};;summary'. */
export function parseDescription(description: string | null | undefined): { badge?: string; author?: string; text: string } {
  const value = description ?? '';
  const badge = /^BADGE:([^;]*);;/.exec(value);
  if (badge) return { badge: badge[1]!.trim(), text: value.slice(badge[0].length).trim() };
  const author = /^AUTHOR:([^;]*);;/.exec(value);
  if (author) return { author: author[1]!.trim(), text: value.slice(author[0].length).trim() };
  return { text: value.trim() };
}

export function isProductKind(value: unknown): value is ProductKind {
  return typeof value === 'string' && (PRODUCT_TYPES as readonly string[]).includes(value);
}

/**
 * Checks raw product input for one type. `raw` may use the product's stored names (brand,
 * size, description with markers) or the form's (sku, badge; for books name, author, pages,
 * summary). Flags not given default to the spec's defaults (buy now on, the rest off).
 */
export function checkProductInput(type: ProductKind, raw: Record<string, unknown>): ProductCheck {
  const description = text(raw.description);
  const parsed = parseDescription(description);
  const common = {
    model: text(raw.sku ?? raw.model),
    price: numberOf(raw.price),
    quantity: numberOf(raw.quantity),
    ...Object.fromEntries(
      PRODUCT_FLAGS.map((flag) => [flag, flagOf(flag === 'playEnabled' ? (raw.playEnabled ?? raw.betEnabled) : raw[flag], flag === 'buyNowEnabled')]),
    ),
  } as { model: string; price: number; quantity: number } & Record<ProductFlag, boolean>;

  if (type === 'book') {
    const result = bookSchema.safeParse({
      ...common,
      name: text(raw.name ?? raw.brand),
      author: text(raw.author ?? parsed.author),
      pages: numberOf(raw.pages ?? raw.size),
      summary: raw.summary !== undefined ? text(raw.summary) : parsed.text,
    });
    if (!result.success) return { ok: false, errors: fieldErrorsOf(result.error) };
    const book = result.data;
    return {
      ok: true,
      fields: {
        ...pickFlags(book),
        productType: 'book',
        name: null,
        brand: book.name,
        model: book.model,
        size: String(book.pages),
        quantity: book.quantity,
        priceCents: Math.round(book.price * 100),
        description: `AUTHOR:${book.author};;${book.summary}`,
      },
    };
  }

  // A form sends its Badge field (maybe empty); an API client may put the marker in the description.
  const badge = raw.badge !== undefined ? text(raw.badge) : (parsed.badge ?? '');
  const result = goodsSchema.safeParse({
    ...common,
    name: text(raw.name),
    brand: text(raw.brand),
    size: text(raw.size),
    badge,
    description: parsed.text,
  });
  if (!result.success) return { ok: false, errors: fieldErrorsOf(result.error) };
  const goods = result.data;
  return {
    ok: true,
    fields: {
      ...pickFlags(goods),
      productType: type,
      name: goods.name || null,
      brand: goods.brand,
      model: goods.model,
      size: goods.size,
      quantity: goods.quantity,
      priceCents: Math.round(goods.price * 100),
      description: goods.badge ? `BADGE:${goods.badge};;${goods.description}` : goods.description,
    },
  };
}

export const QUANTITY_SEEN_INVALID = 'The quantity you saw must be a whole number of at least 0.';

/**
 * The available count the admin was shown when the form opened (its hidden `quantitySeen`, or
 * the API's optional field): their new quantity moves the stock by the difference, and a count
 * that moved meanwhile is refused (domain/inventory/stock.ts). Absent: undefined.
 */
export function checkQuantitySeen(value: unknown): { ok: true; seen: number | undefined } | { ok: false; errors: Record<string, string> } {
  if (value === undefined || value === null || value === '') return { ok: true, seen: undefined };
  const seen = numberOf(value);
  if (!Number.isInteger(seen) || seen < 0 || seen > 1_000_000) return { ok: false, errors: { quantitySeen: QUANTITY_SEEN_INVALID } };
  return { ok: true, seen };
}

function pickFlags(value: Record<ProductFlag, boolean>): Record<ProductFlag, boolean> {
  return Object.fromEntries(PRODUCT_FLAGS.map((flag) => [flag, value[flag]])) as Record<ProductFlag, boolean>;
}
