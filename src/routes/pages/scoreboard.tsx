import { Hono } from 'hono';
import { TrophyIcon } from '../../shared/ui/icons.tsx';
import { Island } from '../../components/Island.tsx';
import { ProductImage } from '../../components/ProductImage.tsx';
import { formatDateTime } from '../../components/format.ts';
import type { ProductType } from '../../domain/catalog.ts';
import { nextTopOfHour } from '../../domain/games/schedule.ts';
import { activeGames, userPlays, winners } from '../../domain/games/views.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { renderPage } from '../../http/render.tsx';
import { gameDeps } from '../../http/game-deps.ts';
import { formatCompactScore } from '../../shared/format.ts';

/*
 * The games page /scoreboard (spec sections 2, 4 and 9): tabs Active Games (the default),
 * My Games and Winners as links with ?tab=, the game alerts banner, and a highlighted card
 * for the next game to start when one needs just 1 more player.
 */

type Tab = 'active' | 'my-games' | 'winners';
const tabs: { key: Tab; label: string; href: string }[] = [
  { key: 'active', label: 'Active Games', href: '/scoreboard' },
  { key: 'my-games', label: 'My Games', href: '/scoreboard?tab=my-games' },
  { key: 'winners', label: 'Winners', href: '/scoreboard?tab=winners' },
];

type ActiveGame = ReturnType<typeof activeGames>[number];
type Winner = ReturnType<typeof winners>[number];
type UserPlay = ReturnType<typeof userPlays>[number];

const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', month: 'short', day: 'numeric', year: 'numeric' });

function Thumb({ product, type, size = 'h-16 w-16' }: { product: { brand: string; model: string; imageUrl: string }; type: ProductType; size?: string }) {
  return (
    <div className={`${size} shrink-0 overflow-hidden rounded-xl border border-slate-200 bg-white`}>
      <ProductImage product={{ ...product, productType: type }} size={128} className="h-full w-full object-contain" />
    </div>
  );
}

const competitionHref = (productId: number) => `/product/${productId}?tab=competition`;

/** The game's public record: entries, picks, scores and its seed for checking (/games/{id}). */
function GameRecordLink({ gameId }: { gameId: number }) {
  return (
    <a href={`/games/${gameId}`} className="font-semibold text-sea-dark no-underline hover:underline">
      Game details<span className="sr-only">{` for game ${gameId}`}</span>
    </a>
  );
}
const remainingOf = (game: ActiveGame) => Math.max(0, game.requiredParticipants - game.participants);

function PlayNowLink({ productId, name, className = '' }: { productId: number; name: string; className?: string }) {
  return (
    <a
      href={`/play/${productId}`}
      className={`inline-block rounded-full bg-coral-dark px-4 py-2 text-center text-sm font-extrabold tracking-wide text-white no-underline hover:bg-coral ${className}`}
    >
      PLAY NOW<span className="sr-only"> for {name}</span>
    </a>
  );
}

/** Spec section 2: games that need 1 more player, with a countdown to the next top of the hour. */
function NextGameCard({ game, others, type, now }: { game: ActiveGame; others: number; type: ProductType; now: number }) {
  const name = `${game.product.brand} ${game.product.model}`;
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
            <span className="block truncate">{game.product.brand}</span>
            <span className="block truncate text-sm font-normal text-white/80">{game.product.model}</span>
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
        <PlayNowLink productId={game.productId} name={name} className="px-6 py-2.5" />
        {others > 0 && (
          <span className="text-sm text-white/80">{`+${others} more game${others === 1 ? '' : 's'} need${others === 1 ? 's' : ''} 1 player`}</span>
        )}
      </div>
    </section>
  );
}

function GameRow({ game, type, now }: { game: ActiveGame; type: ProductType; now: number }) {
  const name = `${game.product.brand} ${game.product.model}`;
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
              <span className="block truncate">{game.product.brand}</span>
              <span className="block truncate text-sm font-normal text-slate-600">{game.product.model}</span>
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
              {remaining === 1 && <PlayNowLink productId={game.productId} name={name} />}
            </div>
          )}
        </div>
      </div>
    </li>
  );
}

