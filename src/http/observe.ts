import type { Server } from 'bun';
import type { MiddlewareHandler } from 'hono';
import { getPath } from 'hono/utils/url';
import { countedAs } from '../db/statement-count.ts';
import { log } from '../log.ts';
import { inLogScope } from '../log-scope.ts';
import { clientAddressOf } from './client-address.ts';
import { isSealed } from './sealed-answers.ts';
import type { AppDeps, AppEnv, RequestEnv } from './context.ts';

/** Probes that would drown the request log: logged at debug, still counted in /metrics. */
const PROBES = new Set(['/ping', '/healthz', '/readyz', '/metrics']);
const requestLog = log.child({ component: 'http' });
/** Routes that run no SQL: the floor every request pays (the bench's /ping) enters no statement-counting scope. */
const NO_SQL = new Set(['/ping']);

const GIVEN_ID = /^[\w\-=]{1,64}$/;

/**
 * Ids keep a UUID's shape: this process's random first 24 characters, then a counter in the
 * last 12 hex digits. Unique across processes and restarts like a random UUID, without drawing
 * and formatting 16 random bytes on every request.
 */
const ID_PREFIX = crypto.randomUUID().slice(0, 24);
const ZEROS = '000000000000';
let requestCount = 0;
export function nextRequestId(): string {
  requestCount++;
  const hex = requestCount.toString(16);
  return ID_PREFIX + ZEROS.slice(hex.length) + hex;
}

/** Writes, and the admin's reads (payment reviews ask the gateway): where gateway lines need the request's ids. */
function mayCallGateway(method: string, path: string): boolean {
  return (method !== 'GET' && method !== 'HEAD') || path.startsWith('/admin') || path.startsWith('/api/admin');
}

type Route = (request: Request, env: RequestEnv) => Response | Promise<Response>;

/** Hono's compress() reads these of a context: the answer, the request's method and headers. */
interface Answer {
  res: Response;
  req: { method: string; header: (name: string) => string | undefined };
  header: (name: string, value: string) => void;
}
const answered = async () => {};

/** One request on its way through observeRequests. */
interface Observed {
  request: Request;
  env: RequestEnv;
  started: number;
  /** The route pattern that answers (for the metrics), null when the Host was refused. */
  route: string | null;
}

interface Parts {
  routeOf: (method: string, path: string) => string;
  checkHost: (request: Request) => Response | null;
  compress: MiddlewareHandler<AppEnv>;
  securityHeaders: (headers: Headers, path: string, type: string | null) => void | Promise<void>;
}

/**
 * What every request pays, around the app rather than in Hono's chain (each middleware layer is a
 * closure and an await, and any layer at all takes a route off Hono's path for a single
 * handler): an id (X-Request-Id, kept from a proxy that sets a sane one) for the log, the response
 * header and the 500 page; the app's dependencies, the id, the path and the server handed to the
 * app as its env (c.env); compression and the security headers once the answer exists; one JSON
 * line per request (time, request id, method, path, status, duration, user id when signed in,
 * client address); and the request counted in the metrics by route pattern. Installed as the
 * app's fetch, so app.request() in tests pays the same. An answer the app gives at once (a
 * handler that does not await) is finished at once too: no promise, no microtask.
 */
export function observeRequests(route: Route, deps: AppDeps, parts: Parts): (request: Request, server?: unknown) => Response | Promise<Response> {
  const { telemetry, config } = deps;
  const { routeOf, checkHost, compress, securityHeaders } = parts;

  const record = (observed: Observed, response: Response): Response => {
    const { env, request } = observed;
    response.headers.set('X-Request-Id', env.requestId);
    const ms = performance.now() - observed.started;
    const status = response.status;
    const method = request.method;
    const path = env.path;
    telemetry.observeRequest(method, observed.route ?? 'unmatched', status, ms / 1000);
    const level = status >= 500 ? 'error' : PROBES.has(path) ? 'debug' : 'info';
    if (requestLog.isLevelEnabled(level)) {
      requestLog[level](
        {
          event: 'request',
          reqId: env.requestId,
          method,
          path,
          status,
          ms: Math.round(ms * 10) / 10,
          userId: env.userId,
          ip: clientAddressOf(request, env.server, config.trustProxy),
        },
        `${method} ${path} ${status}`,
      );
    }
    return response;
  };
  // Every answer carries the security headers and its id: files, health checks, 404s and 500s included.
  const seal = (observed: Observed, response: Response, type: string | null): Response | Promise<Response> => {
    // A kept page or /ping made before the router carries them already (sealed-answers.ts).
    if (isSealed(response)) return record(observed, response);
    const applying = securityHeaders(response.headers, observed.env.path, type);
    return applying ? applying.then(() => record(observed, response)) : record(observed, response);
  };
  const failed = (observed: Observed, error: unknown): Response | Promise<Response> => {
    // The app's error handler answers every error a route throws; this is only for one of its own.
    const { env, request } = observed;
    requestLog.error(
      { event: 'request_failed', reqId: env.requestId, method: request.method, path: env.path, error: String(error) },
      `${request.method} ${env.path} failed`,
    );
    return seal(
      observed,
      Response.json({ message: 'Something went wrong on our side. Please try again.', requestId: env.requestId }, { status: 500 }),
      'application/json',
    );
  };
  const finish = (observed: Observed, response: Response): Response | Promise<Response> => {
    // Hono's compress() does all its work once the answer exists, and leaves an answer without a
    // type, or one already encoded (a kept gzip page), alone: those skip its promise.
    const type = response.headers.get('content-type');
    if (type === null || response.headers.has('content-encoding')) return seal(observed, response, type);
    return compressed(compress, observed.request, response).then(
      (done) => seal(observed, done, type),
      (error) => failed(observed, error),
    );
  };

  return (request, server) => {
    const started = performance.now();
    const given = request.headers.get('x-request-id');
    const requestId = given && GIVEN_ID.test(given) ? given : nextRequestId();
    const bunServer = server && typeof (server as Server<undefined>).requestIP === 'function' ? (server as Server<undefined>) : undefined;
    const env: RequestEnv = { server: bunServer, deps, requestId, path: getPath(request), userId: null };
    const refused = checkHost(request);
    const observed: Observed = { request, env, started, route: refused === null ? routeOf(request.method, env.path) : null };
    if (refused) return seal(observed, refused, 'application/json');
    let answer: Response | Promise<Response>;
    try {
      // The request's statements count under its route (csa_db_statements_total); writes and
      // admin reads may call the gateway: its log lines carry this request's ids.
      const run = () => route(request, env);
      answer = NO_SQL.has(observed.route!)
        ? run()
        : countedAs(
            deps.db.$client,
            observed.route!,
            mayCallGateway(request.method, env.path) ? () => inLogScope({ reqId: requestId, userId: () => env.userId }, run) : run,
          );
    } catch (error) {
      return failed(observed, error);
    }
    if (answer instanceof Promise) {
      return answer.then(
        (response) => finish(observed, response),
        (error) => failed(observed, error),
      );
    }
    return finish(observed, answer);
  };
}

/** Hono's compress() on an answer made outside a Hono context (its threshold, types, Vary and weak ETag rules). */
async function compressed(compress: MiddlewareHandler<AppEnv>, request: Request, response: Response): Promise<Response> {
  const answer: Answer = {
    res: response,
    req: { method: request.method, header: (name) => request.headers.get(name) ?? undefined },
    header(name, value) {
      this.res.headers.set(name, value);
    },
  };
  await compress(answer as never, answered);
  return answer.res;
}
