import { acceptsGzip } from './accept-encoding.ts';
import type { AppContext, AppDeps, AppEnv, RequestEnv } from './context.ts';
import { cacheableQuery, type PageCache, type SignedInAnswer, type VisitorAnswer } from './page-cache.ts';
import { type Sealer, sealedHeaders, sealedResponse } from './sealed-answers.ts';

/*
 * Visitors' hits before the router (issue 35, item 2). A cached page or JSON answered to a
 * visitor is kept as the app gave it (status, headers, body: gzip or plain), and the next
 * visitor asking for that URL with the same encoding gets those bytes before Hono matches a
 * route or builds a context. What follows the app (compression rules, security headers, the
 * request id, the log line and the metrics: observe.ts) runs on it as on any answer, so the
 * headers are the ones the route gives. The cache's own rules hold: dropped when the
 * storefront version moves (the 250 ms read is the only one a hit makes), and each answer only
 * until the next moment its page changes by the clock (page-cache-clock.ts).
 */

type Route = (request: Request, env: RequestEnv) => Response | Promise<Response>;

/**
 * A request that may share a visitor's answer carries none of the store's cookies: a session
 * (the shopper's header), a flash (a one-off toast), a guest cart (its count in the header).
 */
function sharesVisitorAnswers(cookie: string | null | undefined): boolean {
  return !cookie || !/(?:^|;)\s*csa_/.test(cookie);
}

/** Accept-Encoding headers come in a few spellings per browser: each is parsed once. */
const takesGzip = new Map<string, boolean>();
function gzipVariant(header: string | null | undefined): 'gzip' | 'plain' {
  if (!header) return 'plain';
  let gzip = takesGzip.get(header);
  if (gzip === undefined) {
    gzip = acceptsGzip(header);
    if (takesGzip.size >= 64) takesGzip.clear();
    takesGzip.set(header, gzip);
  }
  return gzip ? 'gzip' : 'plain';
}

/** The key of a visitor's answer: the path, the canonical query of the cached view, the encoding. */
export function visitorKey(url: string, acceptEncoding: string | null | undefined): string {
  return `${url}|${gzipVariant(acceptEncoding)}`;
}

/** Keeps the answer a route gave a visitor from the page cache, for the next visitor's hit before the router. */
export async function keepForVisitors<E extends AppEnv>(c: AppContext<E>, response: Response, key: string, until: number, head = true): Promise<void> {
  if (c.get('user') || !sharesVisitorAnswers(c.req.header('cookie')) || response.status !== 200 || response.headers.has('set-cookie')) return;
  const body = await response.clone().blob();
  c.env.deps.pageCache.keepVisitorAnswer(key, { status: response.status, headers: new Headers(response.headers), body, until, head });
}

/** The kept answer, or none when the version cannot be read (the route then answers, as it would a store that is down). */
function keptAnswer(pageCache: PageCache, key: string, now: number): VisitorAnswer | undefined {
  try {
    return pageCache.visitorAnswer(key, now);
  } catch {
    return undefined;
  }
}

/** A kept answer as a new Response, its headers sealed once for all its hits (sealed-answers.ts). */
export function keptResponse(hit: VisitorAnswer | SignedInAnswer, body: Blob | null, path: string, seal: Sealer): Response {
  hit.sealed ??= sealedHeaders(hit.headers, path, seal) ?? undefined;
  return hit.sealed ? sealedResponse(body, hit.status, hit.sealed) : new Response(body, { status: hit.status, headers: hit.headers });
}

/**
 * The app's route with visitors' cached answers in front: a GET or HEAD without the store's
 * cookies for a URL whose answer is kept is answered from it, without Hono. A HEAD gets the
 * GET's headers and no body, as Hono answers one.
 */
export function answerVisitorsFirst(deps: Pick<AppDeps, 'pageCache' | 'clock'>, seal: Sealer, route: Route): Route {
  const { pageCache, clock } = deps;
  return (request, env) => {
    const method = request.method;
    if ((method === 'GET' || method === 'HEAD') && sharesVisitorAnswers(request.headers.get('cookie'))) {
      const url = request.url;
      const start = url.indexOf('?');
      const query = start < 0 ? '' : cacheableQuery(new URLSearchParams(url.slice(start + 1)));
      if (query !== null) {
        const hit = keptAnswer(pageCache, visitorKey(`${env.path}?${query}`, request.headers.get('accept-encoding')), clock.now());
        if (hit && (method === 'GET' || hit.head)) return keptResponse(hit, method === 'GET' ? hit.body : null, env.path, seal);
      }
    }
    return route(request, env);
  };
}
