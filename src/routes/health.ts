import { Hono } from 'hono';
import { checkDatabase } from '../domain/health.ts';
import type { AppEnv } from '../http/context.ts';

/** /healthz: 200 when the database answers, 503 when not. /ping: the server's floor cost (bench ceiling). */
export const healthRoutes = new Hono<AppEnv>()
  .get('/ping', (c) => c.text('pong'))
  .get('/healthz', (c) => {
    c.header('Cache-Control', 'no-store');
    try {
      checkDatabase(c.var.deps.db);
      return c.json({ status: 'ok', database: 'ok', time: c.var.deps.clock.now() });
    } catch (error) {
      return c.json({ status: 'error', database: String(error) }, 503);
    }
  });
