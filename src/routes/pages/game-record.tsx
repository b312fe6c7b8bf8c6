import type { ReactNode } from 'react';
import { Hono } from 'hono';
import { productLabel } from '../../domain/catalog/catalog.ts';
import { publicGame, type PublicGame } from '../../domain/games/audit.ts';
import type { AppEnv } from '../../http/context.ts';
import { renderPage } from '../../http/render.tsx';
import { formatCompactScore } from '../../shared/format.ts';
import { formatStoreDateTime } from '../../shared/store-time.ts';

/*
 * /games/{id}: a game's public record, for players and anyone checking a result. Picks show once
 * the game has started, the seed once it is over (commit and reveal, /rules). Linked from the
 * scoreboard, the product's competition tab and the result notifications.
 */

const when = (time: number | null) => (time === null ? '—' : formatStoreDateTime(time));

const statusLabel: Record<PublicGame['status'], string> = {
  waiting: 'Waiting for players',
  active: 'Live',
  completed: 'Completed',
  canceled: 'Canceled',
};

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-slate-600">{label}</dt>
      <dd className="m-0 min-w-0 break-all font-medium">{children}</dd>
    </div>
  );
}

function GameRecordPage({ game }: { game: PublicGame }) {
  const names = new Map(game.influencers.map((i) => [String(i.id), i.name]));
  const scored = game.status === 'completed' || game.status === 'active';
  return (
    <article className="mx-auto max-w-3xl px-4 py-6" data-game-id={game.id}>
      <p className="m-0 text-sm font-semibold text-slate-600">{`Game #${game.id}`}</p>
      <h1 className="m-0 mt-1 text-2xl font-extrabold">
        {game.product.exists ? (
          <a className="text-ink no-underline hover:underline" href={`/product/${game.product.id}?tab=competition`}>
            {productLabel(game.product)}
          </a>
        ) : (
          productLabel(game.product)
        )}
      </h1>
      <dl className="m-0 mt-4 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        {game.product.size && (
          <Fact label="Size">
            <span data-game-size="">{game.product.size}</span>
          </Fact>
        )}
        <Fact label="Status">
          <span data-status={game.status}>{statusLabel[game.status]}</span>
          {game.cancelReason ? ` (${game.cancelReason})` : ''}
        </Fact>
        <Fact label="Players">{`${game.participants} of ${game.requiredParticipants}`}</Fact>
        <Fact label="Starts">{when(game.startTime)}</Fact>
        <Fact label="Ends">{when(game.endTime)}</Fact>
        {game.settledAt !== null && <Fact label="Settled">{when(game.settledAt)}</Fact>}
        <Fact label="Metrics">{game.metricsSource === 'feed' ? 'Live data feed' : 'Simulation under the secret seed'}</Fact>
        <Fact label="Seed hash">
          <code data-seed-hash="">{game.seedHash ?? '—'}</code>
        </Fact>
        <Fact label="Seed">{game.seed ? <code data-seed="">{game.seed}</code> : <span className="text-slate-600">Secret until the game is over</span>}</Fact>
      </dl>
      <p className="m-0 mt-3 text-sm text-slate-600">
        {'Check a result: SHA-256 of the seed must equal the seed hash, and the scores follow from the seed with the steps of the '}
        <a className="font-semibold text-sea-dark" href="/rules#rules-scoring">
          official rules
        </a>
        .
      </p>

      {game.winner && (
        <p className="m-0 mt-5 rounded-2xl border border-amber-200 bg-amber-50 p-4 font-semibold" data-winner="">
          {`Winner: ${game.winner.username} with ${formatCompactScore(game.winner.score)} points`}
          {game.prize && (
            <span className="block text-sm font-normal" data-prize-state={game.prize.state}>
              {`Prize: ${game.prize.label}`}
            </span>
          )}
        </p>
      )}

      <section aria-labelledby="entries-heading" className="mt-6">
        <h2 id="entries-heading" className="m-0 text-lg font-bold">
          Entries
        </h2>
        {game.entries.length === 0 ? (
          <p className="m-0 mt-2 text-sm text-slate-600">No entries.</p>
        ) : (
          <ol className="m-0 mt-2 grid list-none gap-2 p-0">
            {game.entries.map((entry) => (
              <li key={entry.playId} data-play-id={entry.playId} className="rounded-xl border border-slate-200 bg-white px-3 py-2 text-sm">
                <div className="flex items-baseline gap-3">
                  {scored && <span className="w-6 shrink-0 font-extrabold text-slate-600">{entry.rank ?? '—'}</span>}
                  <span className="min-w-0 flex-1 truncate font-semibold">{entry.username}</span>
                  {scored && <span className="shrink-0 tabular-nums font-bold">{entry.score === null ? '—' : entry.score.toFixed(3)}</span>}
                </div>
                <p className={`m-0 mt-1 text-xs text-slate-600 ${scored ? 'ml-9' : ''}`}>
                  {entry.influencerIds
                    ? `Picks: ${entry.influencerIds.map((id) => names.get(id) ?? `#${id}`).join(', ')}`
                    : 'Picks are shown when the game starts'}
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>

      {game.influencers.length > 0 && (
        <section aria-labelledby="points-heading" className="mt-6">
          <h2 id="points-heading" className="m-0 text-lg font-bold">
            {game.status === 'active' ? 'Influencer points so far' : 'Influencer points for the hour'}
          </h2>
          <ul className="m-0 mt-2 grid list-none gap-1 p-0 text-sm">
            {game.influencers.map((person) => (
              <li key={person.id} className="flex justify-between gap-3 border-b border-slate-100 py-1.5" data-influencer-id={person.id}>
                <span>
                  <span className="font-semibold">{person.name}</span> <span className="text-slate-600">{person.handle}</span>
                </span>
                <span className="tabular-nums">{person.points.toFixed(3)}</span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}

export const gameRecordPages = new Hono<AppEnv>().get('/games/:id', (c) => {
  const raw = c.req.param('id');
  const game = /^\d{1,12}$/.test(raw) ? publicGame(c.env.deps.db, c.env.deps.clock, Number(raw)) : null;
  if (!game) {
    return renderPage(
      c,
      { title: 'Game not found', path: c.req.path, description: 'This game does not exist.', noindex: true },
      <div className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="m-0 text-2xl font-extrabold">Game not found</h1>
        <p className="m-0 mt-2 text-slate-600">There is no game with this number.</p>
        <a className="mt-4 inline-block font-semibold text-sea-dark" href="/scoreboard">
          See all games
        </a>
      </div>,
      { status: 404 },
    );
  }
  return renderPage(
    c,
    {
      title: `Game #${game.id}: ${game.product.brand}${game.product.size ? ` in size ${game.product.size}` : ''}`,
      path: `/games/${game.id}`,
      description: `The public record of game #${game.id} for ${productLabel(game.product)}: entries, scores, winner and its seed for checking the result.`,
    },
    <GameRecordPage game={game} />,
  );
});
