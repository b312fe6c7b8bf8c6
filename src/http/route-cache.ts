import type { Hono } from 'hono';
import type { AppEnv } from './context.ts';

/** Enough for every route pattern and the pages people open; a flood of made-up paths only empties it. */
const MAX_ENTRIES = 2_000;
const MAX_PATH = 256;

/**
 * Remembers the router's answer per method and path. The app's routes cannot use Hono's
 * RegExpRouter (a static segment beside a parameter, '/notifications/read-all' beside
 * '/notifications/:id/read', is refused), so its SmartRouter falls back to the TrieRouter, which
 * walks its tree for the global middlewares and the route on every request: a tenth of what a
 * /ping cost. Hono only reads a match (handlers and parameters), so one answer serves every
 * request for that path; routes are all added before the first request.
 */
export function cacheRoutes(app: Hono<AppEnv>): void {
  const router = app.router;
  const found = new Map<string, ReturnType<typeof router.match>>();
  app.router = {
    name: `${router.name} (cached)`,
    add: (method, path, handler) => {
      found.clear();
      router.add(method, path, handler);
    },
    match: (method, path) => {
      if (path.length > MAX_PATH) return router.match(method, path);
      const key = `${method} ${path}`;
      let match = found.get(key);
      if (match === undefined) {
        match = router.match(method, path);
        if (found.size >= MAX_ENTRIES) found.clear();
        found.set(key, match);
      }
      return match;
    },
  };
}
