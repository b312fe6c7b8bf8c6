import { formatDollars } from '../../shared/money.ts';
import type { PlayGameProps } from '../../shared/views/games.ts';

/** The product card at the top of Play Now: image, price, the $1 entry and how full the next game is. */
export function ProductSummary({ id, product, game, open }: { id: string; product: PlayGameProps['product']; game: PlayGameProps['game']; open: boolean }) {
  const required = Math.max(1, game.requiredParticipants);
  const progress = Math.min(100, Math.round((game.entries / required) * 100));
  const missing = Math.max(0, game.requiredParticipants - game.entries);

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
      <div className="flex gap-4">
        <img
          src={product.imageUrl}
          alt={`${product.brand} ${product.subtitle}`}
          width={160}
          height={160}
          fetchPriority="high"
          data-fallback={product.fallbackImageUrl ?? undefined}
          className="h-24 w-24 shrink-0 rounded-xl bg-slate-50 object-contain sm:h-32 sm:w-32"
        />
        <div className="min-w-0">
          <p className="m-0 text-xs font-semibold uppercase tracking-widest text-coral-dark">Play Now</p>
          <h1 id={`${id}-title`} className="m-0 mt-1 text-xl font-extrabold leading-tight sm:text-2xl">
            {product.brand}
          </h1>
          <p className="m-0 mt-0.5 truncate text-sm text-slate-600">{product.subtitle}</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <span className="text-lg font-extrabold">{formatDollars(product.price)}</span>
            <span className="rounded-full bg-coral/10 px-2.5 py-0.5 text-sm font-bold text-coral-dark">Entry: $1</span>
          </div>
        </div>
      </div>
      {open && (
        <div className="mt-4">
          <div className="flex items-baseline justify-between gap-2 text-sm">
            <p id={`${id}-progress`} className="m-0 font-semibold">
              {`${game.entries} of ${game.requiredParticipants} players joined`}
            </p>
            <p className="m-0 text-slate-600">{missing > 0 ? `${missing} more to start` : 'Starts at the top of the hour'}</p>
          </div>
          <div
            role="progressbar"
            aria-labelledby={`${id}-progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={progress}
            className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-200"
          >
            <div className="h-full rounded-full bg-coral-dark" style={{ width: `${progress}%` }} />
          </div>
          {game.live && <p className="m-0 mt-2 text-sm text-slate-600">A game for this product is live right now. Joining enters you in the next one.</p>}
          {game.afterFull && (
            <p className="m-0 mt-2 text-sm text-slate-600" data-after-full="">
              The current game is full and starts at the top of the hour. Each game takes exactly its players, so joining enters you in the next one.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
