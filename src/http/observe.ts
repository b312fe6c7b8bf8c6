import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { log } from '../log.ts';
import { inLogScope } from '../log-scope.ts';
import { clientIp } from './client-address.ts';
import type { AppDeps, AppEnv } from './context.ts';

/** Probes that would drown the request log: logged at debug, still counted in /metrics. */
const PROBES = new Set(['/ping', '/healthz', '/readyz', '/metrics']);
const requestLog = log.child({ component: 'http' });

const GIVEN_ID = /^[\w\-=]{1,64}$/;

/**
 * Ids keep a UUID's shape: this process's random first 24 characters, then a counter in the
 * last 12 hex digits. Unique across processes and restarts like a random UUID, without drawing
 * and formatting 16 random bytes on every request.
 */
const ID_PREFIX = crypto.randomUUID().slice(0, 24);
let requestCount = 0;
export function nextRequestId(): string {
  requestCount++;
  return ID_PREFIX + requestCount.toString(16).padStart(12, '0');
}

/** Writes, and the admin's reads (payment reviews ask the gateway): where gateway lines need the request's ids. */
function mayCallGateway(method: string, path: string): boolean {
  return (method !== 'GET' && method !== 'HEAD') || path.startsWith('/admin') || path.startsWith('/api/admin');
}

/** The route pattern that answered ('/product/:id'), so metrics have one series per route, not per URL. */
function routeOf(c: Parameters<MiddlewareHandler<AppEnv>>[0]): string {
  const route = matchedRoutes(c)[c.req.routeIndex];
  if (!route || c.res.status === 404) return route && route.method !== 'ALL' ? route.path : 'unmatched';
  return route.path;
}

/** Compression runs once the answer exists: nothing comes after it. */
const answered = async () => {};

/**
 * What every request pays, in one middleware (each layer of Hono's chain is a closure and an
 * await), compression and the security headers included: the app's dependencies on the context; an id (X-Request-Id, kept from a proxy that
 * sets a sane one) for the log, the response header and the 500 page; one JSON line per request
 * (time, request id, method, path, status, duration, user id when signed in, client address);
 * and the request counted in the metrics by route pattern. The id header is added once the
 * answer exists: a header set before it takes Hono off its fast path, and the small answers
 * then lose their Content-Length and get gzip-streamed (a /ping three times slower).
 */
export function observeRequests(
  deps: AppDeps,
  layers: { compress: MiddlewareHandler<AppEnv>; securityHeaders: (c: Context<AppEnv>) => void | Promise<void> },
): MiddlewareHandler<AppEnv> {
  const { telemetry } = deps;
  const { compress, securityHeaders } = layers;
  return async (c, next) => {
    const started = performance.now();
    c.set('deps', deps);
    const given = c.req.raw.headers.get('x-request-id');
    const id = given && GIVEN_ID.test(given) ? given : nextRequestId();
    c.set('requestId', id);
    try {
      // Writes and admin reads may call the gateway: its log lines carry this request's ids.
      if (mayCallGateway(c.req.method, c.req.path)) await inLogScope({ reqId: id, userId: () => c.get('user')?.id ?? null }, next);
      else await next();
      // Hono's compress() does all its work once the answer exists, and leaves an answer without a type alone.
      if (c.res.headers.has('content-type')) await compress(c, answered);
    } finally {
      // Every answer carries the security headers and its id: files, health checks, 404s and 500s included.
      await securityHeaders(c);
      c.res.headers.set('X-Request-Id', id);
      const ms = performance.now() - started;
      const status = c.res.status;
      telemetry.observeRequest(c.req.method, routeOf(c), status, ms / 1000);
      const path = c.req.path;
      const level = status >= 500 ? 'error' : PROBES.has(path) ? 'debug' : 'info';
      if (requestLog.isLevelEnabled(level)) {
        requestLog[level](
          {
            event: 'request',
            reqId: id,
            method: c.req.method,
            path,
            status,
            ms: Math.round(ms * 10) / 10,
            userId: c.get('user')?.id ?? null,
            ip: clientIp(c),
          },
          `${c.req.method} ${path} ${status}`,
        );
      }
    }
  };
}
