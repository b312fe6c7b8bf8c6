import type { RefObject } from 'react';
import type { PlayGameProps } from '../../shared/views/games.ts';
import { playPath } from './join.ts';

/**
 * Issue 38: a game is for one size, so a product sold in several asks which before any pick is
 * paid: the prize is that size. Each size is a real link (`?size=M`, the page reloads for that
 * size's game); a size with no game to join is shown, disabled, with why.
 */
export function SizeChoice({
  id,
  productId,
  sizes,
  chosen,
  headingRef,
  onLeave,
}: {
  id: string;
  productId: number;
  sizes: NonNullable<PlayGameProps['sizes']>;
  chosen: number | undefined;
  headingRef: RefObject<HTMLHeadingElement | null>;
  /** Called before following a size's link (the picks are kept for the reload). */
  onLeave: () => void;
}) {
  const picked = sizes.find((size) => size.variantId === chosen);
  return (
    <section aria-labelledby={`${id}-size`} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5" data-size-choice="">
      <h2 id={`${id}-size`} ref={headingRef} tabIndex={-1} className="m-0 text-lg font-bold">
        {picked ? `Size ${picked.size}` : 'Choose a size'}
      </h2>
      <p className="m-0 mt-1 text-sm text-slate-700">The game is for one size: if you win, your prize is that size.</p>
      <ul className="m-0 mt-3 flex list-none flex-wrap gap-2 p-0">
        {sizes.map((size) => {
          const current = size.variantId === chosen;
          const base = 'inline-flex min-h-11 min-w-11 items-center justify-center rounded-xl border-2 px-3 text-sm font-bold no-underline ';
          return (
            <li key={size.variantId}>
              {size.closed ? (
                <span aria-disabled="true" title={size.closed} className={`${base}border-slate-200 text-slate-400 line-through`} data-size={size.size}>
                  {size.size}
                  <span className="sr-only">{size.soldOut ? ' (sold out)' : ' (no game to join now)'}</span>
                </span>
              ) : (
                <a
                  href={playPath(productId, size.size)}
                  onClick={onLeave}
                  aria-current={current ? 'true' : undefined}
                  data-size={size.size}
                  className={`${base}${current ? 'border-coral-dark bg-coral-dark text-white' : 'border-ink text-ink hover:bg-slate-50'}`}
                >
                  {size.size}
                </a>
              )}
            </li>
          );
        })}
      </ul>
      {picked?.closed && (
        <p className="m-0 mt-2 text-sm font-semibold" role="status">
          {picked.closed}
        </p>
      )}
    </section>
  );
}
