import type { MiddlewareHandler } from 'hono';
import { sessionPassedPin, touchPinUnlock } from '../domain/accounts/admin-pin.ts';
import { minutesText } from '../domain/operations/rate-limit.ts';
import type { Session, User } from '../domain/accounts/sessions.ts';
import type { AppContext, AppEnv } from './context.ts';
import { clientIp } from './client-address.ts';
import { currentPath } from './render.tsx';

/**
 * What a route behind a sign-in guard knows: there is a user and a session. With the guard in
 * the route's chain (`.use(path, guard)` before the routes, or `.get(path, guard, handler)`),
 * Hono adds these to the handler's variables, so `c.get('user')` is a `User` there.
 */
export interface SignedInEnv {
  Variables: { user: User; session: Session };
}

/** A guard that lets a request through only with a user and a session; `refuse` answers the others. */
function signedIn(refuse: (c: AppContext) => Response): MiddlewareHandler<SignedInEnv> {
  const guard: MiddlewareHandler<AppEnv> = async (c, next) => {
    if (!c.get('user') || !c.get('session')) return refuse(c);
    await next();
  };
  // The check above is what makes SignedInEnv true for what runs after it: its one cast.
  return guard as unknown as MiddlewareHandler<SignedInEnv>;
}

/** Pages for signed-in users: others go to /auth and come back after signing in. */
export const requireUserPage = signedIn((c) => c.redirect(`/auth?next=${encodeURIComponent(currentPath(c))}`, 302));

/** API calls for signed-in users. */
export const requireUserApi = signedIn((c) => c.json({ message: 'Please log in to continue.' }, 401));

/** Entering a game (POST /api/plays, /api/payments): the spec's words for a visitor who tries. */
export const requirePlayerApi = signedIn((c) => c.json({ message: 'Please login or register to place a play.' }, 401));

/** Catalogue writes: an admin whose session passed the PIN (401 signed out, 403 otherwise). */
export const requireAdminWithPinApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  const user = c.get('user');
  const session = c.get('session');
  if (!user || !session) return c.json({ message: 'Please log in to continue.' }, 401);
  if (!user.isAdmin) return c.json({ message: 'Admin access required.' }, 403);
  if (!sessionPassedPin(session, c.env.deps.clock)) return c.json({ message: 'Enter the admin PIN first.' }, 403);
  touchPinUnlock(c.env.deps.db, session, c.env.deps.clock);
  await next();
};

/** Public forms (business applications, coach sign-ups): 20 an hour per address. */
export const limitPublicForms: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'POST') return next();
  const limiter = c.env.deps.limits.publicFormsByIp;
  const ip = clientIp(c);
  const wait = limiter.attempt(ip);
  if (wait > 0) {
    return c.json({ message: `Too many submissions from this network. Please try again in ${minutesText(wait)}.` }, 429);
  }
  await next();
};
