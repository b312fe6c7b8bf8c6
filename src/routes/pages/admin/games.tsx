import { Pager } from '../../../components/Pager.tsx';
import { FINISHED_SHOWN, OPEN_SHOWN, type listGamesForAdmin } from '../../../domain/games/admin-games.ts';
import type { AdminGame, GameStatus } from '../../../domain/games/admin-games.ts';

/* The admin's Games tab: every game by state, with its entries, times and holds, and Cancel game. */

/** The store's zone (DESIGN section 2), named so an admin elsewhere is not misled. */
const timeFormat = new Intl.DateTimeFormat('en-US', {
  timeZone: 'America/Los_Angeles',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});
const when = (time: number | null) => (time === null ? '—' : timeFormat.format(time));
/** Open games come a page at a time (OPEN_SHOWN of each); `capped` lists stop at the latest FINISHED_SHOWN. */
const sections: { status: GameStatus; title: string; capped?: boolean }[] = [
  { status: 'active', title: 'Live' },
  { status: 'waiting', title: 'Waiting for players' },
  { status: 'completed', title: 'Completed', capped: true },
  { status: 'canceled', title: 'Canceled', capped: true },
];

function GameRow({ game }: { game: AdminGame }) {
  const holds = Object.entries(game.holds)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
  const open = game.status === 'waiting' || game.status === 'active';
  return (
    <li data-game-id={game.id} className="flex flex-wrap items-start justify-between gap-3 rounded-xl border border-slate-200 p-3 text-sm">
      <div className="min-w-0 flex-1">
        <p className="m-0 font-bold">
          <a href={`/games/${game.id}`} className="text-ink">{`Game #${game.id}`}</a>
          {` · ${game.product.name}`}
        </p>
        <p className="m-0 mt-1 text-slate-600">
          {`${game.entries}/${game.requiredParticipants} entries · opened ${when(game.createdAt)}`}
          {game.startTime !== null && ` · ${when(game.startTime)} to ${when(game.endTime)}`}
          {game.cancelReason && ` · ${game.cancelReason}`}
        </p>
        <p className="m-0 mt-1 text-slate-600">{`Holds: ${holds || 'none'}`}</p>
      </div>
      {open && (
        <a
          href={`/admin/games/${game.id}/cancel`}
          className="rounded-lg border border-red-300 px-3 py-1.5 font-bold text-red-700 no-underline hover:border-red-600"
        >
          Cancel game
        </a>
      )}
    </li>
  );
}

export function GamesTab({ games, page = 1 }: { games: ReturnType<typeof listGamesForAdmin>; page?: number }) {
  const title = (status: GameStatus, name: string, capped?: boolean) => {
    if (capped) return `${name} (${games[status].length === FINISHED_SHOWN ? `latest ${FINISHED_SHOWN}` : games[status].length})`;
    const total = games.openCounts[status as 'active' | 'waiting'];
    return total > OPEN_SHOWN ? `${name} (${total}, page ${page})` : `${name} (${total})`;
  };
  const more = page * OPEN_SHOWN < Math.max(games.openCounts.active, games.openCounts.waiting);
  return (
    <div className="grid gap-5">
      {sections.map(({ status, title: name, capped }) => (
        <section key={status} aria-label={name} data-status={status} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
          <h2 className="m-0 mb-3 text-lg font-bold">{title(status, name, capped)}</h2>
          {games[status].length === 0 ? (
            <p className="m-0 text-sm text-slate-600">None.</p>
          ) : (
            <ul className="m-0 grid list-none gap-2 p-0">
              {games[status].map((game) => (
                <GameRow key={game.id} game={game} />
              ))}
            </ul>
          )}
          {status === 'waiting' && <Pager base="/admin?tab=games&" page={page} hasNext={more} label="Open games" />}
        </section>
      ))}
    </div>
  );
}
