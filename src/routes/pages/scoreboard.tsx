import { Hono } from 'hono';
import { Island } from '../../components/Island.tsx';
import { activeGames, userPlays, winners } from '../../domain/games/views.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { gameDeps } from '../../http/domain-deps.ts';
import { renderPage } from '../../http/render.tsx';
import { ActiveTab } from './scoreboard/active-tab.tsx';
import { MyGamesTab } from './scoreboard/my-games-tab.tsx';
import { WinnersTab } from './scoreboard/winners-tab.tsx';

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
