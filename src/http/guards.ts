import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { currentPath } from './render.tsx';

/** Pages for signed-in users: others go to /auth and come back after signing in. */
export const requireUserPage: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user) return c.redirect(`/auth?next=${encodeURIComponent(currentPath(c))}`, 302);
  await next();
};

/** API calls for signed-in users. */
export const requireUserApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.var.user) return c.json({ message: 'Please log in to continue.' }, 401);
  await next();
};
