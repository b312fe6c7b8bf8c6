import { Hono } from 'hono';
import { MysteryBoxesHeaderLink } from '../../components/MysteryLinks.tsx';
import { Menu } from '../../components/Menu.tsx';
import { queryOf } from '../../http/request.ts';
import { galleryPageQuery, type ListedWay } from '../../shared/schemas/catalog.ts';
import { WaysToBuySection } from '../../components/WaysToBuy.tsx';
import { offersWay, wayTitles } from '../../domain/catalog/ways-to-buy.ts';
import { gridKey, ProductGrid } from '../../components/ProductCard.tsx';
import { Cached } from '../../components/Cached.tsx';
import {
  gallerySorts,
  homeGalleries,
  listProducts,
  productTypeLabels,
  productTypes,
  type GallerySort,
  type ProductType,
} from '../../domain/catalog/catalog.ts';
import type { AppEnv } from '../../http/context.ts';
import { joinableIds } from '../../domain/games/openness.ts';
import { cachePages } from '../../http/page-cache-middleware.ts';
import { renderPage } from '../../http/render.tsx';
import { SearchForm } from '../../components/SearchForm.tsx';
import { type CardAuction, cardAuctions, liveAuctionMoments, liveAuctionRows } from '../../domain/auctions/lists.ts';
import { timeKey } from '../../http/page-cache-clock.ts';
import { type CardSized, cardSizesOf } from '../../domain/catalog/sizes.ts';
import type { AppContext } from '../../http/context.ts';

/** What the product cards of a listing show besides the products: games to join and auctions (one statement each). */
interface CardExtras {
  playable: ReadonlySet<number>;
  auctions: ReadonlyMap<number, CardAuction>;
  /** The cards' size lines ('S–XL', 'Only L left'). */
  sizes: ReadonlyMap<number, string>;
  now: number;
}

/*
 * A listing's rows change only when the storefront version moves (triggers on products, games,
 * plays, auctions and bids), so they are read once per version and kept (PageCache.remember):
 * a listing rendered again (a search's neighbour, `?r=1`, a signed-in shopper's page) asks the
 * database nothing. The clock's part (an auction's time left) is applied per render. A search
 * is read each time: its rows are its own.
 */
function cardExtras<E extends AppEnv>(c: AppContext<E>, products: readonly CardSized[]): CardExtras {
  const { db, clock, pageCache } = c.env.deps;
  const now = clock.now();
  const ids = products.map((product) => product.id);
  const list = ids.join(',');
  const playable = pageCache.remember(`cards:joinable:${list}`, () => joinableIds(db, ids));
  const auctions = pageCache.remember(`cards:auctions:${list}`, () => liveAuctionRows(db, ids));
  const sizes = pageCache.remember(`cards:sizes:${list}`, () => cardSizesOf(db, products));
  return { playable, auctions: cardAuctions(auctions, now), sizes, now };
}

const listing = <E extends AppEnv>(c: AppContext<E>, query: GalleryQuery) =>
  query.q
    ? listProducts(c.env.deps.db, query)
    : c.env.deps.pageCache.remember(`listing:${query.type ?? ''}:${query.sort}:${query.size ?? ''}`, () => listProducts(c.env.deps.db, query));

/**
 * Listings are kept until the storefront moves (a bid or an auction's change moves it too), and
 * while any auction is live, to the minute (the cards count down) and no later than its next
 * start or end; those moments are read once per storefront version, so a hit runs no query.
 */
export const cacheListings = cachePages((c) => {
  const { db, pageCache, clock } = c.env.deps;
  const moments = pageCache.remember('listings:auction-moments', () => liveAuctionMoments(db));
  return timeKey(moments, clock.now(), moments.length > 0);
});

const homeEager = (index: number) => (index === 0 ? 2 : 0);

/**
 * The home page's content depends on its grids alone (the rest is words and links), so it is
 * rendered once for its grids' keys (`Cached`) and reused by every render of `/` until a card
 * changes: a home page rendered again (`?r=1`, a signed-in shopper's) is the document around it.
 */
function Home({ galleries, extras }: { galleries: ReturnType<typeof homeGalleries>; extras: CardExtras }) {
  const key = productTypes.map((type, index) => gridKey({ products: galleries[type], ...extras, eagerCount: homeEager(index) })).join('\n\n');
  return (
    <Cached cacheKey={`home|${key}`}>
      <HomeContent galleries={galleries} extras={extras} />
    </Cached>
  );
}

