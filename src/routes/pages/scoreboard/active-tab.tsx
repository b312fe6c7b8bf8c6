import { Island } from '../../../components/Island.tsx';
import type { ProductType } from '../../../domain/catalog/catalog.ts';
import { nextTopOfHour } from '../../../domain/games/schedule.ts';
import type { ActiveGameView, activeGamesPage } from '../../../domain/games/views.ts';
import { formatCompactScore } from '../../../shared/format.ts';
import { competitionHref, EmptyCard, GameRecordLink, GameSize, PlayNowLink, productLines, Thumb } from './parts.tsx';

export type ActiveGame = ActiveGameView;
const remainingOf = (game: ActiveGame) => Math.max(0, game.requiredParticipants - game.participants);

/** Spec section 2: games that need 1 more player, with a countdown to the next top of the hour. */
function NextGameCard({ game, others, type, now }: { game: ActiveGame; others: number; type: ProductType; now: number }) {
  const { title, subtitle, label: name } = productLines(game.product);
  const nextHour = nextTopOfHour(now);
  return (
    <section aria-labelledby="next-game-heading" data-next-game="" className="rounded-3xl bg-ink p-5 text-white shadow-lg">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="next-game-heading" className="m-0 text-lg font-extrabold">
          Next Game Starting
        </h2>
        <span className="rounded-full bg-coral px-3 py-1 text-xs font-bold text-white">Needs 1 more!</span>
      </div>
      <div className="mt-4 flex items-center gap-4">
        <Thumb product={game.product} type={type} size="h-20 w-20" />
        <div className="min-w-0 flex-1">
          <a href={competitionHref(game.productId)} className="block font-bold leading-snug text-white no-underline hover:underline">
            <span className="block truncate">{title}</span>
            <span className="block truncate text-sm font-normal text-white/80">
              {subtitle}
              <GameSize size={game.size} />
            </span>
          </a>
          <p className="m-0 mt-0.5 text-sm text-white/80">{`${game.participants}/${game.requiredParticipants} players joined`}</p>
          <div className="mt-2 text-sm text-white/80">
            {'Starts in '}
            <Island
              name="GameCountdown"
              mode="load"
              props={{ target: nextHour, now, doneText: 'Game starting now!', className: 'text-xl font-extrabold text-white' }}
            />
          </div>
        </div>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <PlayNowLink productId={game.productId} name={name} size={game.size} className="px-6 py-2.5" />
        {others > 0 && (
          <span className="text-sm text-white/80">{`+${others} more game${others === 1 ? '' : 's'} need${others === 1 ? 's' : ''} 1 player`}</span>
        )}
      </div>
    </section>
  );
}

function GameRow({ game, type, now }: { game: ActiveGame; type: ProductType; now: number }) {
  const { title, subtitle, label: name } = productLines(game.product);
  const remaining = remainingOf(game);
  const live = game.status === 'active';
  const percent = Math.min(100, Math.round((game.participants / Math.max(1, game.requiredParticipants)) * 100));
  return (
    <li
      data-game-id={game.id}
      data-status={game.status}
      className={`rounded-2xl border bg-white p-3 sm:p-4 ${live ? 'border-red-200' : remaining === 1 ? 'border-coral' : 'border-slate-200'}`}
    >
      <div className="flex items-start gap-3">
        {/* biome-ignore lint/a11y/useAnchorContent: the picture repeats the title's link for pointers; keyboards and screen readers use the title. */}
        <a href={competitionHref(game.productId)} tabIndex={-1} aria-hidden="true">
          <Thumb product={game.product} type={type} />
        </a>
        <div className="min-w-0 flex-1">
          <div className="flex items-start justify-between gap-2">
            <a href={competitionHref(game.productId)} className="min-w-0 font-bold leading-snug text-ink no-underline hover:underline">
              <span className="block truncate">{title}</span>
              <span className="block truncate text-sm font-normal text-slate-600">
                {subtitle}
                <GameSize size={game.size} />
              </span>
            </a>
            {live ? (
              <span className="inline-flex shrink-0 items-center gap-1.5 rounded bg-red-600 px-2 py-0.5 text-xs font-bold text-white">
                <span aria-hidden="true" className="h-1.5 w-1.5 rounded-full bg-white animate-pulse" />
                Live
              </span>
            ) : (
              <span
                className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-bold ${remaining === 1 ? 'bg-coral text-white' : 'bg-slate-100 text-slate-700'}`}
              >
                {remaining === 1 ? 'Needs 1 more!' : remaining === 0 ? 'Starting soon' : `Needs ${remaining} more`}
              </span>
            )}
          </div>
          {live ? (
            <div className="mt-2 grid gap-1 text-sm">
              <div className="text-slate-700">
                {'Ends in '}
                {game.endTime !== null ? (
                  <Island name="GameCountdown" mode="idle" props={{ target: game.endTime, now, doneText: 'Ending now', className: 'font-bold text-ink' }} />
                ) : (
                  <span className="font-bold">soon</span>
                )}
              </div>
              <p className="m-0 text-slate-700">
                {game.leaderUsername ? (
                  <>
                    {'Leader: '}
                    <strong className="text-ink">{game.leaderUsername}</strong>
                    {` with ${formatCompactScore(game.highestScore)} pts`}
                  </>
                ) : (
                  'No scores yet'
                )}
                <span className="text-slate-600">{` · ${game.participants} players · `}</span>
                <GameRecordLink gameId={game.id} />
              </p>
            </div>
          ) : (
            <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
              <div className="min-w-40 flex-1">
                <p className="m-0 text-xs text-slate-600">{`${game.participants}/${game.requiredParticipants} players`}</p>
                <div className="mt-1 h-1.5 rounded-full bg-slate-100" aria-hidden="true">
                  <div className="h-1.5 rounded-full bg-coral-dark" style={{ width: `${percent}%` }} />
                </div>
              </div>
              {remaining === 1 && <PlayNowLink productId={game.productId} name={name} size={game.size} />}
            </div>
          )}
        </div>
      </div>
    </li>
  );
}

/** Active Games (the default tab): one page of live and waiting games, the next one to start first. */
export function ActiveTab({ board, now }: { board: ReturnType<typeof activeGamesPage>; now: number }) {
  const { games, nextGame } = board;
  return (
    <div className="grid grid-cols-1 gap-4">
      {nextGame && <NextGameCard game={nextGame} others={board.almostFull - 1} type={nextGame.product.productType} now={now} />}
      {board.total === 0 ? (
        <EmptyCard>
          <p className="m-0 text-slate-600">No games are running right now. Pick a product and start one for $1!</p>
          <a href="/products" className="mt-3 inline-block font-semibold text-sea-dark">
            Browse products
          </a>
        </EmptyCard>
      ) : (
        <ul className="m-0 grid list-none grid-cols-1 gap-3 p-0 md:grid-cols-2">
          {games.map((game) => (
            <GameRow key={game.id} game={game} type={game.product.productType} now={now} />
          ))}
        </ul>
      )}
    </div>
  );
}
