import { and, countDistinct, eq, inArray } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { auctions, cartItems, games, orderItems, products, type Product } from '../../db/schema.ts';
import { LIVE_STATUSES } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { setAvailable } from '../inventory/stock.ts';
import type { ImageStore } from './images.ts';
import { centsToDollars } from '../../shared/money.ts';
import type { ProductHistoryCounts } from '../../shared/product-removal.ts';
import { projectFile } from '../../runtime-files.ts';
import {
  checkProductInput,
  checkQuantitySeen,
  imageRequiredMessage,
  isProductKind,
  parseDescription,
  PRODUCT_FLAGS,
  type ProductKind,
} from '../../shared/schemas/product.ts';
import { variantsOf } from '../inventory/variants.ts';
import { checkVariantsInput, type VariantsCheck } from '../../shared/schemas/product-variants.ts';
import { findProduct } from './catalog.ts';
import { applyVariants, followSingleFields } from './variant-edits.ts';

/*
 * Admin writes to the catalogue, shared by the products API and the server-rendered admin forms.
 * Cached catalogue pages need no call here: every write to products moves the storefront
 * version (a trigger), and every process's page cache drops what it held at the old one.
 */

export interface CatalogWriter {
  db: Db;
  clock: Clock;
  images: ImageStore;
}

export interface ImageChoice {
  /** A newly chosen file, when there is one. */
  file?: Blob | null;
  /** An image URL an API client sends instead of a file (https, or a path on this site). */
  url?: unknown;
}

/**
 * An image URL an API client may name instead of uploading: an https address, or one of the
 * store's own static images. Never an upload: each upload belongs to the one product it was
 * uploaded for, so removing it with that product cannot break another.
 */