function HomeContent({ galleries, extras }: { galleries: ReturnType<typeof homeGalleries>; extras: CardExtras }) {
  return (
    <>
      <section className="rounded-3xl bg-ink text-white px-5 py-7 sm:px-8 sm:py-10 mb-8">
        <p className="m-0 text-xs font-semibold uppercase tracking-widest text-coral-light">Laguna Beach · ZIP 92651</p>
        <h1 className="m-0 mt-2 text-3xl sm:text-4xl font-extrabold leading-tight">Pay for it, or play for it.</h1>
        <p className="m-0 mt-3 max-w-xl text-slate-200">
          Designer sunglasses, tees, shoes and books. Buy now with free delivery in 2-3 hours, or pay $1, pick 5 influencers and win it for $1.
        </p>
        <div className="mt-5 flex flex-wrap gap-3">
          <a href="/scoreboard" className="rounded-full bg-coral-dark px-5 py-2.5 text-sm font-bold text-white no-underline hover:bg-coral">
            See live games
          </a>
          <a href="/tutorial" className="rounded-full bg-white/10 px-5 py-2.5 text-sm font-bold text-white no-underline hover:bg-white/20">
            How it works
          </a>
        </div>
      </section>
      <WaysToBuySection />
      {productTypes.map((type, index) => {
        const label = productTypeLabels[type];
        const items = galleries[type];
        return (
          <section key={type} aria-labelledby={`gallery-${type}`} className="mb-10">
            <div className="mb-3 flex items-baseline justify-between">
              <h2 id={`gallery-${type}`} className="m-0 text-xl font-extrabold">
                {label.plural}
              </h2>
              <a href={`/products?type=${type}`} className="text-sm font-semibold text-sea-dark">
                View All <span className="sr-only">{label.plural}</span>
              </a>
            </div>
            {items.length === 0 ? (
              <p className="rounded-xl bg-white p-6 text-center text-slate-600">{`No ${label.emptyName} available. Check back soon!`}</p>
            ) : (
              <ProductGrid products={items} {...extras} eagerCount={homeEager(index)} />
            )}
          </section>
        );
      })}
    </>
  );
}

interface GalleryQuery {
  type?: ProductType;
  sort: GallerySort;
  q: string;
  /** Only the products a way to buy starts from (team buys, donations). */
  way?: ListedWay;
  /** Only the products with a unit left in this size (`?size=M`). */
  size?: string;
}

function galleryHref(query: GalleryQuery, change: Partial<GalleryQuery>): string {
  const next = { ...query, ...change };
  const params = new URLSearchParams();
  if (next.type) params.set('type', next.type);
  if (next.q) params.set('q', next.q);
  if (next.sort !== 'featured') params.set('sort', next.sort);
  if (next.way) params.set('way', next.way);
  if (next.size) params.set('size', next.size);
  const search = params.toString();
  return search ? `/products?${search}` : '/products';
}

const pill = (active: boolean) =>
  `whitespace-nowrap rounded-full px-4 py-2 text-sm font-semibold no-underline border ${
    active ? 'bg-ink text-white border-ink' : 'bg-white text-ink border-slate-300 hover:border-ink'
  }`;

type GalleryProps = {
  query: GalleryQuery;
  products: ReturnType<typeof listProducts>;
  extras: CardExtras;
  /** The store has a charity partner to donate to. */
  donations: boolean;
};

/**
 * A gallery without a search depends on its type, sort, way and grid alone: kept whole (`Cached`),
 * as the home page's content is. A search's page is rendered each time (its words are its own, and
 * would fill the kept fragments with one entry per search).
 */
function Gallery(props: GalleryProps) {
  const { query, products, extras, donations } = props;
  if (query.q) return <GalleryContent {...props} />;
  const grid = gridKey({ products, ...extras, eagerCount: 2, headingLevel: 2 });
  return (
    <Cached cacheKey={`gallery|${query.type ?? ''}|${query.sort}|${query.way ?? ''}|${query.size ?? ''}|${donations ? 1 : 0}|${grid}`}>
      <GalleryContent {...props} />
    </Cached>
  );
}

