import { log } from '../log.ts';

/*
 * The request's URL is built from its Host header. With an empty one Bun hands over a bare path
 * ('/zzzz/metrics'), which Hono's router read as '/metrics' ('/products?type=book' as no path at
 * all, past every middleware), and `new URL()` refused (a 500); with 'a b' or '[::1' the URL
 * does not parse either. Such a request is answered 400 before Hono routes it, so every path
 * and URL the app reads comes from a URL that parses, whose path is what the client asked for.
 */

/** host[:port]: a name of letters, digits, '-' and '_' labels, an IPv4 address, or [IPv6]. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?)(?::\d{1,5})?$/i;

/** The request's URL when it and its Host header are sound, else null. */
export function validRequestUrl(url: string, host: string | undefined): URL | null {
  // No Host header at all comes only from app.request() (HTTP/1.1 requires one; Bun refuses
  // such a request itself) or HTTP/1.0, whose URL is then a bare path and fails below.
  if (host !== undefined && (host.length > 261 || !HOST.test(host))) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '' || parsed.username || parsed.password) return null;
  return parsed;
}

const BAD_HOST = JSON.stringify({ message: 'Bad request: the Host header is missing or not a valid host name.' });

/**
 * The Host check in front of the app's router (observeRequests asks it first, so app.fetch and
 * app.request answer 400 before Hono routes): null for a sound request, else the 400 answer.
 */
export function hostChecker(): (request: Request) => Response | null {
  // Hosts already seen sound: a URL of one of them with a path parses too (only the Host can make it fail), so it is not parsed again.
  const soundHosts = new Set<string>();
  return (request) => {
    const host = request.headers.get('host') ?? undefined;
    const url = request.url;
    const at = url.startsWith('http://') ? 7 : url.startsWith('https://') ? 8 : -1;
    if (at > 0 && host !== undefined && soundHosts.has(host) && url.startsWith(host, at) && url[at + host.length] === '/') return null;
    if (validRequestUrl(url, host)) {
      if (host !== undefined && soundHosts.size < 64 && /^https?:\/\//.test(url)) soundHosts.add(host);
      return null;
    }
    log.info({ component: 'http', event: 'bad_host', method: request.method, host: host?.slice(0, 100) ?? null }, 'Bad Host header: 400');
    return new Response(BAD_HOST, { status: 400, headers: { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'no-store' } });
  };
}