function ActiveTab({ games, now }: { games: ActiveGame[]; now: number }) {
  const almost = games.filter((g) => g.status === 'waiting' && remainingOf(g) === 1);
  const first = almost[0];
  return (
    <div className="grid grid-cols-1 gap-4">
      {first && <NextGameCard game={first} others={almost.length - 1} type={first.product.productType} now={now} />}
      {games.length === 0 ? (
        <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
          <p className="m-0 text-slate-600">No games are running right now. Pick a product and start one for $1!</p>
          <a href="/products" className="mt-3 inline-block font-semibold text-sea-dark">
            Browse products
          </a>
        </div>
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

function MyGamesTab({ plays, signedIn }: { plays: UserPlay[]; signedIn: boolean }) {
  if (!signedIn) {
    return (
      <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
        <p className="m-0 font-semibold">Log in to see your games.</p>
        <p className="m-0 mt-1 text-sm text-slate-600">Your entries, live scores and prizes show here.</p>
        <a
          href="/auth?next=%2Fscoreboard%3Ftab%3Dmy-games"
          className="mt-4 inline-block rounded-full bg-ink px-5 py-2.5 text-sm font-bold text-white no-underline"
        >
          Log in
        </a>
      </div>
    );
  }
  if (plays.length === 0) {
    return (
      <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
        <p className="m-0 text-slate-600">You have not joined any games yet.</p>
        <a href="/scoreboard" className="mt-3 inline-block font-semibold text-sea-dark">
          See active games
        </a>
      </div>
    );
  }
  return (
    <ul className="m-0 grid list-none grid-cols-1 gap-3 p-0">
      {plays.map((play) => {
        const status = playStatus(play);
        const name = `${play.product.brand} ${play.product.model}`;
        const scored = play.game.status === 'active' || play.game.status === 'completed';
        return (
          <li key={play.id} data-play-id={play.id} className={`rounded-2xl border bg-white p-3 sm:p-4 ${play.won ? 'border-emerald-300' : 'border-slate-200'}`}>
            <div className="flex items-start gap-3">
              <Thumb product={play.product} type={play.product.productType} />
              <div className="min-w-0 flex-1">
                <div className="flex items-start justify-between gap-2">
                  <a href={competitionHref(play.productId)} className="min-w-0 font-bold leading-snug text-ink no-underline hover:underline">
                    <span className="block truncate">{play.product.brand}</span>
                    <span className="block truncate text-sm font-normal text-slate-600">{play.product.model}</span>
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
                      <span data-prize-state={play.prize.state}>{play.prize.state === 'donated' ? 'Donated to charity. Thank you!' : play.prize.label}</span>
                      {play.prize.keptUntil !== null && (
                        <span className="text-slate-600">{` · kept for you until ${formatDateTime(play.prize.keptUntil)}`}</span>
                      )}
                    </p>
                    {(play.prize.state === 'to_claim' || play.prize.state === 'in_cart') && (
                      <Island name="PrizeActions" mode="idle" props={{ gameId: play.gameId, productName: name, inCart: play.prize.state === 'in_cart' }} />
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

function WinnersTab({ list }: { list: Winner[] }) {
  if (list.length === 0) {
    return (
      <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
        <p className="m-0 text-slate-600">No winners yet. The first prize could be yours!</p>
        <a href="/scoreboard" className="mt-3 inline-block font-semibold text-sea-dark">
          See active games
        </a>
      </div>
    );
  }
  return (
    <ul className="m-0 grid list-none grid-cols-1 gap-3 p-0 md:grid-cols-2">
      {list.map((winner) => {
        const [brand = winner.productName, ...rest] = winner.productName.split(' ');
        return (
          <li key={winner.gameId} data-game-id={winner.gameId} className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-3 sm:p-4">
            <Thumb product={{ brand, model: rest.join(' '), imageUrl: winner.imageUrl }} type={winner.productType} />
            <div className="min-w-0 flex-1">
              <p className="m-0 flex items-center gap-2 font-bold">
                <TrophyIcon className="h-4 w-4 shrink-0 text-amber-500" />
                <span className="truncate">{winner.username}</span>
              </p>
              <a href={competitionHref(winner.productId)} className="block truncate text-sm text-slate-700 no-underline hover:underline">
                {winner.productName}
              </a>
              <p className="m-0 mt-1 flex flex-wrap gap-x-3 text-xs text-slate-600">
                <span>
                  {'Score '}
                  <strong className="text-ink tabular-nums">{formatCompactScore(winner.score)}</strong>
                </span>
                {winner.date !== null && <time dateTime={new Date(winner.date).toISOString()}>{dateFormat.format(winner.date)}</time>}
                {winner.donated && <span className="font-semibold text-emerald-700">Donated</span>}
                <GameRecordLink gameId={winner.gameId} />
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function parseTab(value: string | undefined): Tab {
  return value === 'my-games' || value === 'winners' ? value : 'active';
}

function ScoreboardPage<E extends AppEnv>({ c, tab }: { c: AppContext<E>; tab: Tab }) {
  const { db, clock } = c.get('deps');
  const deps = gameDeps(c);
  const now = clock.now();
  const user = c.get('user');
  const games = tab === 'active' ? activeGames(deps) : [];
  const plays = tab === 'my-games' && user ? userPlays(deps, user.id) : [];
  const list = tab === 'winners' ? winners(db) : [];
  const label = tabs.find((t) => t.key === tab)!.label;
  return (
    <div className="mx-auto grid max-w-4xl grid-cols-1 gap-5">
      <h1 className="m-0 text-2xl font-extrabold">Scoreboard</h1>
      <Island name="GameAlerts" mode="load" props={{}} />
      <nav aria-label="Scoreboard sections" className="flex gap-1 rounded-xl bg-slate-100 p-1">
        {tabs.map((t) => (
          <a
            key={t.key}
            href={t.href}
            aria-current={tab === t.key ? 'page' : undefined}
            className={`flex-1 rounded-lg py-2 text-center text-sm font-semibold no-underline ${tab === t.key ? 'bg-white text-ink shadow-sm' : 'text-slate-600 hover:text-ink'}`}
          >
            {t.label}
          </a>
        ))}
      </nav>
      {tab === 'active' && <Island name="LiveRegion" mode="idle" props={{ region: 'scoreboard', scoreboard: true }} />}
      <section aria-label={label} data-live-region="scoreboard">
        {tab === 'active' && <ActiveTab games={games} now={now} />}
        {tab === 'my-games' && <MyGamesTab plays={plays} signedIn={user !== null} />}
        {tab === 'winners' && <WinnersTab list={list} />}
      </section>
    </div>
  );
}

/** /scoreboard: public; ?tab=active (default), my-games, winners. */
export const scoreboardPages = new Hono<AppEnv>().get('/scoreboard', (c) => {
  const tab = parseTab(c.req.query('tab'));
  return renderPage(
    c,
    {
      title: 'Scoreboard',
      description: 'Live $1 games, the players close to starting one, and the latest winners at the Competitive Shopping Association.',
      path: tab === 'active' ? '/scoreboard' : `/scoreboard?tab=${tab}`,
      noindex: tab === 'my-games',
    },
    <ScoreboardPage c={c} tab={tab} />,
  );
});
