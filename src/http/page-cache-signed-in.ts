import { glanceAtSession, type SessionGlance } from '../domain/accounts/sessions.ts';
import type { AppContext, AppDeps, AppEnv, RequestEnv } from './context.ts';
import { cacheableQuery, type PageCache, type SignedInAnswer } from './page-cache.ts';
import { keptResponse, visitorKey } from './page-cache-visitors.ts';
import type { Sealer } from './sealed-answers.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/*
 * Signed-in shoppers' hits before the router (issue 35, item 3). A cached page answered to a
 * shopper is kept as the app gave it (their header and tail joined in), keyed by the URL, the
 * encoding and their session token's hash; the next time that session asks for that URL, the
 * session's one statement (a glance: the few columns the kept page depends on) is run and, when
 * it names the same user at the same viewer version (moved by every change of their cart,
 * notifications or profile), the kept bytes are answered without Hono. Anything unusual is left
 * to the route: no answer kept for this session and URL (then no statement is run here), an
 * expired session or one due for renewal (the route renews it and sets its cookie again), an
 * admin, a flash or guest cart cookie. The storefront version and the page's time key drop kept
 * answers as they drop visitors' (page-cache.ts). When the glance does not match, the route reads
 * the whole session itself: a second statement, once per kept URL after the shopper's viewer
 * version moves.
 */

type Route = (request: Request, env: RequestEnv) => Response | Promise<Response>;

const SPACE = 32;
const TAB = 9;

/**
 * The session cookie's value when it is the only cookie of the store (no flash, no guest cart),
 * else null. Read by hand rather than with Hono's parse of every cookie (a tenth of a hit): a
 * value Hono would unquote or decode is never a session token's, and a session cookie given
 * twice is left to the route, which reads the first as Hono does.
 */
export function onlySessionToken(cookie: string | null | undefined): string | null {
  if (!cookie || cookie.indexOf('csa_') < 0) return null;
  let token: string | null = null;
  for (let start = 0; start < cookie.length; ) {
    let end = cookie.indexOf(';', start);
    if (end < 0) end = cookie.length;
    let name = start;
    while (name < end && (cookie.charCodeAt(name) === SPACE || cookie.charCodeAt(name) === TAB)) name++;
    if (cookie.startsWith('csa_', name)) {
      const equals = cookie.indexOf('=', name);
      if (equals < 0 || equals > end || cookie.slice(name, equals).trimEnd() !== SESSION_COOKIE || token !== null) return null;
      token = cookie.slice(equals + 1, end).trim();
    }
    start = end + 1;
  }
  return token;
}

function signedInKey(url: string, acceptEncoding: string | null | undefined, token: string): string {
  return `${visitorKey(url, acceptEncoding)}|${Bun.hash(token).toString(36)}`;
}

/** Keeps the page a route gave a signed-in shopper from the page cache, for their next hit before the router. */
export async function keepForSignedIn<E extends AppEnv>(c: AppContext<E>, response: Response, url: string, until: number): Promise<void> {
  const user = c.get('user');
  const token = onlySessionToken(c.req.header('cookie') ?? null);
  if (!user || user.isAdmin || token === null || response.status !== 200 || response.headers.has('set-cookie')) return;
  const body = await response.clone().blob();
  c.env.deps.pageCache.keepSignedInAnswer(signedInKey(url, c.req.header('accept-encoding'), token), {
    status: response.status,
    headers: new Headers(response.headers),
    body,
    until,
    userId: user.id,
    viewerVersion: c.get('viewerVersion'),
    username: user.username,
  });
}

/** The kept answer, or none when the version cannot be read (the route then answers). */
function keptAnswer(pageCache: PageCache, key: string, now: number): SignedInAnswer | undefined {
  try {
    return pageCache.signedInAnswer(key, now);
  } catch {
    return undefined;
  }
}

const answers = (glance: SessionGlance | null, hit: SignedInAnswer) =>
  glance?.current === true && !glance.isAdmin && glance.userId === hit.userId && glance.viewerVersion === hit.viewerVersion && glance.username === hit.username;

/** The app's route with signed-in shoppers' kept pages in front. */
export function answerSignedInFirst(deps: Pick<AppDeps, 'pageCache' | 'clock' | 'db'>, seal: Sealer, route: Route): Route {
  const { pageCache, clock, db } = deps;
  return (request, env) => {
    if (request.method !== 'GET' || !pageCache.keepsSignedInAnswers) return route(request, env);
    const token = onlySessionToken(request.headers.get('cookie'));
    if (token === null) return route(request, env);
    const url = request.url;
    const start = url.indexOf('?');
    const query = start < 0 ? '' : cacheableQuery(new URLSearchParams(url.slice(start + 1)));
    if (query === null) return route(request, env);
    const key = signedInKey(`${env.path}?${query}`, request.headers.get('accept-encoding'), token);
    // A URL this session was never answered from the cache, or whose answer is no longer good, costs no statement here.
    if (!pageCache.hasSignedInAnswer(key)) return route(request, env);
    const hit = keptAnswer(pageCache, key, clock.now());
    if (!hit) return route(request, env);
    const glance = glanceAtSession(db, clock, token);
    if (!answers(glance, hit)) return route(request, env);
    env.userId = hit.userId;
    return keptResponse(hit, hit.body, env.path, seal);
  };
}
