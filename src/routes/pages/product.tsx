import { Hono } from 'hono';
import type { Db } from '../../db/client.ts';
import { shareCardImage, sharePreview } from '../../domain/catalog/share-cards.ts';
import { chosenVariant, isSizeOf, variantPrice } from '../../domain/catalog/sizes.ts';
import { variantsOf, type Variant } from '../../domain/inventory/variants.ts';
import { isOpen, productJsonLd } from './product-json-ld.ts';
import { Island } from '../../components/Island.tsx';
import { DonateThis } from '../../components/DonateThis.tsx';
import { StockBadge } from '../../components/ProductCard.tsx';
import { ProductImage } from '../../components/ProductImage.tsx';
import { MysteryBoxLink } from '../../components/MysteryLinks.tsx';
import {
  findProduct,
  productIdOf,
  productLabel,
  productTitle,
  productTypeLabels,
  productView,
  stockLabel,
  type ProductView,
} from '../../domain/catalog/catalog.ts';
import { currentAuctionOf } from '../../domain/auctions/auction-rows.ts';
import { auctionView } from '../../domain/auctions/views.ts';
import { competitionView } from '../../domain/games/views.ts';
import { whyNoGameToJoin } from '../../domain/games/openness.ts';
import { hasEntryInShownGames, shownGamesKey } from '../../domain/games/queries.ts';
import { cachePages } from '../../http/page-cache-middleware.ts';
import type { PageKey } from '../../http/page-cache.ts';
import { joinKeys, timeKey, timeless } from '../../http/page-cache-clock.ts';
import { formatDollars } from '../../shared/money.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { renderPage } from '../../http/render.tsx';
import type { AuctionView } from '../../shared/views/auctions.ts';
import type { CompetitionData } from '../../shared/views/games.ts';
import { productNoLongerSold, productNotFound } from './not-found.tsx';
import { ProductTeamSection } from './product-team.tsx';
import { openTeamsOf, productTeamsView } from '../../domain/promotions/teams-views.ts';
import type { ProductTeamsView } from '../../shared/views/teams.ts';
import { BuyOnePlayFreeNote } from './free-entries.tsx';

type Tab = 'details' | 'competition';

/** The sizes on the page (issue 38): the product's variants in the picker's order, and the one `?size=` chose. */
interface PageSizes {
  variants: Variant[];
  chosen: Variant | undefined;
}

