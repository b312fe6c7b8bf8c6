import { shareCardPath } from '../../domain/catalog/share-cards.ts';
import { productLabel, productTitle, type ProductView } from '../../domain/catalog/catalog.ts';
import type { Variant } from '../../domain/inventory/variants.ts';
import { variantPrice } from '../../domain/catalog/sizes.ts';
import type { AuctionView } from '../../shared/views/auctions.ts';

/*
 * What search engines read of a product page (schema.org): a `Product` with its `Offer`, or for
 * a product sold in several sizes a `ProductGroup` whose `hasVariant` lists each size as a
 * `Product` with its own SKU, price and availability (issue 38 item 6).
 */

/** Taking bids, or about to: the auction panel stands where Pay Now does. */
export const isOpen = (auction: AuctionView | undefined): auction is AuctionView => auction?.status === 'running' || auction?.status === 'scheduled';

const availability = (quantity: number) => (quantity > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock');

/** The Offer a search engine reads: an open auction's price is its current bid (or starting bid), from when bidding opens. */
function offerOf(product: ProductView, base: string, auction: AuctionView | undefined) {
  const offer = {
    '@type': 'Offer',
    url: `${base}/product/${product.id}`,
    price: product.price.toFixed(2),
    priceCurrency: 'USD',
    availability: availability(product.quantity),
    itemCondition: 'https://schema.org/NewCondition',
  };
  if (!isOpen(auction)) return offer;
  return {
    ...offer,
    price: (auction.currentPrice ?? auction.minimumBid).toFixed(2),
    availability: 'https://schema.org/InStock',
    availabilityStarts: auction.startsAt,
    availabilityEnds: auction.endsAt,
  };
}

/** One size of a ProductGroup: its page is the product's with that size chosen. */
function variantOf(product: ProductView, variant: Variant, base: string) {
  return {
    '@type': 'Product',
    name: `${productLabel(product)}, size ${variant.size}`,
    sku: variant.sku,
    size: variant.size,
    offers: {
      '@type': 'Offer',
      url: `${base}/product/${product.id}?size=${encodeURIComponent(variant.size)}`,
      price: variantPrice(product, variant).toFixed(2),
      priceCurrency: 'USD',
      availability: availability(variant.quantity),
      itemCondition: 'https://schema.org/NewCondition',
    },
  };
}

export function productJsonLd(product: ProductView, variants: readonly Variant[], base: string, auction: AuctionView | undefined) {
  const { name, author, text } = productTitle(product);
  const isBook = product.productType === 'book';
  const absolute = (url: string) => (url.startsWith('/') ? `${base}${url}` : url);
  const about = {
    '@context': 'https://schema.org',
    image: [absolute(shareCardPath(product)), absolute(product.imageUrl)],
    description: text || undefined,
    brand: isBook ? undefined : { '@type': 'Brand', name: product.brand },
  };
  if (variants.length > 1) {
    return {
      ...about,
      '@type': 'ProductGroup',
      name: productLabel(product),
      productGroupID: product.model,
      variesBy: 'https://schema.org/size',
      hasVariant: variants.map((variant) => variantOf(product, variant, base)),
    };
  }
  const pages = isBook && product.size ? Number.parseInt(product.size, 10) : Number.NaN;
  return {
    ...about,
    // A book is both: Product carries the offer, Book the author and pages.
    '@type': isBook ? ['Product', 'Book'] : 'Product',
    name: isBook ? name : productLabel(product),
    sku: product.model,
    author: author ? { '@type': 'Person', name: author } : undefined,
    numberOfPages: Number.isFinite(pages) && pages > 0 ? pages : undefined,
    offers: offerOf(product, base, auction),
  };
}
