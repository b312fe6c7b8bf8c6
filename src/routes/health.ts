import { Hono } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { checkDatabase, checkReadiness } from '../domain/operations/health.ts';
import { isFromThisMachine } from '../http/client-address.ts';
import type { AppEnv, RequestEnv } from '../http/context.ts';
import { type Sealer, sealedHeaders, sealedResponse } from '../http/sealed-answers.ts';

const PONG = 'pong';

type Route = (request: Request, env: RequestEnv) => Response | Promise<Response>;

/**
 * A GET of /ping answered before the router, with its headers sealed once (sealed-answers.ts):
 * the same answer as the route's, without Hono's context or a dozen header sets. What every
 * request pays around it (its id, the log line at debug, the metrics by route) is unchanged:
 * observe.ts does that. A HEAD goes to the route.
 */
export function answerPingFirst(seal: Sealer, route: Route): Route {
  let headers: Headers | null = null;
  return (request, env) => {
    if (env.path !== '/ping' || request.method !== 'GET') return route(request, env);
    headers ??= sealedHeaders([], '/ping', seal);
    return headers ? sealedResponse(PONG, 200, headers) : route(request, env);
  };
}

/**
 * /ping: the server's floor cost (the bench's ceiling). /healthz: liveness, the process answers
 * and its database answers. /readyz: readiness of this process, 503 while it drains for a
 * shutdown or unless its database takes writes and every migration is applied (docs/operations.md).
 * /metrics: Prometheus text, for the bearer of METRICS_TOKEN or, without one, this machine only.
 */
export const healthRoutes = new Hono<AppEnv>()
  .get('/ping', (c) => c.text(PONG))
  .get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    try {
      checkDatabase(c.env.deps.db);
      return c.json({ status: 'ok', database: 'ok', uptimeSeconds: Math.round(process.uptime()), time: c.env.deps.clock.now() });
    } catch (error) {
      return c.json({ status: 'error', database: String(error) }, 503);
    }
  })
  .get('/readyz', (c) => {
    c.header('Cache-Control', 'no-store');
    const { db, jobsHolder, lifecycle } = c.env.deps;
    if (lifecycle.draining()) return c.json({ status: 'draining', draining: true }, 503);
    const readiness = checkReadiness(db, jobsHolder, Date.now());
    return c.json({ status: readiness.ready ? 'ready' : 'not ready', ...readiness }, readiness.ready ? 200 : 503);
  })
  .get('/metrics', async (c) => {
    c.header('Cache-Control', 'no-store');
    const { config, telemetry } = c.env.deps;
    if (config.metricsToken) {
      const given = c.req.header('authorization') ?? '';
      const expected = `Bearer ${config.metricsToken}`;
      const same = given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
      if (!same) return c.json({ message: 'A valid metrics token is required (Authorization: Bearer <METRICS_TOKEN>).' }, 401);
    } else if (!isFromThisMachine(c)) {
      return c.json({ message: 'Metrics answer this machine only; set METRICS_TOKEN to scrape from elsewhere.' }, 403);
    }
    c.header('Content-Type', telemetry.registry.contentType);
    return c.body(await telemetry.scrape());
  });
