import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { products, productTypes, type Product, type ProductType } from '../db/schema.ts';
import { centsToDollars } from './money.ts';

export { productTypes, type ProductType };

export const productTypeLabels: Record<ProductType, { singular: string; plural: string; emptyName: string }> = {
  sunglasses: { singular: 'Sunglasses', plural: 'Sunglasses', emptyName: 'sunglasses' },
  tshirt: { singular: 'T-Shirt', plural: 'T-Shirts', emptyName: 't-shirts' },
  shoe: { singular: 'Shoe', plural: 'Shoes', emptyName: 'shoes' },
  book: { singular: 'Book', plural: 'Books', emptyName: 'books' },
};

export function isProductType(value: unknown): value is ProductType {
  return typeof value === 'string' && (productTypes as readonly string[]).includes(value);
}

export const defaultImageFor = (type: ProductType) => `/static/images/defaults/${type}.svg`;

/**
 * Spec section 3, image path resolution: blank, or containing 'null'/'undefined', gives the
 * type's default image; http(s) and data: URLs are used as they are; other paths get a leading slash.
 */
export function resolveImageUrl(imageUrl: string | null | undefined, type: ProductType): string {
  const value = (imageUrl ?? '').trim();
  if (!value || value.includes('null') || value.includes('undefined')) return defaultImageFor(type);
  if (/^https?:\/\//i.test(value) || value.startsWith('data:')) return value;
  return value.startsWith('/') ? value : `/${value}`;
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

export type StockLevel = 'In Stock' | 'Low Stock' | 'Out of Stock';

/** Spec section 4: above 5 In Stock, 1 to 5 Low Stock, 0 Out of Stock. */
export function stockLabel(quantity: number): StockLevel {
  if (quantity <= 0) return 'Out of Stock';
  return quantity <= 5 ? 'Low Stock' : 'In Stock';
}

/** A product as the API shows it (spec section 7): dollars, resolved image. */
export function productView(product: Product) {
  return {
    id: product.id,
    productType: product.productType,
    brand: product.brand,
    model: product.model,
    size: product.size,
    quantity: product.quantity,
    price: centsToDollars(product.priceCents),
    imageUrl: resolveImageUrl(product.imageUrl, product.productType),
    description: product.description ?? '',
    buyNowEnabled: product.buyNowEnabled,
    bidEnabled: product.bidEnabled,
    playEnabled: product.playEnabled,
    betEnabled: product.playEnabled,
    halfPriceEnabled: product.halfPriceEnabled,
    mysteryBoxEnabled: product.mysteryBoxEnabled,
    buyOnePlayFreeEnabled: product.buyOnePlayFreeEnabled,
    donateEnabled: product.donateEnabled,
    createdAt: product.createdAt,
  };
}

export type ProductView = ReturnType<typeof productView>;

export function productsOfType(db: Db, type: ProductType): ProductView[] {
  return db.select().from(products).where(eq(products.productType, type)).orderBy(asc(products.id)).all().map(productView);
}

/** Home: per type, up to 4 products taken from the first 6 (spec section 2). */
export function homeGalleries(db: Db): Record<ProductType, ProductView[]> {
  const result = {} as Record<ProductType, ProductView[]>;
  for (const type of productTypes) {
    const firstSix = db.select().from(products).where(eq(products.productType, type)).orderBy(asc(products.id)).limit(6).all();
    result[type] = firstSix.slice(0, 4).map(productView);
  }
  return result;
}
