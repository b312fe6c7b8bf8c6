import type { ReactNode } from 'react';
import { TrophyIcon } from '../../../shared/ui/icons.tsx';
import type { winners } from '../../../domain/games/views.ts';
import type { WinnerEntry } from '../../../domain/auctions/lists.ts';
import { formatCompactScore } from '../../../shared/format.ts';
import { formatDollars } from '../../../shared/money.ts';
import { competitionHref, EmptyCard, GameRecordLink, GameSize, Thumb } from './parts.tsx';

type Winner = ReturnType<typeof winners>[number];
type AuctionWinner = Extract<WinnerEntry, { kind: 'auction' }>;

const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', month: 'short', day: 'numeric', year: 'numeric' });

/** One winner's card: the product's picture, who won, the product's link, then what it was won with. */
function WinnerCard({ data, winner, href, children }: { data: Record<string, number>; winner: Winner | AuctionWinner; href: string; children: ReactNode }) {
  return (
    <li {...data} className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-3 sm:p-4">
      <Thumb product={{ brand: winner.productName, model: '', imageUrl: winner.imageUrl }} type={winner.productType} />
      <div className="min-w-0 flex-1">
        <p className="m-0 flex items-center gap-2 font-bold">
          <TrophyIcon className="h-4 w-4 shrink-0 text-amber-500" />
          <span className="truncate">{winner.username}</span>
        </p>
        <a href={href} className="block truncate text-sm text-slate-700 no-underline hover:underline">
          {winner.productName}
          <GameSize size={'size' in winner ? winner.size : undefined} />
        </a>
        <p className="m-0 mt-1 flex flex-wrap gap-x-3 text-xs text-slate-600">{children}</p>
      </div>
    </li>
  );
}

/** Winners: the latest settled games and won auctions, and who won them. */
export function WinnersTab({ list }: { list: WinnerEntry[] }) {
  if (list.length === 0) {
    return (
      <EmptyCard>
        <p className="m-0 text-slate-600">No winners yet. The first prize could be yours!</p>
        <a href="/scoreboard" className="mt-3 inline-block font-semibold text-sea-dark">
          See active games
        </a>
      </EmptyCard>
    );
  }
  return (
    <ul className="m-0 grid list-none grid-cols-1 gap-3 p-0 md:grid-cols-2">
      {list.map((winner) => {
        if (winner.kind === 'auction') {
          return (
            <WinnerCard
              key={`auction-${winner.auctionId}`}
              data={{ 'data-auction-id': winner.auctionId }}
              winner={winner}
              href={`/product/${winner.productId}`}
            >
              <span>
                {'won at auction for '}
                <strong className="text-ink tabular-nums">{formatDollars(winner.price)}</strong>
              </span>
              <time dateTime={new Date(winner.date).toISOString()}>{dateFormat.format(winner.date)}</time>
            </WinnerCard>
          );
        }
        return (
          <WinnerCard key={winner.gameId} data={{ 'data-game-id': winner.gameId }} winner={winner} href={competitionHref(winner.productId)}>
            <span>
              {'Score '}
              <strong className="text-ink tabular-nums">{formatCompactScore(winner.score)}</strong>
            </span>
            {winner.date !== null && <time dateTime={new Date(winner.date).toISOString()}>{dateFormat.format(winner.date)}</time>}
            {winner.donated && <span className="font-semibold text-emerald-700">Donated</span>}
            <GameRecordLink gameId={winner.gameId} />
          </WinnerCard>
        );
      })}
    </ul>
  );
}

/**
 * On Active Games, the games settled in the last hour: a game that just ended leaves the live
 * list, and without this it would seem to vanish rather than end with a winner.
 */
export function JustFinished({ list }: { list: Winner[] }) {
  if (list.length === 0) return null;
  return (
    <section aria-labelledby="just-finished" data-just-finished="" className="mb-4 rounded-2xl border border-amber-200 bg-amber-50 p-4">
      <h2 id="just-finished" className="m-0 text-base font-bold">
        Just finished
      </h2>
      <ul className="m-0 mt-2 grid list-none gap-1 p-0 text-sm">
        {list.map((winner) => (
          <li key={winner.gameId} data-game-id={winner.gameId} className="flex items-start gap-2">
            <TrophyIcon className="mt-0.5 h-4 w-4 shrink-0 text-amber-500" />
            <span className="min-w-0">
              <strong>{winner.username}</strong>
              {` won ${winner.productName} with ${formatCompactScore(winner.score)} points · `}
              <GameRecordLink gameId={winner.gameId} />
            </span>
          </li>
        ))}
      </ul>
      <a href="/scoreboard?tab=winners" className="mt-2 inline-block text-sm font-semibold text-sea-dark">
        See all winners
      </a>
    </section>
  );
}
