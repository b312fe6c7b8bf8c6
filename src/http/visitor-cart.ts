import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { ensureVisitor, findVisitor, joinVisitorCart, newVisitorToken, orderLinkOpens, reissueVisitorToken } from '../domain/orders/visitor-cart.ts';
import { VISITOR_COOKIE_DAYS } from '../shared/visitor.ts';
import { DomainError } from '../domain/errors.ts';
import { minutesText, RateLimiter } from '../domain/operations/rate-limit.ts';
import { cameOverHttps, clientIp } from './client-address.ts';
import type { AppContext, AppEnv } from './context.ts';

/*
 * The cookie naming a visitor's cart (domain/orders/visitor-cart.ts). Only a POST that puts something
 * in a cart (or pays as a guest) makes one; reading pages never does.
 */

export const VISITOR_COOKIE = 'csa_cart';
const KEEP_SECONDS = VISITOR_COOKIE_DAYS * 24 * 60 * 60;
const HOUR = 60 * 60 * 1000;
/** New guest carts one address may start in an hour (a shared network's shoppers included). */
export const GUEST_CARTS_PER_ADDRESS = 60;
/** A guest account made during this request, before its cookie has come back. */
const madeNow = new WeakMap<Request, number>();

/** The cart's owner for this request: the signed-in user, else the visitor's guest account, else null. */
export function cartOwnerOf<E extends AppEnv>(c: AppContext<E>): number | null {
  const user = c.get('user');
  if (user) return user.id;
  return madeNow.get(c.req.raw) ?? findVisitor(c.env.deps.db, getCookie(c, VISITOR_COOKIE)) ?? null;
}

/** The guest account of this visitor, made (with its cookie) when there is none yet. */
export function ensureVisitorOf<E extends AppEnv>(c: AppContext<E>): number {
  const { db, clock } = c.env.deps;
  const found = madeNow.get(c.req.raw) ?? findVisitor(db, getCookie(c, VISITOR_COOKIE));
  if (found !== undefined) return found;
  // Guests are limited like everyone: a script clearing its cookies cannot make guest accounts without end.
  const wait = new RateLimiter(db, 'guest-cart-ip', GUEST_CARTS_PER_ADDRESS, HOUR, clock, c.env.deps.config.rateLimit).attempt(clientIp(c));
  if (wait > 0) throw new DomainError(429, `Too many new carts from this network. Please try again in ${minutesText(wait)}.`);
  const token = newVisitorToken();
  const id = ensureVisitor(db, clock, token);
  giveCookie(c, token);
  madeNow.set(c.req.raw, id);
  return id;
}

function giveCookie<E extends AppEnv>(c: AppContext<E>, token: string): void {
  setCookie(c, VISITOR_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Lax',
    secure: c.env.deps.config.publicUrl.startsWith('https://') || cameOverHttps(c),
    path: '/',
    maxAge: KEEP_SECONDS,
  });
}

/** The request acts as this guest account (the one whose first try of an Idempotency-Key it repeats: http/idempotency.ts). */
export function actAsVisitor<E extends AppEnv>(c: AppContext<E>, visitorId: number): void {
  madeNow.set(c.req.raw, visitorId);
}

/**
 * The guest account made by the first try of this request, whose answer (and cookie) was lost:
 * the browser gets a cookie for it again, unless it already sent one, its own or another cart's.
 */
export function restoreVisitorCookie<E extends AppEnv>(c: AppContext<E>, visitorId: number): void {
  if (findVisitor(c.env.deps.db, getCookie(c, VISITOR_COOKIE)) !== undefined) return;
  const token = reissueVisitorToken(c.env.deps.db, visitorId);
  if (token) giveCookie(c, token);
}

/** At sign-in or registration: the visitor's cart joins the account's, and the cookie goes. */
export function joinCartOnSignIn<E extends AppEnv>(c: AppContext<E>, userId: number): number {
  const token = getCookie(c, VISITOR_COOKIE);
  if (!token) return 0;
  const visitorId = findVisitor(c.env.deps.db, token);
  deleteCookie(c, VISITOR_COOKIE, { path: '/' });
  return visitorId === undefined ? 0 : joinVisitorCart(c.env.deps.db, visitorId, userId).moved;
}

/**
 * Who may see and act on order `orderId` in this request: whoever holds its e-mailed link (`key`,
 * from the query or a form's field: 'anyOwner'), else the cart's owner (signed in, or the guest
 * whose cookie made it; the domain then checks the order is theirs). A key that does not open the
 * order is 'wrong-key' (said so: a guest has no account to sign in to); nobody at all is 'nobody'.
 */
export function orderViewerOf<E extends AppEnv>(c: AppContext<E>, orderId: number, key: string | undefined): number | 'anyOwner' | 'wrong-key' | 'nobody' {
  if (orderLinkOpens(c.env.deps.db, orderId, key)) return 'anyOwner';
  if (key !== undefined && key !== '') return 'wrong-key';
  return cartOwnerOf(c) ?? 'nobody';
}
