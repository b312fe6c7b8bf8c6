import type { Hono } from 'hono';
import type { AppEnv } from './context.ts';

/** Enough for every route pattern and the pages people open; a flood of made-up paths only empties it. */
const MAX_ENTRIES = 2_000;
const MAX_PATH = 256;

type Router = Hono<AppEnv>['router'];
type Match = ReturnType<Router['match']>;
/** What Hono stores per handler: the handler and its route ({ method, path, ... }; method 'ALL' for app.use). */
type Entry = [[unknown, { method: string; path: string }], unknown];

interface Found {
  match: Match;
  /** The route pattern that answers ('/product/:id'), 'unmatched' when only middlewares match. */
  route: string;
}

/** The last handler of a route (not a middleware): its pattern names the answer in the metrics. */
function lastRoute(entries: Entry[]): number {
  for (let index = entries.length - 1; index >= 0; index--) if (entries[index]![0][1].method !== 'ALL') return index;
  return -1;
}

/**
 * Remembers the router's answer per method and path. The app's routes cannot use Hono's
 * RegExpRouter (a static segment beside a parameter, '/notifications/read-all' beside
 * '/notifications/:id/read', is refused), so its SmartRouter falls back to the TrieRouter, which
 * walks its tree for the global middlewares and the route on every request: a tenth of what a
 * /ping cost. Hono only reads a match (handlers and parameters), so one answer serves every
 * request for that path; routes are all added before the first request.
 *
 * Middlewares added after a route (app.use('*') below the health checks and files) match its
 * path too, but run only if its handler calls next(), which no route of this app does: they are
 * left out of the remembered match, so a route with no middleware before it takes Hono's path for
 * a single handler (no compose, no await per layer).
 *
 * Returns routeOf(method, path): the route pattern for the request metrics, from the same answer.
 */
export function cacheRoutes(app: Hono<AppEnv>): (method: string, path: string) => string {
  const router = app.router;
  // By method, then path: no key string is put together on each request.
  const found = new Map<string, Map<string, Found>>();
  let size = 0;
  const lookUp = (method: string, path: string): Found => {
    let byPath = found.get(method);
    if (byPath === undefined) {
      byPath = new Map();
      found.set(method, byPath);
    }
    let one = byPath.get(path);
    if (one === undefined) {
      const match = router.match(method, path);
      const entries = match[0] as unknown as Entry[];
      const last = lastRoute(entries);
      const trimmed = last >= 0 && last < entries.length - 1 ? ([entries.slice(0, last + 1), ...match.slice(1)] as unknown as Match) : match;
      one = { match: trimmed, route: last >= 0 ? entries[last]![0][1].path : 'unmatched' };
      if (path.length > MAX_PATH) return one;
      if (size >= MAX_ENTRIES) {
        for (const paths of found.values()) paths.clear();
        size = 0;
      }
      byPath.set(path, one);
      size++;
    }
    return one;
  };
  app.router = {
    name: `${router.name} (cached)`,
    add: (method, path, handler) => {
      found.clear();
      size = 0;
      router.add(method, path, handler);
    },
    match: (method, path) => lookUp(method, path).match,
  };
  return (method, path) => lookUp(method === 'HEAD' ? 'GET' : method, path).route;
}
