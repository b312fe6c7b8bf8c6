import type { MiddlewareHandler } from 'hono';
import { sessionPassedPin, touchPinUnlock } from '../domain/admin-pin.ts';
import { minutesText } from '../domain/rate-limit.ts';
import { clientIp, type AppEnv } from './context.ts';
import { currentPath } from './render.tsx';

/** Pages for signed-in users: others go to /auth and come back after signing in. */
export const requireUserPage: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('user')) return c.redirect(`/auth?next=${encodeURIComponent(currentPath(c))}`, 302);
  await next();
};

/** API calls for signed-in users. */
export const requireUserApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get('user')) return c.json({ message: 'Please log in to continue.' }, 401);
  await next();
};

/** Catalogue writes: an admin whose session passed the PIN (401 signed out, 403 otherwise). */
export const requireAdminWithPinApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get('user');
  if (!user) return c.json({ message: 'Please log in to continue.' }, 401);
  if (!user.isAdmin) return c.json({ message: 'Admin access required.' }, 403);
  if (!sessionPassedPin(c.get('session'), c.get('deps').clock)) return c.json({ message: 'Enter the admin PIN first.' }, 403);
  touchPinUnlock(c.get('deps').db, c.get('session')!, c.get('deps').clock);
  await next();
};

/** Public forms (business applications, coach sign-ups): 20 an hour per address. */
export const limitPublicForms: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'POST') return next();
  const limiter = c.get('deps').limits.publicFormsByIp;
  const ip = clientIp(c);
  const wait = limiter.attempt(ip);
  if (wait > 0) {
    return c.json({ message: `Too many submissions from this network. Please try again in ${minutesText(wait)}.` }, 429);
  }
  await next();
};

/**
 * Card calls (checkout, buy now, the $1 entry, saving a card): after 5 attempts the gateway
 * refused in 15 minutes, a user waits, so a script with a bad token cannot write failed orders,
 * payment rows and notifications without end.
 */
export const limitCardFailures: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get('user');
  if (!user || c.req.method === 'GET') return next();
  const limiter = c.get('deps').limits.cardFailuresByUser;
  const key = String(user.id);
  const wait = limiter.retryAfter(key);
  if (wait > 0) {
    return c.json({ message: `Too many card attempts were declined. Please try again in ${minutesText(wait)}.` }, 429);
  }
  await next();
  if (c.res.status === 402 || c.res.status === 502) limiter.record(key);
};
