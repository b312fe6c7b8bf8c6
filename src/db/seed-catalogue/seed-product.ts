import type { ProductType } from '../schema.ts';

/** One demo product; prices in dollars, as an admin would type them. */
export interface SeedProduct {
  productType: ProductType;
  /** For books: the book's title. */
  brand: string;
  /** The title on cards and pages (books use their title, brand). */
  name?: string;
  /** The SKU. */
  model: string;
  /** For books: the page count. */
  size: string;
  quantity: number;
  price: number;
  imageUrl: string;
  /** Sunglasses may start with 'BADGE:{text};;'; books are 'AUTHOR:{author};;{summary}'. */
  description: string;
  playEnabled: boolean;
  bidEnabled?: boolean;
  /** Half price with a friend (team buys). */
  halfPriceEnabled?: boolean;
  /** 'Donate this': bought for the shop's charity partner (issue 29). */
  donateEnabled?: boolean;
  /** Buy one, play free (issue 29): each unit bought gives a free game entry. */
  buyOnePlayFreeEnabled?: boolean;
  /** For the Newest Arrivals order. */
  createdDaysAgo: number;
}
