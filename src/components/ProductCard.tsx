import { type CardAuction, cardOffers } from '../domain/auctions/lists.ts';
import { productTitle, stockLabel, type CardProduct, type StockLevel } from '../domain/catalog/catalog.ts';
import { formatDollars } from '../shared/money.ts';
import { timeLeftText } from './auction-format.ts';
import { Cached } from './Cached.tsx';
import { ProductImage } from './ProductImage.tsx';

/**
 * The card's purchase badge (spec section 1, issue 28 item 6): a running auction says so with its
 * price and time left; otherwise the card cycles by position among the options the product
 * really offers (Buy Now, Bid, Bet), and says nothing when it offers none.
 */
export function cardBadge(product: CardProduct, position: number, playable: boolean, auction: CardAuction | undefined, now: number): string | null {
  if (auction?.status === 'running') return `Bid · ${formatDollars(auction.price)} · ${timeLeftText(auction.endsAt, now)}`;
  const offers = cardOffers(product, auction, playable);
  return offers.length === 0 ? null : offers[position % offers.length]!;
}

export const stockClass: Record<StockLevel, string> = {
  'In Stock': 'bg-emerald-50 text-emerald-800',
  'Low Stock': 'bg-amber-50 text-amber-800',
  'Out of Stock': 'bg-slate-100 text-slate-700',
};

export function StockBadge({ quantity }: { quantity: number }) {
  const stock = stockLabel(quantity);
  return <span className={`shrink-0 whitespace-nowrap rounded-full px-2 py-0.5 text-[11px] font-semibold ${stockClass[stock]}`}>{stock}</span>;
}

/**
 * A running auction's longer line sits at the foot of the image, clear of the product's own
 * badge, and breaks before the time left on a narrow card rather than cutting it off.
 */
function OfferBadge({ offer }: { offer: string }) {
  const split = offer.lastIndexOf(' · ');
  if (!offer.startsWith('Bid ·') || split < 0) {
    return (
      <span data-offer="" className="absolute top-2 right-2 rounded-full bg-white/90 px-2 py-0.5 text-[11px] font-semibold text-slate-700">
        {offer}
      </span>
    );
  }
  return (
    <span data-offer="" className="absolute bottom-2 left-2 right-2 text-[11px] font-semibold leading-tight">
      <span className="inline-block rounded-xl bg-ink px-2 py-1 text-white">
        <span className="whitespace-nowrap">{`${offer.slice(0, split)} ·`}</span> <span className="whitespace-nowrap">{offer.slice(split + 3)}</span>
      </span>
    </span>
  );
}

/**
 * Spec section 2, product card: links to the product; Pay to the product page, Play to
 * /social-play only when the product has a game to join (issue 27: never a Play that ends in
 * 'Games are not open').
 */
