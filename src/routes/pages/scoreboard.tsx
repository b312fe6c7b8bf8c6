import { Hono } from 'hono';
import { Island } from '../../components/Island.tsx';
import { ACTIVE_PAGE_SIZE, activeGamesPage, userPlays, winners } from '../../domain/games/views.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { gameDeps } from '../../http/domain-deps.ts';
import { cachePages } from '../../http/page-cache-middleware.ts';
import { renderPage } from '../../http/render.tsx';
import { ActiveTab } from './scoreboard/active-tab.tsx';
import { Pager, parsePage } from '../../components/Pager.tsx';
import { MyGamesTab } from './scoreboard/my-games-tab.tsx';
import { JustFinished, WinnersTab } from './scoreboard/winners-tab.tsx';
import { winnersWithAuctions } from '../../domain/auctions/lists.ts';
import { joinKeys, timeKey } from '../../http/page-cache-clock.ts';

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

function parseTab(value: string | undefined): Tab {
  return value === 'my-games' || value === 'winners' ? value : 'active';
}

function ScoreboardPage<E extends AppEnv>({ c, tab, page }: { c: AppContext<E>; tab: Tab; page: number }) {
  const { db, clock } = c.env.deps;
  const deps = gameDeps(c);
  // A cached page is kept for the minute at most (cachePages below): its countdowns start from the minute.
  const now = tab === 'active' ? Math.floor(clock.now() / MINUTE) * MINUTE : clock.now();
  const user = c.get('user');
  const board = tab === 'active' ? activeGamesPage(deps, page) : null;
  // One more than a page tells whether there is a next one.
  const plays = tab === 'my-games' && user ? userPlays(deps, user.id, { offset: (page - 1) * ACTIVE_PAGE_SIZE, limit: ACTIVE_PAGE_SIZE + 1 }) : [];
  const list = tab === 'winners' ? winnersWithAuctions(db) : [];
  // The latest winners are read newest first: the few settled within the hour are among the first.
  const justFinished = tab === 'active' && page === 1 ? winners(db, 3).filter((w) => w.date !== null && clock.now() - w.date < HOUR) : [];
  const label = tabs.find((t) => t.key === tab)!.label;
  return (
    <div className="mx-auto grid max-w-4xl grid-cols-1 gap-5">
      <h1 className="m-0 text-2xl font-extrabold">Scoreboard</h1>
      {/* Alerts are about one's own games: a visitor has none, so is not asked (issue 27). */}
      {user && <Island name="GameAlerts" mode="load" props={{}} />}
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
      {/* Every tab follows the games as they change; My Games also the player's own news (a game ended, a win). */}
      <Island name="LiveRegion" mode="idle" props={{ region: 'scoreboard', scoreboard: true, user: tab === 'my-games' && user !== null }} />
      <section aria-label={label} data-live-region="scoreboard">
        {board && <JustFinished list={justFinished} />}
        {board && <ActiveTab board={board} now={now} />}
        {board && <Pager base="/scoreboard?" page={page} hasNext={page < board.pages} label="Active games" />}
        {tab === 'my-games' && (
          <MyGamesTab plays={plays.slice(0, ACTIVE_PAGE_SIZE)} signedIn={user !== null} charity={c.env.deps.config.charity?.name ?? null} />
        )}
        {tab === 'my-games' && <Pager base="/scoreboard?tab=my-games&" page={page} hasNext={plays.length > ACTIVE_PAGE_SIZE} label="My games" />}
        {tab === 'winners' && <WinnersTab list={list} />}
      </section>
    </div>
  );
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * Active Games and Winners are the same for every viewer: kept in the page cache until the
 * storefront changes (an entry, a game's start or end), and a minute at most, as live scores
 * move every minute. My Games is the viewer's own, rendered per request a page at a time.
 */
// Signed in or not is in the key: only a signed-in player's page offers game alerts. Winners also
// lists won auctions: an auction's close moves the storefront version (migration 0025).
const cacheShared = cachePages((c) => joinKeys(timeKey([], c.env.deps.clock.now(), true), c.get('user') ? 'player' : 'visitor'));

/** /scoreboard: public; ?tab=active (default), my-games, winners; ?page=N for the lists. */
export const scoreboardPages = new Hono<AppEnv>().get(
  '/scoreboard',
  (c, next) => (c.req.query('tab') === 'my-games' ? next() : cacheShared(c, next)),
  (c) => {
    const tab = parseTab(c.req.query('tab'));
    const page = parsePage(c.req.query('page'));
    const query = [tab === 'active' ? '' : `tab=${tab}`, page > 1 ? `page=${page}` : ''].filter(Boolean).join('&');
    return renderPage(
      c,
      {
        title: page > 1 ? `Scoreboard, page ${page}` : 'Scoreboard',
        description: 'Live $1 games, the players close to starting one, and the latest winners at the Competitive Shopping Association.',
        path: query ? `/scoreboard?${query}` : '/scoreboard',
        noindex: tab === 'my-games',
      },
      <ScoreboardPage c={c} tab={tab} page={page} />,
    );
  },
);
