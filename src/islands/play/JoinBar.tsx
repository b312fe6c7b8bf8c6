import type { PlayGameProps } from '../../shared/views/games.ts';
import { PICKS } from './join.ts';

/** The join buttons' look, shared by the $1 and the free entry. */
const BUTTON = 'h-12 rounded-xl font-bold cursor-pointer disabled:cursor-wait disabled:opacity-60 ';
const CORAL = 'border-0 bg-coral-dark text-white hover:bg-coral ';

/**
 * The bar fixed above the bottom navigation: the pick count and Join Game while games are open,
 * otherwise why they are closed and the way back to the product. Comes with a spacer so the
 * last row is never hidden behind it.
 */
export function JoinBar({
  id,
  product,
  open,
  closed = null,
  blocked,
  count,
  busy,
  freeEntries = 0,
  onJoin,
}: {
  id: string;
  product: PlayGameProps['product'];
  open: boolean;
  /** Why the chosen size has no game to join (issue 38), when that is why the bar is closed. */
  closed?: string | null;
  /** Why this player may not enter now (self-excluded, daily limit); null when they may. */
  blocked: string | null;
  count: number;
  busy: boolean;
  /** Free entries the player may use (Buy one, play free): the bar then offers one, with the $1 beside it. */
  freeEntries?: number;
  onJoin: (useFreeEntry: boolean) => void;
}) {
  const free = freeEntries > 0;
  const joinButton = (useFreeEntry: boolean, label: string, className: string) => (
    <button
      type="button"
      onClick={() => onJoin(useFreeEntry)}
      disabled={busy}
      aria-describedby={`${id}-count`}
      data-free-entry={useFreeEntry ? '' : undefined}
      className={className}
    >
      {label}
    </button>
  );
  const closedMessage = closed
    ? closed
    : !product.playEnabled
      ? 'Games are not open for this product.'
      : product.quantity <= 0
        ? 'This product is out of stock, so no game can be played for it right now.'
        : null;

  return (
    <>
      {/* Room for the fixed bar, so the last row is never hidden behind it. */}
      <div aria-hidden="true" className="h-4 lg:col-span-2" />

      <div
        data-join-bar=""
        className="fixed inset-x-0 bottom-16 md:bottom-0 z-30 border-t border-slate-200 bg-white/95 shadow-[0_-4px_16px_rgba(15,42,68,0.08)] backdrop-blur"
        style={{ marginBottom: 'env(safe-area-inset-bottom, 0px)' }}
      >
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          {open && blocked ? (
            <>
              <p className="m-0 text-sm font-semibold" role="status" data-blocked="">
                {blocked}
              </p>
              <a href="/profile?tab=play" className="shrink-0 rounded-xl bg-ink px-4 py-2.5 text-sm font-bold text-white no-underline hover:bg-ink-light">
                Play settings
              </a>
            </>
          ) : open ? (
            <>
              <div className="min-w-0">
                <p className="m-0 text-sm font-bold" aria-live="polite" id={`${id}-count`}>
                  {`${count}/${PICKS} selected`}
                </p>
                <div className="mt-1 flex gap-1" aria-hidden="true">
                  {Array.from({ length: PICKS }, (_, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the five slots are positions, not items.
                    <span key={index} className={`h-1.5 w-5 rounded-full ${index < count ? 'bg-coral-dark' : 'bg-slate-200'}`} />
                  ))}
                </div>
              </div>
              <div className={free ? 'flex w-full gap-2 sm:ml-auto sm:w-auto' : 'ml-auto flex'}>
                {free &&
                  joinButton(
                    true,
                    busy ? 'Joining...' : 'Join Game - Free entry',
                    `${BUTTON}${CORAL}flex-auto whitespace-nowrap px-3 text-sm sm:flex-none sm:px-5 sm:text-base`,
                  )}
                {joinButton(
                  false,
                  busy && !free ? 'Joining...' : 'Join Game - $1',
                  free
                    ? `${BUTTON}flex-auto whitespace-nowrap border-2 border-ink bg-white px-3 text-sm text-ink hover:bg-slate-50 sm:flex-none sm:px-4`
                    : `${BUTTON}${CORAL}shrink-0 px-6 text-base`,
                )}
              </div>
            </>
          ) : (
            <>
              <p className="m-0 text-sm font-semibold" role="status">
                {closedMessage}
              </p>
              <a
                href={`/product/${product.id}`}
                className="shrink-0 rounded-xl bg-ink px-4 py-2.5 text-sm font-bold text-white no-underline hover:bg-ink-light"
              >
                Back to product
              </a>
            </>
          )}
        </div>
      </div>
    </>
  );
}
