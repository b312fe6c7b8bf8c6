import { Island } from '../../../components/Island.tsx';
import { formatDateTime } from '../../../components/format.ts';
import type { userPlays } from '../../../domain/games/views.ts';
import { formatCompactScore } from '../../../shared/format.ts';
import { competitionHref, EmptyCard, GameRecordLink, GameSize, productLines, Thumb } from './parts.tsx';

type UserPlay = ReturnType<typeof userPlays>[number];

function playStatus(play: UserPlay): { label: string; className: string } {
  if (play.status === 'pending') return { label: 'Payment pending', className: 'bg-amber-100 text-amber-800' };
  switch (play.game.status) {
    case 'waiting':
      return { label: 'Waiting for players', className: 'bg-slate-100 text-slate-700' };
    case 'active':
      return { label: 'Live', className: 'bg-red-600 text-white' };
    case 'completed':
      return play.won ? { label: 'Won', className: 'bg-emerald-100 text-emerald-800' } : { label: 'Lost', className: 'bg-slate-200 text-slate-700' };
    default:
      return { label: 'Canceled', className: 'bg-slate-100 text-slate-600' };
  }
}

/** My Games: the signed-in player's entries, live scores and prizes. */
export function MyGamesTab({ plays, signedIn, charity = null }: { plays: UserPlay[]; signedIn: boolean; charity?: string | null }) {
  if (!signedIn) {
    return (
      <EmptyCard>
        <p className="m-0 font-semibold">Log in to see your games.</p>
        <p className="m-0 mt-1 text-sm text-slate-600">Your entries, live scores and prizes show here.</p>
        <a
          href="/auth?next=%2Fscoreboard%3Ftab%3Dmy-games"
          className="mt-4 inline-block rounded-full bg-ink px-5 py-2.5 text-sm font-bold text-white no-underline"
        >
          Log in
        </a>
      </EmptyCard>
    );
  }
  if (plays.length === 0) {
    return (
      <EmptyCard>
        <p className="m-0 text-slate-600">You have not joined any games yet.</p>
        <a href="/scoreboard" className="mt-3 inline-block font-semibold text-sea-dark">
          See active games
        </a>
      </EmptyCard>
    );
  }
  return (
    <ul className="m-0 grid list-none grid-cols-1 gap-3 p-0">
      {plays.map((play) => {
        const status = playStatus(play);
        const { title, subtitle, label: name } = productLines(play.product);
        const scored = play.game.status === 'active' || play.game.status === 'completed';
        return (
          <li key={play.id} data-play-id={play.id} className={`rounded-2xl border bg-white p-3 sm:p-4 ${play.won ? 'border-emerald-300' : 'border-slate-200'}`}>
            <div className="flex items-start gap-3">
              <Thumb product={play.product} type={play.product.productType} />
              <div className="min-w-0 flex-1">
                <div className="flex items-start justify-between gap-2">
                  <a href={competitionHref(play.productId)} className="min-w-0 font-bold leading-snug text-ink no-underline hover:underline">
                    <span className="block truncate">{title}</span>
                    <span className="block truncate text-sm font-normal text-slate-600">
                      {subtitle}
                      <GameSize size={play.product.size} />
                    </span>
                  </a>
                  <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-bold ${status.className}`}>{status.label}</span>
                </div>
                <dl className="m-0 mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
                  <div className="flex gap-1">
                    <dt className="text-slate-600">Score</dt>
                    <dd className="m-0 font-semibold tabular-nums">{scored ? formatCompactScore(play.score) : '-'}</dd>
                  </div>
                  <div className="flex gap-1">
                    <dt className="text-slate-600">Rank</dt>
                    <dd className="m-0 font-semibold">{play.rank !== null ? `#${play.rank} of ${play.game.participants}` : '-'}</dd>
                  </div>
                  {play.game.status === 'waiting' && (
                    <div className="flex gap-1">
                      <dt className="text-slate-600">Players</dt>
                      <dd className="m-0 font-semibold">{`${play.game.participants}/${play.game.requiredParticipants}`}</dd>
                    </div>
                  )}
                  <div className="flex gap-1">
                    <dt className="sr-only">Record</dt>
                    <dd className="m-0">
                      <GameRecordLink gameId={play.gameId} />
                    </dd>
                  </div>
                </dl>
                {play.prize && (
                  <div className="mt-3 grid gap-2">
                    <p className="m-0 text-sm">
                      <span className="font-semibold">Prize: </span>
                      <span data-prize-state={play.prize.state}>
                        {play.prize.state === 'donated' ? `Donated to ${charity ?? 'charity'}. Thank you!` : play.prize.label}
                      </span>
                      {play.prize.keptUntil !== null && (
                        <span className="text-slate-600">{` · kept for you until ${formatDateTime(play.prize.keptUntil)}`}</span>
                      )}
                    </p>
                    {(play.prize.state === 'to_claim' || play.prize.state === 'in_cart') && (
                      <Island
                        name="PrizeActions"
                        mode="idle"
                        props={{ gameId: play.gameId, productName: name, inCart: play.prize.state === 'in_cart', charity }}
                      />
                    )}
                    {(play.prize.state === 'bought' || play.prize.state === 'delivered') && play.prize.orderId !== null && (
                      <a href={`/orders/${play.prize.orderId}`} className="text-sm font-semibold text-sea-dark">{`View order #${play.prize.orderId}`}</a>
                    )}
                  </div>
                )}
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