function Details({ product, bidding, left, size }: { product: ProductView; bidding: boolean; left: number; size: string | undefined }) {
  const { author, text } = productTitle(product);
  const isBook = product.productType === 'book';
  const rows: [string, string][] = [
    ['Type', productTypeLabels[product.productType].singular],
    [isBook ? 'Title' : 'Brand', product.brand],
    ...(author ? ([['Author', author]] as [string, string][]) : []),
    ['SKU', product.model],
    ...(product.size ? ([[isBook ? 'Pages' : 'Size', product.size]] as [string, string][]) : []),
    [
      'Availability',
      // The auction's unit is held off the shelf: it is for sale, by bidding.
      bidding ? 'Up for auction' : left > 0 ? `${stockLabel(left)} (${left} left${size ? ` in size ${size}` : ''})` : 'Out of Stock',
    ],
  ];
  return (
    <div>
      {text && <p className="m-0 mb-4 leading-relaxed text-slate-700">{text}</p>}
      <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="m-0 font-medium">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function ProductDetail({
  product,
  tab,
  competition,
  now,
  url,
  viewerId,
  noGame,
  auction,
  teams = null,
  signedIn = false,
  charity,
  sizes,
}: {
  sizes: PageSizes;
  /** Half price with a friend (product-team.tsx); null when the product is not ticked for it. */
  teams?: ProductTeamsView | null;
  /** A shopper with a session (the team section is an island for them only). */
  signedIn?: boolean;
  product: ProductView;
  /** The product's auction as everyone sees it (the panel re-reads the viewer's own part); undefined without one. */
  auction: AuctionView | undefined;
  /** The charity partner 'Donate this' buys for (null: none set up, no button). */
  charity: string | null;
  /** Why no game of it can be joined now (domain/games/openness.ts); null when Play Now leads to one. */
  noGame: string | null;
  tab: Tab;
  competition: CompetitionData | null;
  now: number;
  url: string;
  viewerId: number | null;
}) {
  const { name, subtitle, badge, text } = productTitle(product);
  const sized = sizes.variants.length > 1;
  // A size the page names as chosen: only where there is a choice (a one-size product's page is as it always was).
  const chosen = sized ? sizes.chosen : undefined;
  // The stock line and the price are the chosen size's, else the product's (its sizes summed).
  const left = chosen ? chosen.quantity : product.quantity;
  const price = chosen ? variantPrice(product, chosen) : product.price;
  const soldOut = left <= 0;
  // Several sizes, none chosen, some left: every buy control waits for a size rather than send a request that is refused.
  const needsSize = sized && !chosen && !soldOut;
  const variantId = chosen?.id;
  const sizeQuery = chosen ? `size=${encodeURIComponent(chosen.size)}` : '';
  const bidding = isOpen(auction);
  // While an auction is open its unit is held: the panel offers Buy Now beside it while its view says so (gone live at the first bid).
  const payNow = !bidding;
  const tabs: { key: Tab; label: string; href: string }[] = [
    { key: 'details', label: 'Product Details', href: `/product/${product.id}${sizeQuery ? `?${sizeQuery}` : ''}` },
    { key: 'competition', label: 'Social Competition', href: `/product/${product.id}?tab=competition${sizeQuery ? `&${sizeQuery}` : ''}` },
  ];
  return (
    <div className="grid gap-6 md:grid-cols-2 md:gap-10">
      <div className="relative self-start overflow-hidden rounded-3xl border border-slate-200 bg-white">
        <ProductImage product={product} eager size={600} className="w-full aspect-square object-contain" />
        {badge && <span className="absolute top-3 left-3 rounded-full bg-coral-dark px-3 py-1 text-xs font-bold text-white">{badge}</span>}
      </div>
      <div>
        <p className="m-0 text-xs font-semibold uppercase tracking-widest text-slate-600">{productTypeLabels[product.productType].singular}</p>
        <h1 className="m-0 mt-1 text-3xl font-extrabold leading-tight">{name}</h1>
        <p className="m-0 mt-1 text-lg text-slate-600">{subtitle}</p>
        {/* While bidding, the panel shows the price; the held unit is no 'Out of Stock'. */}
        {(!bidding || noGame === null) && (
          <div className="mt-4 flex flex-wrap items-center gap-3">
            {!bidding && <span className="text-3xl font-extrabold">{formatDollars(price)}</span>}
            {noGame === null && <span className="rounded-full bg-coral/10 px-3 py-1 text-sm font-bold text-coral-dark">Entry: $1</span>}
            {!bidding && <StockBadge quantity={left} />}
          </div>
        )}
        {sized && (
          <Island
            name="SizePicker"
            props={{
              productId: product.id,
              sizes: sizes.variants.map((variant) => ({ size: variant.size, soldOut: variant.quantity <= 0 })),
              chosen: chosen?.size ?? null,
              ...(tab === 'competition' ? { tab } : {}),
            }}
          />
        )}
        {auction && (
          <div className="mt-6">
            <Island name="AuctionPanel" props={{ productId: product.id, initial: auction, buyNowPrice: product.price, variantId }} />
          </div>
        )}
        {(payNow || noGame === null) && (
          <div className={`mt-6 grid gap-3 ${noGame === null && payNow ? 'grid-cols-2' : 'grid-cols-1'}`}>
            {!payNow ? null : needsSize ? (
              <span aria-disabled="true" className="rounded-xl bg-slate-200 py-3 text-center font-bold text-slate-600">
                Choose a size
              </span>
            ) : soldOut ? (
              <span aria-disabled="true" className="rounded-xl bg-slate-200 py-3 text-center font-bold text-slate-600">
                Pay Now
              </span>
            ) : (
              <a
                href={`/checkout?productId=${product.id}${sizeQuery ? `&${sizeQuery}` : ''}`}
                className="rounded-xl bg-ink py-3 text-center font-bold text-white no-underline hover:bg-ink-light"
              >
                Pay Now
              </a>
            )}
            {noGame === null && (
              <a
                href={`/social-play/${product.id}${sizeQuery ? `?${sizeQuery}` : ''}`}
                className="rounded-xl bg-coral-dark py-3 text-center font-bold text-white no-underline hover:bg-coral"
              >
                Play Now
              </a>
            )}
          </div>
        )}
        {needsSize && !bidding && (
          <button type="button" disabled className="mt-3 w-full rounded-xl border-2 border-slate-300 bg-white py-2.5 font-bold text-slate-600">
            Choose a size
          </button>
        )}
        {!soldOut && !needsSize && !bidding && (
          <form method="post" action="/cart/add" className="mt-3">
            <input type="hidden" name="productId" value={product.id} />
            {variantId !== undefined && <input type="hidden" name="variantId" value={variantId} />}
            <input type="hidden" name="next" value={`/product/${product.id}${sizeQuery ? `?${sizeQuery}` : ''}`} />
            <button type="submit" className="w-full rounded-xl border-2 border-ink bg-white py-2.5 font-bold text-ink cursor-pointer hover:bg-slate-50">
              Add to Cart
            </button>
          </form>
        )}
        {/* Without a size chosen, the checkout it leads to asks for one. */}
        {!soldOut && <DonateThis product={product} charity={charity} variantId={variantId} />}
        <BuyOnePlayFreeNote product={product} />
        <p className="m-0 mt-3 text-sm text-slate-600">
          {bidding
            ? 'The winner gets free delivery in Laguna Beach (92651) within 2-3 hours.'
            : soldOut
              ? chosen
                ? `Size ${chosen.size} is sold out. Choose another size, or check back soon!`
                : 'Sold out for now. Check back soon!'
              : 'Free delivery in Laguna Beach (92651) within 2-3 hours.'}
        </p>
        <MysteryBoxLink product={product} />
        {/* Sold out says it above; a product with games says why none can be joined now. */}
        {product.playEnabled && !soldOut && noGame !== null && (
          <p className="m-0 mt-2 text-sm text-slate-600" data-no-game="">
            {noGame}
          </p>
        )}
        {!soldOut && (
          <ProductTeamSection
            view={teams}
            productName={name}
            now={now}
            signedIn={signedIn}
            variantId={variantId}
            sizeLabel={chosen?.size}
            needsSize={needsSize}
          />
        )}
        <div className="mt-4">
          <Island name="ShareButton" mode="idle" props={{ title: `${name} ${subtitle}`, text: text.slice(0, 140), url }} />
        </div>
        <div className="mt-8">
          {product.playEnabled ? (
            <>
              <nav aria-label="Product sections" className="flex gap-1 border-b border-slate-200">
                {tabs.map((t) => (
                  <a
                    key={t.key}
                    href={t.href}
                    aria-current={tab === t.key ? 'page' : undefined}
                    className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold no-underline ${
                      tab === t.key ? 'border-coral-dark text-ink' : 'border-transparent text-slate-600 hover:text-ink'
                    }`}
                  >
                    {t.label}
                  </a>
                ))}
              </nav>
              <section aria-label={tab === 'details' ? 'Product Details' : 'Social Competition'} className="pt-5">
                {tab === 'details' || !competition ? (
                  <Details product={product} bidding={bidding} left={left} size={chosen?.size} />
                ) : (
                  <Island name="CompetitionPanel" props={{ productId: product.id, initial: competition, now, viewerId }} />
                )}
              </section>
            </>
          ) : (
            <section aria-labelledby="details-heading">
              <h2 id="details-heading" className="m-0 mb-3 text-lg font-bold">
                Product Details
              </h2>
              <Details product={product} bidding={bidding} left={left} size={chosen?.size} />
            </section>
          )}
        </div>
      </div>
    </div>
  );
}

/**
 * The signed-in shopper whose own entry the competition panel marks 'You', or null: the page
 * is then the same for everyone and shared through the page cache. Worked out once per
 * storefront version (an entry moves it), so a shopper's hit reads nothing but the session.
 */
function markedViewer<E extends AppEnv>(c: AppContext<E>, productId: number | null): number | null {
  const user = c.get('user');
  if (!user || productId === null || c.req.query('tab') !== 'competition') return null;
  const { db, pageCache } = c.env.deps;
  return pageCache.remember(`product:${productId}:you:${user.id}`, () => hasEntryInShownGames(db, productId, user.id)) ? user.id : null;
}

/** What a product page's key needs from the database, read once per storefront version. */
interface ProductPageState {
  /** Its games' state (shownGamesKey); ':live' while one is running (scores move every minute). */
  games: string;
  /** Half price with a friend: the team section is an island for shoppers alone. */
  halfPrice: boolean;
  /** When the page changes by the clock alone: its auction's start and end, its listed teams' expiry. */
  moments: number[];
  /** Something on it counts down (an open auction, a team's offer) or scores live. */
  perMinute: boolean;
}

function productPageState(db: Db, id: number, now: number): ProductPageState {
  const games = shownGamesKey(db, id);
  const product = findProduct(db, id);
  const auction = currentAuctionOf(db, id);
  const open = auction !== undefined && (auction.status === 'scheduled' || auction.status === 'running');
  const teams = product?.halfPriceEnabled ? openTeamsOf(db, id, now) : [];
  const moments = [...(open ? [auction.startsAt, auction.endsAt] : []), ...teams.map((team) => team.expiresAt)].sort((a, b) => a - b);
  return { games, halfPrice: product?.halfPriceEnabled === true, moments, perMinute: games.endsWith(':live') || open || teams.length > 0 };
}

/** The product's sizes, read once per storefront version (a stock change moves it) for the key and the page alike. */
const pageVariants = <E extends AppEnv>(c: AppContext<E>, id: number): Variant[] =>
  c.env.deps.pageCache.remember(`product:${id}:variants`, () => variantsOf(c.env.deps.db, id));

/**
 * What the product page shows besides the product, as its cache key: every write it shows moves
 * the storefront version (its games, auction, bids and teams by triggers), and the clock's part
 * comes from moments read once per version (page-cache-clock.ts). No query on a hit. Null (not
 * kept) for a `?size=` the product does not have.
 */
function productPageFingerprint<E extends AppEnv>(c: AppContext<E>): PageKey | null {
  const id = productIdOf(c.req.param('id') ?? '');
  if (id === null) return timeless;
  // `?size=` is kept only for a size the product has: the keys of a page stay as many as its sizes.
  const size = c.req.query('size');
  if (size !== undefined && !isSizeOf(pageVariants(c, id), size)) return null;
  const { db, pageCache, clock } = c.env.deps;
  const state = pageCache.remember(`product:${id}`, () => productPageState(db, id, clock.now()));
  const viewer = markedViewer(c, id);
  // Signed in or not, only where it changes the page: a half-price product's team section is an
  // island for shoppers alone (every other product page is one page for all).
  const signedIn = state.halfPrice && c.get('user') ? 'in' : '';
  return joinKeys(timeKey(state.moments, clock.now(), state.perMinute), state.games, signedIn, viewer === null ? '' : `you:${viewer}`);
}

/** Product detail `/product/{id}` (spec section 2), with JSON-LD for search engines. */
export const productPages = new Hono<AppEnv>().get('/product/:id', cachePages(productPageFingerprint), (c) => {
  const id = productIdOf(c.req.param('id'));
  const stored = id === null ? undefined : findProduct(c.env.deps.db, id);
  if (!stored) return productNotFound(c);
  if (stored.archivedAt !== null) return productNoLongerSold(c, productLabel(stored));
  const product = productView(stored);
  const tab: Tab = product.playEnabled && c.req.query('tab') === 'competition' ? 'competition' : 'details';
  const base = c.env.deps.config.publicUrl;
  const auction = auctionView(c.env.deps.db, product.id, null, c.env.deps.clock.now());
  const variants = pageVariants(c, product.id);
  // An unknown `?size=` shows the page with no size chosen.
  const chosen = chosenVariant(variants, c.req.query('size'));
  const shared = variants.length > 1 && chosen ? { size: chosen.size, price: variantPrice(product, chosen) } : undefined;
  const { title, description } = sharePreview(product, shared);
  return renderPage(
    c,
    {
      title,
      description,
      image: shareCardImage(product),
      price: shared?.price ?? product.price,
      type: 'product',
      path: `/product/${product.id}`,
      jsonLd: productJsonLd(product, variants, base, auction),
    },
    <ProductDetail
      product={product}
      auction={auction}
      noGame={whyNoGameToJoin(c.env.deps.db, stored)}
      tab={tab}
      competition={tab === 'competition' ? competitionView(c.env.deps, product.id) : null}
      now={c.env.deps.clock.now()}
      url={`${base}/product/${product.id}${shared ? `?size=${encodeURIComponent(shared.size)}` : ''}`}
      viewerId={tab === 'competition' ? markedViewer(c, product.id) : null}
      teams={productTeamsView(c.env.deps.db, stored, c.env.deps.clock.now())}
      signedIn={!!c.get('user')}
      charity={c.env.deps.config.charity?.name ?? null}
      sizes={{ variants, chosen }}
    />,
    { backHref: `/products?type=${product.productType}` },
  );
});
