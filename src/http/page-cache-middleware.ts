import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { acceptsGzip } from './accept-encoding.ts';
import type { AppContext, AppEnv } from './context.ts';
import { cacheableQuery, type PageKey } from './page-cache.ts';
import { timeless } from './page-cache-clock.ts';
import { keepForSignedIn } from './page-cache-signed-in.ts';
import { keepForVisitors, visitorKey } from './page-cache-visitors.ts';
import { sendPage } from './render.tsx';

/*
 * The middlewares that fill and serve the page cache (page-cache.ts). They need the request
 * context and the renderer; the cache itself needs neither, so the app's dependencies
 * (context.ts) can name it without a circle.
 */

/** After a request that may have written (anything but GET and HEAD), the page cache rereads the version. */
export const noteWrites: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
  try {
    await next();
  } finally {
    c.env.deps.pageCache.noteLocalWrite();
  }
};

/** The cache key of a GET request for a finite view, or null when the URL is not one. */
function cacheKey<E extends AppEnv>(c: AppContext<E>, kind: string, fingerprint?: (c: AppContext<E>) => PageKey | null): (PageKey & { url: string }) | null {
  const url = c.req.url;
  const start = url.indexOf('?');
  // Only the finite views are kept; a search, an unknown parameter or value is rendered, so
  // nobody can push pages out of the cache, or poison a key, with made-up URLs.
  const query = start < 0 ? '' : cacheableQuery(new URLSearchParams(url.slice(start + 1)));
  if (query === null) return null;
  const found = fingerprint ? fingerprint(c) : timeless;
  // The route knows values the query's rules cannot (a size the product does not have): not kept either.
  if (found === null) return null;
  const { key, until } = found;
  return { key: `${kind}:${c.req.path}?${query}#${key}`, until, url: `${c.req.path}?${query}` };
}

/**
 * Serves a catalogue page from the cache to everyone, visitor or shopper: the shared page
 * comes from the cache, the viewer's header and tail from the viewer cache (render.tsx).
 * A cached route's page may show the viewer only in those parts, or through `fingerprint`,
 * which adds to the key what else the page shows (a product's game state; the shopper
 * when the page marks their own entry), so a change there makes a new entry, never a stale
 * or someone else's page; null when this URL is not one of the route's finite views.
 */
export function cachePages(fingerprint?: (c: AppContext) => PageKey | null): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const found = cacheKey(c, 'page', fingerprint);
    if (found === null) return next();
    const cache = c.env.deps.pageCache;
    const hit = cache.get(found.key);
    if (hit?.kind === 'page') {
      const answer = sendPage(c, hit);
      // The next visitor's hit is answered before the router (page-cache-visitors.ts).
      await keepForVisitors(c, answer, visitorKey(found.url, c.req.header('accept-encoding')), found.until);
      // And a shopper's next hit of this URL too (page-cache-signed-in.ts).
      await keepForSignedIn(c, answer, found.url, found.until);
      return answer;
    }
    await next();
    const page = c.get('renderedPage');
    if (page && page.status === 200 && c.res.status === 200) cache.setPage(found.key, page);
  };
}

/**
 * Serves cached JSON to visitors without a session; stores successful answers. A signed-in
 * user's JSON may be personal, so it is always computed.
 */
export const cacheJsonForVisitors: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' || getCookie(c, 'csa_session')) return next();
  const found = cacheKey(c, 'json');
  if (found === null) return next();
  const cache = c.env.deps.pageCache;
  const hit = cache.get(found.key);
  if (hit?.kind === 'response') {
    c.header('Cache-Control', 'no-cache');
    c.header('Content-Type', hit.contentType);
    c.header('Vary', 'Accept-Encoding');
    const gzip = acceptsGzip(c.req.header('accept-encoding'));
    if (gzip) c.header('Content-Encoding', 'gzip');
    const answer = gzip ? c.body(hit.gzip as Uint8Array<ArrayBuffer>, 200) : c.body(hit.body, 200);
    await keepForVisitors(c, answer, visitorKey(found.url, c.req.header('accept-encoding')), found.until, false);
    return answer;
  }
  await next();
  const contentType = c.res.headers.get('content-type') ?? '';
  if (c.res.status === 200 && !c.res.headers.has('set-cookie') && /application\/json/.test(contentType)) {
    cache.set(found.key, await c.res.clone().text(), contentType);
  }
};
