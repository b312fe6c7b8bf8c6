import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { HTTPException } from 'hono/http-exception';
import { DomainError } from './domain/errors.ts';
import type { AppDeps, AppEnv } from './http/context.ts';
import { csrfProtection, securityHeaders } from './http/security.ts';
import { requireUserPage } from './http/guards.ts';
import { loadSession } from './http/session-cookie.ts';
import { authApi } from './routes/api/auth.ts';
import { fileRoutes } from './routes/files.ts';
import { healthRoutes } from './routes/health.ts';
import { authPages } from './routes/pages/auth.tsx';
import { homePages } from './routes/pages/home.tsx';
import { notFound } from './routes/pages/not-found.tsx';

const JSON_BODY_LIMIT = 64 * 1024;

/** Builds the whole HTTP app from its dependencies; no I/O happens here. */
export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();

  app.use(async (c, next) => {
    c.set('deps', deps);
    await next();
  });

  app.onError((error, c) => {
    if (error instanceof DomainError) {
      return c.json({ message: error.message, ...(error.fields ? { fields: error.fields } : {}) }, error.status);
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      if (c.req.path.startsWith('/api/')) return c.json({ message: error.message || 'Request refused.' }, status);
      return error.getResponse();
    }
    console.error(`${c.req.method} ${c.req.path} failed:`, error);
    return c.json({ message: 'Something went wrong on our side. Please try again.' }, 500);
  });

  app.use(compress());
  app.route('/', fileRoutes);
  app.route('/', healthRoutes);

  app.use(securityHeaders(deps.config));
  app.use(csrfProtection(deps.config));
  app.use(
    bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: (c) => c.json({ message: 'The request body is too large.' }, 413),
    }),
  );
  app.use(loadSession);

  // Protected pages: signed-out visitors go to /auth first (spec section 2).
  for (const path of ['/profile', '/order-confirmation/*', '/admin', '/admin/*']) app.use(path, requireUserPage);

  app.route('/api', authApi);
  app.route('/', authPages);
  app.route('/', homePages);

  app.notFound(notFound);
  return app;
}

export type App = ReturnType<typeof createApp>;
