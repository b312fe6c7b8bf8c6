import { ProductGrid } from '../../components/ProductCard.tsx';
import { productView, type ProductView } from '../../domain/catalog/catalog.ts';
import type { Queryable } from '../../db/client.ts';
import { productsWithOpenGames } from '../../domain/games/openness.ts';
import { liveAuctionsFor } from '../../domain/auctions/lists.ts';
import { cardSizesOf } from '../../domain/catalog/sizes.ts';

/**
 * /play/{id} for a product with no game to join (issue 27, item 1): said before any pick, with
 * products whose games are open, instead of five picks that end in a refusal.
 */
export function PlayClosed({ db, now, product, name, reason }: { db: Queryable; now: number; product: ProductView; name: string; reason: string }) {
  const others = productsWithOpenGames(db, product.id).map(productView);
  const auctions = liveAuctionsFor(
    db,
    others.map((other) => other.id),
    now,
  );
  return (
    <div className="grid gap-6">
      <section aria-labelledby="play-closed-title" className="rounded-2xl border border-slate-200 bg-white p-5 sm:p-6">
        <p className="m-0 text-xs font-semibold uppercase tracking-widest text-coral-dark">Play Now</p>
        <h1 id="play-closed-title" className="m-0 mt-1 text-2xl font-extrabold leading-tight">
          {name}
        </h1>
        <p className="m-0 mt-3 font-semibold" role="status" data-no-game="">
          {reason}
        </p>
        <p className="m-0 mt-1 text-sm text-slate-600">
          {product.quantity > 0 ? 'You can still buy it, with free delivery in Laguna Beach (92651) within 2-3 hours.' : 'Check back soon.'}
        </p>
        <div className="mt-4 flex flex-wrap gap-3">
          <a href={`/product/${product.id}`} className="rounded-xl bg-ink px-4 py-2.5 text-sm font-bold text-white no-underline hover:bg-ink-light">
            Back to product
          </a>
          <a href="/scoreboard" className="rounded-xl border-2 border-ink px-4 py-2 text-sm font-bold text-ink no-underline hover:bg-slate-50">
            See games on the Scoreboard
          </a>
        </div>
      </section>
      {others.length > 0 && (
        <section aria-labelledby="open-games-title">
          <h2 id="open-games-title" className="m-0 mb-3 text-xl font-extrabold">
            Products with a game to join
          </h2>
          <ProductGrid products={others} playable={new Set(others.map((other) => other.id))} auctions={auctions} sizes={cardSizesOf(db, others)} now={now} />
        </section>
      )}
    </div>
  );
}

/** Games to join at most on /play. */
const LISTED_GAMES = 24;

/**
 * /play: every product with a game taking entries now, the ones closest to starting first. A free
 * entry's 'Find a game to join' leads here (issue 37 item 11): each card is a game the entry can
 * join, where the Active tab lists games already running, which take no entries.
 */
export function GamesToJoin({ db, now }: { db: Queryable; now: number }) {
  const open = productsWithOpenGames(db, 0, LISTED_GAMES).map(productView);
  const auctions = liveAuctionsFor(
    db,
    open.map((product) => product.id),
    now,
  );
  return (
    <div className="grid gap-5">
      <div>
        <h1 className="m-0 text-2xl font-extrabold sm:text-3xl">Games to join</h1>
        <p className="m-0 mt-2 max-w-2xl text-slate-700">
          Each of these products has a game taking entries now. Join for $1, or with a free game entry if you have one: the highest score wins the product for
          $1.
        </p>
      </div>
      {open.length === 0 ? (
        <div className="rounded-xl bg-white p-8 text-center text-slate-600" data-no-games="">
          <p className="m-0">No game is taking entries right now. Free entries keep for 30 days: check back soon.</p>
          <a href="/scoreboard" className="mt-3 inline-block font-semibold text-sea-dark">
            See games on the Scoreboard
          </a>
        </div>
      ) : (
        <ProductGrid products={open} playable={new Set(open.map((product) => product.id))} auctions={auctions} sizes={cardSizesOf(db, open)} now={now} />
      )}
    </div>
  );
}