function imageUrlFrom(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const url = value.trim();
  if (/^https:\/\/[^\s"'<>]{3,500}$/i.test(url)) return url;
  if (/^\/static\/images\/[A-Za-z0-9._/-]{1,200}$/.test(url) && !url.includes('..') && projectFile(url.slice(1))) return url;
  return null;
}

function hasFile(file: Blob | null | undefined): file is Blob {
  return !!file && file.size > 0;
}

function failWith(errors: Record<string, string>): never {
  throw new DomainError(400, Object.values(errors)[0] ?? 'Invalid product', errors);
}

function typeOf(value: unknown): ProductKind {
  if (value === undefined || value === null || value === '') return 'sunglasses';
  if (!isProductKind(value)) {
    failWith({ productType: 'Product type must be one of sunglasses, tshirt, shoe, book' });
  }
  return value;
}

export const BOOK_HAS_NO_SIZES = 'A book has no sizes: send its quantity.';

/**
 * The sizes sent (`variants`), checked; undefined when none were (today's single size and
 * quantity). With sizes, the product's own size and quantity come from them, so the product's
 * check is given stand-ins it cannot fail on.
 */
function sizesSent(
  type: ProductKind,
  raw: Record<string, unknown>,
): { sizes?: Extract<VariantsCheck, { ok: true }>; errors: Record<string, string>; raw: Record<string, unknown> } {
  const sizes = checkVariantsInput(raw);
  if (!sizes) return { errors: {}, raw };
  if (type === 'book') return { errors: { variants: BOOK_HAS_NO_SIZES }, raw };
  const standIns = { ...raw, size: '', quantity: 0 };
  return sizes.ok ? { sizes, errors: {}, raw: standIns } : { errors: sizes.errors, raw: standIns };
}

export async function createProduct(writer: CatalogWriter, raw: Record<string, unknown>, image: ImageChoice): Promise<Product> {
  const type = typeOf(raw.productType);
  const sent = sizesSent(type, raw);
  const checked = checkProductInput(type, sent.raw);
  const url = imageUrlFrom(image.url);
  const errors = { ...(checked.ok ? {} : checked.errors), ...sent.errors };
  if (!hasFile(image.file) && !url) errors.image = imageRequiredMessage[type];
  if (!checked.ok || Object.keys(errors).length) failWith(errors);

  const imageUrl = hasFile(image.file) ? await writer.images.save(image.file) : url!;
  try {
    return writer.db.transaction((tx) => {
      const now = writer.clock.now();
      const created = tx
        .insert(products)
        .values({ ...checked.fields, imageUrl, createdAt: now })
        .returning()
        .get();
      if (!sent.sizes) return created;
      // The product's first variant (made with it, empty) becomes the first size sent.
      const [first, ...rest] = sent.sizes.variants;
      const made = variantsOf(tx, created.id)[0]!;
      applyVariants(tx, created.id, { variants: [{ ...first!, id: made.id, seen: 0 }, ...rest], removed: [] }, now);
      return findProduct(tx, created.id)!;
    });
  } catch (error) {
    writer.images.remove(imageUrl);
    throw error;
  }
}

/** The stored product in the shape its input takes, so an update may send only what changes. */
function asInput(product: Product): Record<string, unknown> {
  return {
    // A book's name is its title (brand), so only goods carry their own name.
    ...(product.productType === 'book' ? {} : { name: product.name ?? '' }),
    brand: product.brand,
    model: product.model,
    size: product.size,
    price: centsToDollars(product.priceCents),
    quantity: product.quantity,
    description: product.description ?? '',
    ...Object.fromEntries(PRODUCT_FLAGS.map((flag) => [flag, product[flag]])),
  };
}

/** A new description without a marker keeps the product's badge unless a badge is sent. */
function keptBadge(existing: Product, raw: Record<string, unknown>): Record<string, unknown> {
  const badge = parseDescription(existing.description).badge;
  if (!badge || raw.badge !== undefined || typeof raw.description !== 'string' || raw.description.startsWith('BADGE:')) return {};
  return { badge };
}

export const SET_EACH_SIZE = 'This product has sizes: set the stock of each size.';
export const RENAME_EACH_SIZE = 'This product has sizes: rename each size in its Sizes list.';

export const BID_OFF_WHILE_LIVE = 'This product has an auction in progress: cancel it or end it before turning Bid off.';

/** Bid stays on while the product's auction is not over: its bidders and its held unit depend on it. */
function requireNoLiveAuction(tx: Queryable, id: number): void {
  const live = tx
    .select({ id: auctions.id })
    .from(auctions)
    .where(and(eq(auctions.productId, id), inArray(auctions.status, LIVE_STATUSES)))
    .get();
  if (live) throw new DomainError(409, BID_OFF_WHILE_LIVE, { bidEnabled: BID_OFF_WHILE_LIVE });
}

export async function updateProduct(writer: CatalogWriter, id: number, raw: Record<string, unknown>, image: ImageChoice): Promise<Product> {
  const existing = findProduct(writer.db, id);
  if (!existing) throw new DomainError(404, 'Product not found');
  if (raw.productType !== undefined && raw.productType !== '' && raw.productType !== existing.productType) {
    failWith({ productType: "A product's type cannot be changed" });
  }
  // Several sizes joined may be longer than one size may be: the stored text is not checked again.
  const joined = variantsOf(writer.db, id).length > 1 ? { size: '' } : {};
  const sent = sizesSent(existing.productType, { ...asInput(existing), ...joined, ...keptBadge(existing, raw), ...raw });
  const checked = checkProductInput(existing.productType, sent.raw);
  if (!checked.ok || Object.keys(sent.errors).length) failWith({ ...(checked.ok ? {} : checked.errors), ...sent.errors });
  const seen = sent.sizes ? ({ ok: true, seen: undefined } as const) : checkQuantitySeen(raw.quantitySeen);
  if (!seen.ok) failWith(seen.errors);
  const { quantity, size, ...fields } = checked.fields;

  // No new file keeps the current image: an omitted field never loses one; a wrong URL is refused.
  const url = imageUrlFrom(image.url);
  if (!url && image.url !== undefined && image.url !== null && image.url !== '') {
    failWith({ image: 'The image URL must be an https address or one of the store images.' });
  }
  const imageUrl = hasFile(image.file) ? await writer.images.save(image.file) : (url ?? existing.imageUrl);
  try {
    const updated = writer.db.transaction((tx) => {
      if (fields.bidEnabled === false) requireNoLiveAuction(tx, id);
      if (sent.sizes) {
        tx.update(products)
          .set({ ...fields, imageUrl })
          .where(eq(products.id, id))
          .run();
        applyVariants(tx, id, sent.sizes, writer.clock.now());
        return findProduct(tx, id)!;
      }
      // Never an absolute write: the admin's difference from what they saw (without a seen value,
      // from the count read above), refused when the count moved meanwhile; held units stay held.
      const variants = variantsOf(tx, id);
      if (variants.length === 1) setAvailable(tx, variants[0]!.id, { quantity, seen: seen.seen ?? existing.quantity, now: writer.clock.now() });
      else if (quantity !== (seen.seen ?? existing.quantity)) failWith({ quantity: SET_EACH_SIZE });
      if (variants.length > 1 && raw.size !== undefined && size !== existing.size) failWith({ size: RENAME_EACH_SIZE });
      followSingleFields(tx, id, { model: fields.model, size }, existing);
      return tx
        .update(products)
        .set({ ...fields, ...(variants.length > 1 ? {} : { size }), imageUrl })
        .where(eq(products.id, id))
        .returning()
        .get();
    });
    if (imageUrl !== existing.imageUrl) writer.images.remove(existing.imageUrl);
    return updated;
  } catch (error) {
    if (imageUrl !== existing.imageUrl) writer.images.remove(imageUrl);
    throw error;
  }
}

/** What a product has behind it: orders that sold it and games played for it. */
export function productHistory(db: Queryable, id: number): ProductHistoryCounts {
  const orders =
    db
      .select({ n: countDistinct(orderItems.orderId) })
      .from(orderItems)
      .where(eq(orderItems.productId, id))
      .get()?.n ?? 0;
  const played =
    db
      .select({ n: countDistinct(games.id) })
      .from(games)
      .where(eq(games.productId, id))
      .get()?.n ?? 0;
  return { orders, games: played };
}

export type Removal = ProductHistoryCounts & { outcome: 'deleted' | 'archived' };

/**
 * Takes a product out of the shop, in the caller's transaction, once nothing is open on it any
 * more (flows/end-product.ts ends what is open first, or refuses). Deleting a product with orders
 * or games would erase players' game records and orders' product links, and one that other areas
 * keep records of (`keptElsewhere`: an auction's bids, a team's members and holds) would take
 * those with it, so such a product is archived instead: it leaves the shop, its history stays.
 * One without history is deleted; its image is the caller's to remove once this commits.
 */
export function retireProductIn(tx: Queryable, clock: Clock, id: number, keptElsewhere: boolean): Removal & { imageUrl?: string } {
  const existing = findProduct(tx, id);
  if (!existing) throw new DomainError(404, 'Product not found');
  const history = productHistory(tx, id);
  if (history.orders > 0 || history.games > 0 || keptElsewhere) {
    if (existing.archivedAt === null) tx.update(products).set({ archivedAt: clock.now() }).where(eq(products.id, id)).run();
    // Nobody can buy it any more; a won prize's line stays for its winner.
    tx.delete(cartItems)
      .where(and(eq(cartItems.productId, id), eq(cartItems.type, 'regular')))
      .run();
    return { outcome: 'archived', ...history };
  }
  tx.delete(products).where(eq(products.id, id)).run();
  return { outcome: 'deleted', ...history, imageUrl: existing.imageUrl };
}

/** Puts an archived product back in the shop as it was. */
export function restoreProduct(writer: CatalogWriter, id: number): Product {
  const existing = findProduct(writer.db, id);
  if (!existing) throw new DomainError(404, 'Product not found');
  if (existing.archivedAt === null) return existing;
  return writer.db.update(products).set({ archivedAt: null }).where(eq(products.id, id)).returning().get();
}
