import { ProductImage } from '../../../components/ProductImage.tsx';
import type { ProductType } from '../../../domain/catalog/catalog.ts';
export { productLines } from '../../../domain/catalog/catalog.ts';
import type { ReactNode } from 'react';

/** What the scoreboard's tabs share: a product thumbnail, links to a game and to playing, the empty-tab card. */

export function Thumb({
  product,
  type,
  size = 'h-16 w-16',
}: {
  product: { brand: string; model: string; imageUrl: string };
  type: ProductType;
  size?: string;
}) {
  return (
    <div className={`${size} shrink-0 overflow-hidden rounded-xl border border-slate-200 bg-white`}>
      <ProductImage product={{ ...product, productType: type }} size={128} className="h-full w-full object-contain" />
    </div>
  );
}

/** The size a game is for, after the product's name (issue 38: only products sold in several sizes have one). */
export function GameSize({ size }: { size?: string | undefined }) {
  return size ? <span data-game-size="">{` · Size ${size}`}</span> : null;
}

export const competitionHref = (productId: number) => `/product/${productId}?tab=competition`;

/** The game's public record: entries, picks, scores and its seed for checking (/games/{id}). */
export function GameRecordLink({ gameId }: { gameId: number }) {
  return (
    <a href={`/games/${gameId}`} className="font-semibold text-sea-dark no-underline hover:underline">
      Game details<span className="sr-only">{` for game ${gameId}`}</span>
    </a>
  );
}

/** Play Now for a game: for the game's size when it has one (issue 38), so the entry joins that game. */
export function PlayNowLink({ productId, name, size, className = '' }: { productId: number; name: string; size?: string | undefined; className?: string }) {
  return (
    <a
      href={`/play/${productId}${size ? `?size=${encodeURIComponent(size)}` : ''}`}
      className={`inline-block rounded-full bg-coral-dark px-4 py-2 text-center text-sm font-extrabold tracking-wide text-white no-underline hover:bg-coral ${className}`}
    >
      PLAY NOW<span className="sr-only">{` for ${name}${size ? ` in size ${size}` : ''}`}</span>
    </a>
  );
}

/** A tab with nothing in it yet: what to do instead. */
export function EmptyCard({ children }: { children: ReactNode }) {
  return <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center">{children}</div>;
}