export function ProductCard({
  product,
  offer,
  playable,
  eager = false,
  headingLevel = 3,
  sizes = null,
}: {
  product: CardProduct;
  /** The sizes left ('S–XL', 'Only L left': cardSizeText); null for a product without sizes. */
  sizes?: string | null;
  /** The purchase badge (cardBadge); null for none. */
  offer: string | null;
  /** A game of this product can be joined now (domain/games/openness.ts). */
  playable: boolean;
  eager?: boolean;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const { name, subtitle, badge } = productTitle(product);
  return (
    <article className="group relative flex flex-col overflow-hidden rounded-2xl bg-white border border-slate-200 shadow-sm transition-shadow hover:shadow-md">
      <a href={`/product/${product.id}`} className="block no-underline text-ink">
        <div className="relative aspect-square bg-slate-50">
          <ProductImage product={product} eager={eager} className="w-full h-full object-contain" />
          {badge && <span className="absolute top-2 left-2 rounded-full bg-coral-dark px-2 py-0.5 text-[11px] font-bold text-white">{badge}</span>}
          {offer && <OfferBadge offer={offer} />}
        </div>
        <div className="px-3 pt-3">
          <Heading className="m-0 text-sm font-bold leading-snug line-clamp-1">{name}</Heading>
          <p className="m-0 mt-0.5 text-xs text-slate-600 line-clamp-1">{subtitle}</p>
          {sizes && (
            <p className="m-0 mt-1 text-xs font-semibold text-slate-700" data-sizes="">
              <span className="sr-only">Sizes: </span>
              {sizes}
            </p>
          )}
          <div className="mt-2 flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
            <span className="text-base font-extrabold" data-price="">
              {formatDollars(product.price)}
            </span>
            <StockBadge quantity={product.quantity} />
          </div>
        </div>
      </a>
      <div className={`mt-auto grid gap-2 p-3 ${playable ? 'grid-cols-2' : 'grid-cols-1'}`}>
        <a href={`/product/${product.id}`} className="rounded-lg bg-ink py-2 text-center text-xs font-bold text-white no-underline hover:bg-ink-light">
          Pay<span className="sr-only"> for {name}</span>
        </a>
        {playable && (
          <a href={`/social-play/${product.id}`} className="rounded-lg bg-coral-dark py-2 text-center text-xs font-bold text-white no-underline hover:bg-coral">
            Play<span className="sr-only"> for {name}</span>
          </a>
        )}
      </div>
    </article>
  );
}

/**
 * Everything a card's HTML depends on, as the key it is kept under: what the card shows, not
 * the whole row (a short key is hashed and compared on every page that shows the card).
 */
export function cardKey(
  product: CardProduct,
  offer: string | null,
  eager: boolean,
  headingLevel: 2 | 3,
  playable: boolean,
  sizes: string | null = null,
): string {
  // The JSON array of what the card shows, with the product's part made once per product object
  // (a listing's rows are kept per storefront version, so a page rendered again reuses them).
  let shown = productShown.get(product);
  if (shown === undefined) {
    const { name, subtitle, badge } = productTitle(product);
    const fields = [product.id, product.productType, name, subtitle, badge ?? '', product.model, product.price, stockLabel(product.quantity), product.imageUrl];
    shown = JSON.stringify(fields).slice(0, -1);
    productShown.set(product, shown);
  }
  return `card|${headingLevel}|${eager ? 'eager' : 'lazy'}|${shown},${playable},${JSON.stringify(offer)},${JSON.stringify(sizes)}]`;
}

const productShown = new WeakMap<CardProduct, string>();

/**
 * Cards under a page's h1 are h2s; under a section's h2 (the home galleries) they are h3s.
 * The grid is kept whole under its cards' keys (a kept card's HTML depends on its key alone,
 * so a grid's depends on theirs): a gallery costs one lookup, not one per card.
 */
export interface ProductGridProps {
  products: CardProduct[];
  /** The ids of the products with a game to join (joinableIds). */
  playable: ReadonlySet<number>;
  /** The listed products' auctions not over (liveAuctionsFor: one statement for the grid). */
  auctions: ReadonlyMap<number, CardAuction>;
  /** The listed products' size lines (cardSizesOf: one statement for the grid); none without. */
  sizes?: ReadonlyMap<number, string>;
  now: number;
  eagerCount?: number;
  headingLevel?: 2 | 3;
}

function gridCards({ products, playable, auctions, sizes, now, eagerCount = 0, headingLevel = 3 }: ProductGridProps) {
  return products.map((product, index) => {
    const eager = index < eagerCount;
    const canPlay = playable.has(product.id);
    const offer = cardBadge(product, index, canPlay, auctions.get(product.id), now);
    const sized = sizes?.get(product.id) ?? null;
    return { product, offer, eager, canPlay, sized, key: cardKey(product, offer, eager, headingLevel, canPlay, sized) };
  });
}

// Card keys hold no newline (their JSON escapes it): joined by one, they stay apart.
const gridKeyOf = (cards: ReturnType<typeof gridCards>) => `grid|${cards.map((card) => card.key).join('\n')}`;

/** What a grid's HTML depends on (its cards' keys), for a kept part of a page that holds grids. */
export const gridKey = (props: ProductGridProps): string => gridKeyOf(gridCards(props));

export function ProductGrid(props: ProductGridProps) {
  const { headingLevel = 3 } = props;
  const cards = gridCards(props);
  return (
    <Cached cacheKey={gridKeyOf(cards)}>
      <div className="grid grid-cols-2 lg:grid-cols-4 gap-3 sm:gap-4">
        {cards.map(({ product, offer, eager, canPlay, sized, key }) => (
          <Cached key={product.id} cacheKey={key}>
            <ProductCard product={product} offer={offer} playable={canPlay} eager={eager} headingLevel={headingLevel} sizes={sized} />
          </Cached>
        ))}
      </div>
    </Cached>
  );
}
