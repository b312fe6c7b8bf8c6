import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { MiddlewareHandler } from 'hono';
import { createSession, generateSessionToken, invalidateSession, validateSessionToken } from '../domain/accounts/sessions.ts';
import { cameOverHttps } from './client-address.ts';
import type { AppContext, AppEnv } from './context.ts';

export const SESSION_COOKIE = 'csa_session';

/** Secure whenever the store is public over https, or this request came over https (a TLS proxy's X-Forwarded-Proto counts when trusted). */
function isSecure<E extends AppEnv>(c: AppContext<E>): boolean {
  return c.env.deps.config.publicUrl.startsWith('https://') || cameOverHttps(c);
}

function writeCookie<E extends AppEnv>(c: AppContext<E>, token: string, expiresAt: number): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: isSecure(c),
    path: '/',
    expires: new Date(expiresAt),
  });
}

/** Loads the session named by the cookie into the context's user and session, renewing the cookie when extended. */
export const loadSession: MiddlewareHandler<AppEnv> = async (c, next) => {
  const token = getCookie(c, SESSION_COOKIE);
  c.set('user', null);
  c.set('session', null);
  c.set('viewerVersion', 0);
  c.env.userId = null;
  if (token) {
    const { db, clock } = c.env.deps;
    const found = validateSessionToken(db, clock, token);
    if (found) {
      c.set('user', found.user);
      c.env.userId = found.user.id;
      c.set('session', found.session);
      c.set('viewerVersion', found.viewerVersion);
      if (found.renewed) writeCookie(c, token, found.session.expiresAt);
    } else {
      deleteCookie(c, SESSION_COOKIE, { path: '/' });
    }
  }
  await next();
};

/** A new session for a user who just signed in (any earlier session of this browser is ended). */
export function startSession<E extends AppEnv>(c: AppContext<E>, userId: number): void {
  const { db, clock } = c.env.deps;
  const current = c.get('session');
  if (current) invalidateSession(db, current.id);
  const token = generateSessionToken();
  const session = createSession(db, clock, token, userId);
  writeCookie(c, token, session.expiresAt);
}

export function endSession<E extends AppEnv>(c: AppContext<E>): void {
  const current = c.get('session');
  if (current) invalidateSession(c.env.deps.db, current.id);
  c.set('user', null);
  c.env.userId = null;
  c.set('session', null);
  deleteCookie(c, SESSION_COOKIE, { path: '/', secure: isSecure(c) });
}
