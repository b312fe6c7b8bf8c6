import { ProductGrid } from '../../components/ProductCard.tsx';
import { productView, type ProductView } from '../../domain/catalog/catalog.ts';
import type { Queryable } from '../../db/client.ts';
import { productsWithOpenGames } from '../../domain/games/openness.ts';
import { liveAuctionsFor } from '../../domain/auctions/lists.ts';

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
          <ProductGrid products={others} playable={new Set(others.map((other) => other.id))} auctions={auctions} now={now} />
        </section>
      )}
    </div>
  );
}
