import { parse } from 'hono/utils/cookie';
import type { SessionWithUser } from '../domain/accounts/sessions.ts';
import { validateSessionToken } from '../domain/accounts/sessions.ts';
import type { AppContext, AppDeps, AppEnv, RequestEnv } from './context.ts';
import { cacheableQuery, type PageCache, type SignedInAnswer } from './page-cache.ts';
import { keptResponse, visitorKey } from './page-cache-visitors.ts';
import type { Sealer } from './sealed-answers.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/*
 * Signed-in shoppers' hits before the router (issue 35, item 3). A cached page answered to a
 * shopper is kept as the app gave it (their header and tail joined in), keyed by the URL, the
 * encoding and their session token's hash; the next time that session asks for that URL, the
 * session's one statement is run and, when it names the same user at the same viewer version
 * (moved by every change of their cart, notifications or profile), the kept bytes are answered
 * without Hono. Anything unusual is left to the route: no answer kept for this session and URL
 * (then no statement is run here), an expired session, one renewed by this request (its cookie
 * is set again), an admin, a flash or guest cart cookie. The storefront version and the page's
 * time key drop kept answers as they drop visitors' (page-cache.ts).
 */

type Route = (request: Request, env: RequestEnv) => Response | Promise<Response>;

/** The session cookie's token when it is the only cookie of the store (no flash, no guest cart), else null. */
function onlySessionToken(cookie: string | null): string | null {
  if (!cookie?.includes(SESSION_COOKIE)) return null;
  const cookies = parse(cookie);
  for (const name in cookies) if (name.startsWith('csa_') && name !== SESSION_COOKIE) return null;
  return cookies[SESSION_COOKIE] ?? null;
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

const answers = (found: SessionWithUser | null, hit: SignedInAnswer) =>
  found !== null &&
  !found.renewed &&
  !found.user.isAdmin &&
  found.user.id === hit.userId &&
  found.viewerVersion === hit.viewerVersion &&
  found.user.username === hit.username;

/**
 * The app's route with signed-in shoppers' kept pages in front. When the session was looked up
 * here and the route answers after all, the route is handed that lookup (session-cookie.ts), so
 * a request runs the session's statement once either way.
 */
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
    // A URL this session was never answered from the cache costs nothing here.
    if (!pageCache.hasSignedInAnswer(key)) return route(request, env);
    const found = validateSessionToken(db, clock, token);
    env.sessionLookup = { token, found };
    const hit = keptAnswer(pageCache, key, clock.now());
    if (!hit || !answers(found, hit)) return route(request, env);
    env.userId = found!.user.id;
    return keptResponse(hit, hit.body, env.path, seal);
  };
}