function GalleryContent({ query, products, extras, donations }: GalleryProps) {
  const way = query.way ? wayTitles[query.way] : undefined;
  const kind = query.type ? productTypeLabels[query.type].plural : 'All products';
  const heading = way ? (query.type ? `${way.title}: ${kind}` : way.title) : kind;
  return (
    <>
      <div className="flex flex-wrap items-end justify-between gap-3 mb-4">
        <h1 className="m-0 text-2xl sm:text-3xl font-extrabold">{query.q ? `Results for “${query.q}”` : heading}</h1>
        <div className="flex items-baseline gap-4">
          <MysteryBoxesHeaderLink />
          <a href="/auctions" className="text-sm font-semibold text-sea-dark">
            See auctions
          </a>
          <p className="m-0 text-sm text-slate-600" aria-live="polite">
            {products.length === 1 ? '1 product' : `${products.length} products`}
          </p>
        </div>
      </div>
      {way && (
        <p className="m-0 -mt-2 mb-4 max-w-2xl text-sm text-slate-700" data-way-intro={query.way}>
          {way.intro}
        </p>
      )}
      <SearchForm
        id="gallery-search"
        action="/products"
        label="Search by brand, model or description"
        placeholder="Search brand, model or description"
        defaultValue={query.q}
        keep={{ type: query.type, sort: query.sort !== 'featured' ? query.sort : undefined, way: query.way, size: query.size }}
        look="gallery"
      />
      {query.size && <SizeChip query={query} />}
      <div className="flex flex-wrap items-center justify-between gap-3 mb-5">
        <nav aria-label="Product type" className="flex gap-2 overflow-x-auto pb-1 -mx-1 px-1">
          <a href={galleryHref(query, { type: undefined })} className={pill(!query.type)} aria-current={!query.type ? 'page' : undefined}>
            All
          </a>
          {productTypes.map((type) => (
            <a key={type} href={galleryHref(query, { type })} className={pill(query.type === type)} aria-current={query.type === type ? 'page' : undefined}>
              {productTypeLabels[type].plural}
            </a>
          ))}
        </nav>
        <Menu
          id="sort"
          menuName="sort"
          label={`Sort: ${gallerySorts[query.sort]}`}
          button={
            <>
              {`Sort: ${gallerySorts[query.sort]}`} <span aria-hidden="true">▾</span>
            </>
          }
          buttonClassName="flex items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-ink cursor-pointer"
          placement="below-end"
          panelClassName="w-56 rounded-xl border border-slate-200 bg-white p-1 shadow-xl"
        >
          <ul className="m-0 list-none p-0">
            {(Object.keys(gallerySorts) as GallerySort[]).map((sort) => (
              <li key={sort}>
                <a
                  href={galleryHref(query, { sort })}
                  aria-current={query.sort === sort ? 'true' : undefined}
                  className={`block rounded-lg px-3 py-2 text-sm no-underline hover:bg-slate-100 ${query.sort === sort ? 'font-bold text-ink' : 'text-slate-700'}`}
                >
                  {gallerySorts[sort]}
                </a>
              </li>
            ))}
          </ul>
        </Menu>
      </div>
      {products.length === 0 ? (
        <div className="rounded-xl bg-white p-8 text-center text-slate-600">
          {query.q ? (
            <>
              <p className="m-0">{`No products match “${query.q}”. Try another word, or browse all products.`}</p>
              <a href={galleryHref(query, { q: '' })} className="mt-3 inline-block font-semibold text-sea-dark">
                Clear search
              </a>
            </>
          ) : query.way === 'donate' && !donations ? (
            <p className="m-0">Donations open once the store has a charity partner. Check back soon!</p>
          ) : query.size ? (
            <p className="m-0">{`Nothing left in size ${query.size}.`}</p>
          ) : way ? (
            <p className="m-0">{way.empty}</p>
          ) : (
            <p className="m-0">No products available. Check back soon!</p>
          )}
        </div>
      ) : (
        <ProductGrid products={products} {...extras} eagerCount={2} headingLevel={2} />
      )}
    </>
  );
}

/** The size the gallery is filtered to, with a link to show every size again. */
function SizeChip({ query }: { query: GalleryQuery }) {
  return (
    <p className="m-0 mb-4 flex items-center gap-2 text-sm" data-size-filter={query.size}>
      <span className="rounded-full bg-ink px-3 py-1 font-semibold text-white">{`Size ${query.size}`}</span>
      <a href={galleryHref(query, { size: undefined })} className="font-semibold text-sea-dark">
        Show all sizes
      </a>
    </p>
  );
}

/** Home `/` and the gallery `/products?type=&sort=&q=` (works without JavaScript). */
export const catalogPages = new Hono<AppEnv>()
  .get('/', cacheListings, (c) => {
    const galleries = c.env.deps.pageCache.remember('home:galleries', () => homeGalleries(c.env.deps.db));
    const extras = cardExtras(c, Object.values(galleries).flat());
    return renderPage(c, { path: '/' }, <Home galleries={galleries} extras={extras} />);
  })
  .get('/products', cacheListings, queryOf(galleryPageQuery), (c) => {
    const { type, sort = 'featured', q = '', way, size } = c.req.valid('query');
    const query: GalleryQuery = { type, sort, q, way, size };
    const donations = c.env.deps.config.charity !== null;
    const listed = listing(c, query);
    const products = way ? (way === 'donate' && !donations ? [] : listed.filter((product) => offersWay(product, way))) : listed;
    const kind = query.type ? productTypeLabels[query.type].plural : 'Shop';
    const listTitle = way ? `${wayTitles[way].title}${query.type ? `: ${kind}` : ''}` : kind;
    const title = query.q ? `Search: ${query.q}` : size ? `${listTitle} in size ${size}` : listTitle;
    return renderPage(
      c,
      {
        title,
        path: galleryHref({ ...query, q: '', sort: 'featured', size: undefined }, {}),
        description: way
          ? wayTitles[way].intro
          : query.type
            ? `Designer ${productTypeLabels[query.type].emptyName} in Laguna Beach: buy now with 2-3 hour delivery, or play for $1.`
            : undefined,
        // A size's gallery is the type's gallery filtered: search engines index the type's.
        noindex: query.q !== '' || size !== undefined || undefined,
      },
      <Gallery query={query} donations={donations} products={products} extras={cardExtras(c, products)} />,
    );
  });
