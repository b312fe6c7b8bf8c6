import * as z from 'zod/mini';

/*
 * The catalogue's query strings (GET /api/products, /products, /) and the product types and
 * sorts they name. Browser-safe. The page cache keys on the parsed query, so only these keys,
 * in this order, with these values, ever make a cache key.
 */

export const PRODUCT_TYPE_NAMES = ['sunglasses', 'tshirt', 'shoe', 'book'] as const;
export const GALLERY_SORTS = ['featured', 'price-asc', 'price-desc', 'newest'] as const;
export type GallerySortName = (typeof GALLERY_SORTS)[number];
/** The ways to buy that start on a product's page, listed on /products?way= (team buys, donations). */
export const LISTED_WAYS = ['team', 'donate'] as const;
export type ListedWay = (typeof LISTED_WAYS)[number];
export const waysHref = (way: ListedWay) => `/products?way=${way}`;

/** A size as a filter names it: 'M', '10.5', 'One size' (letters, digits, spaces, '.', '/', '-', '+'). */
export const SIZE_FILTER_MESSAGE = 'Use a size of at most 20 letters or digits, such as M or 10.5.';
const sizeFilter = z.string().check(z.trim(), z.regex(/^[\p{L}\p{N}][\p{L}\p{N} ./+-]{0,19}$/u, SIZE_FILTER_MESSAGE));

export const productListQuery = z.object({
  type: z.optional(z.enum(PRODUCT_TYPE_NAMES, { error: 'Use sunglasses, tshirt, shoe or book.' })),
  sort: z.optional(z.enum(GALLERY_SORTS, { error: 'Use featured, price-asc, price-desc or newest.' })),
  q: z.optional(z.string().check(z.trim(), z.maxLength(100, 'Search at most 100 characters.'))),
  // Only products with a unit left in this size (issue 38), matched whatever its case.
  size: z.optional(sizeFilter),
});
export type ProductListQuery = z.infer<typeof productListQuery>;

/** The /products page reads the same query leniently: an unknown value shows the default view (never cached). */
export const galleryPageQuery = z.object({
  type: z.catch(productListQuery.shape.type, undefined),
  sort: z.catch(productListQuery.shape.sort, undefined),
  q: z.catch(z.optional(z.string().check(z.trim(), z.maxLength(100))), undefined),
  way: z.catch(z.optional(z.enum(LISTED_WAYS)), undefined),
  size: z.catch(productListQuery.shape.size, undefined),
});
