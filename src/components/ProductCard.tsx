import { productTitle, stockLabel, type CardProduct, type StockLevel } from '../domain/catalog/catalog.ts';
import { formatDollars } from '../shared/money.ts';
import { Cached } from './Cached.tsx';
import { ProductImage } from './ProductImage.tsx';

/** The card cycles its purchase type by position (spec section 1): buy now, bid, bet (`position % 3` is in the card cache's key). */
const purchaseTypes = ['Buy Now', 'Bid', 'Bet'] as const;

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
 * Spec section 2, product card: links to the product; Pay to the product page, Play to
 * /social-play only when the product has a game to join (issue 27: never a Play that ends in
 * 'Games are not open').
 */
export function ProductCard({
  product,
  position,
  playable,
  eager = false,
  headingLevel = 3,
}: {
  product: CardProduct;
  position: number;
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
          <span className="absolute top-2 right-2 rounded-full bg-white/90 px-2 py-0.5 text-[11px] font-semibold text-slate-700">
            {purchaseTypes[position % 3]}
          </span>
        </div>
        <div className="px-3 pt-3">
          <Heading className="m-0 text-sm font-bold leading-snug line-clamp-1">{name}</Heading>
          <p className="m-0 mt-0.5 text-xs text-slate-600 line-clamp-1">{subtitle}</p>
          <div className="mt-2 flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
            <span className="text-base font-extrabold">{formatDollars(product.price)}</span>
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
export function cardKey(product: CardProduct, position: number, eager: boolean, headingLevel: 2 | 3, playable: boolean): string {
  const { name, subtitle, badge } = productTitle(product);
  const shown = [
    product.id,
    product.productType,
    name,
    subtitle,
    badge ?? '',
    product.model,
    product.price,
    stockLabel(product.quantity),
    product.imageUrl,
    playable,
  ];
  return `card|${headingLevel}|${position % 3}|${eager ? 'eager' : 'lazy'}|${JSON.stringify(shown)}`;
}

/**
 * Cards under a page's h1 are h2s; under a section's h2 (the home galleries) they are h3s.
 * The grid is kept whole under its cards' keys (a kept card's HTML depends on its key alone,
 * so a grid's depends on theirs): a gallery costs one lookup, not one per card.
 */
export function ProductGrid({
  products,
  playable,
  eagerCount = 0,
  headingLevel = 3,
}: {
  products: CardProduct[];
  /** The ids of the products with a game to join (joinableIds). */
  playable: ReadonlySet<number>;
  eagerCount?: number;
  headingLevel?: 2 | 3;
}) {
  const cards = products.map((product, index) => {
    const eager = index < eagerCount;
    const canPlay = playable.has(product.id);
    return { product, index, eager, canPlay, key: cardKey(product, index, eager, headingLevel, canPlay) };
  });
  // Card keys hold no newline (their JSON escapes it): joined by one, they stay apart.
  return (
    <Cached cacheKey={`grid|${cards.map((card) => card.key).join('\n')}`}>
      <div className="grid grid-cols-2 lg:grid-cols-4 gap-3 sm:gap-4">
        {cards.map(({ product, index, eager, canPlay, key }) => (
          <Cached key={product.id} cacheKey={key}>
            <ProductCard product={product} position={index} playable={canPlay} eager={eager} headingLevel={headingLevel} />
          </Cached>
        ))}
      </div>
    </Cached>
  );
}
