import { createMiddleware } from 'hono/factory';
import { createHash } from 'node:crypto';
import { finishOrderAttempt } from '../domain/orders/order-resume.ts';
import { processGone } from '../domain/operations/process-lease.ts';
import { log } from '../log.ts';
import {
  type Claimant,
  claimIdempotencyKey,
  findGuestKey,
  forgetIdempotencyKey,
  type IdempotencyKey,
  recordIdempotentAnswer,
  underIdempotencyKey,
} from '../domain/payments/idempotency.ts';
import { clientIp } from './client-address.ts';
import type { AppContext, AppEnv } from './context.ts';
import { actAsVisitor, cartOwnerOf, ensureVisitorOf, restoreVisitorCookie } from './visitor-cart.ts';

/*
 * `Idempotency-Key` on every money request: POST /api/checkout (the cart and bought prizes),
 * /api/orders, /api/payments and the card save, PATCH /api/user/profile (docs/decisions.md
 * "Money"). The same key from the same user on the same route returns the first answer again
 * and does nothing more. A duplicate sent while the first is still running waits for its
 * answer. Only final answers are kept: a 5xx (the outcome is not known yet) and a 429 (try
 * later: nothing was done) are forgotten, so the retry asks again, and the money paths' own
 * locks keep that retry from paying twice. A 5xx that names the order it left behind (a payment
 * not confirmed yet) is kept, though: that order is the attempt's answer, and a retry after the
 * order was settled must find it, not start a second one.
 *
 * A guest's key is found by route and key alone (docs/decisions.md "Idempotency keys across
 * guests and crashes"): the retry of a first purchase whose answer, and cart cookie, were lost
 * comes without the cookie, and is the same purchase. The key (random, 128 bits, made by the
 * browser) and the same body are the proof; another body learns nothing and gets no cookie. A
 * key whose request died with its process (kill -9) is taken over at once, and the order that
 * request placed is finished (purchaseOnce) rather than placed again.
 */

/** How long a duplicate waits for the first answer before it is told to try later. */
const WAIT_FOR_FIRST_MS = 30_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Through the context, so a guest's restored cookie goes with it. */
function replay(c: AppContext, answer: { status: number; body: string }): Response {
  return c.newResponse(answer.body, answer.status as 200, {
    'content-type': 'application/json; charset=UTF-8',
    'idempotent-replayed': 'true',
    'cache-control': 'private, no-store',
  });
}

function problem(status: 400 | 409 | 422, message: string, code?: string): Response {
  return new Response(JSON.stringify({ message, ...(code ? { code } : {}) }), { status, headers: { 'content-type': 'application/json; charset=UTF-8' } });
}

/** A 5xx whose body names the order it made: { orderId: 12, ... }. */
function namesAnOrder(body: string): boolean {
  try {
    return typeof (JSON.parse(body) as { orderId?: unknown }).orderId === 'number';
  } catch {
    return false;
  }
}

/** The order placed by a request whose key this retry took over after a crash: the route finishes it. */
const takenOverOrders = new WeakMap<Request, number>();

/**
 * A route's purchase, placed once: `place` runs it, unless this request took its key over from a
 * process that died after placing the order; then that order is finished (paid, or the first
 * try's refusal) and named instead of a second one.
 */
export function purchaseOnce<E extends AppEnv>(
  c: AppContext<E>,
  buyer: number,
  paymentToken: string | undefined,
  place: () => Promise<number>,
): Promise<number> {
  const placed = takenOverOrders.get(c.req.raw);
  if (placed === undefined) return place();
  return finishOrderAttempt(c.env.deps, placed, { userId: buyer, paymentToken, clientAddress: clientIp(c) });
}

interface KeyOwner {
  userId: number;
  guest?: { madeGuest: boolean; restoreCookie: boolean };
}

/** A guest's first try of this key: the request acts as that guest (its cookie comes back with a final answer). */
function asFirstTry(c: AppContext, found: { userId: number; madeGuest: boolean }): KeyOwner {
  actAsVisitor(c, found.userId);
  return { userId: found.userId, guest: { madeGuest: found.madeGuest, restoreCookie: found.madeGuest } };
}

/**
 * Whose key this is: the signed-in user's; a guest's first try of it on this route, with or
 * without the cookie; else the cookie's guest; else, where the route makes one, a new guest.
 */
function keyOwner(c: AppContext, id: Omit<IdempotencyKey, 'userId'>, requestHash: string, makesGuest: boolean): KeyOwner | 'different-request' | null {
  const user = c.get('user');
  if (user) return { userId: user.id };
  const first = findGuestKey(c.env.deps.db, id.scope, id.key);
  if (first) return first.requestHash === requestHash ? asFirstTry(c, first) : 'different-request';
  const cookieGuest = cartOwnerOf(c);
  if (cookieGuest !== null) return { userId: cookieGuest, guest: { madeGuest: false, restoreCookie: false } };
  if (!makesGuest) return null;
  return { userId: ensureVisitorOf(c), guest: { madeGuest: true, restoreCookie: false } };
}

function keyed(makesGuest: boolean) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header('idempotency-key');
    if (key === undefined) {
      if (makesGuest && !c.get('user')) ensureVisitorOf(c);
      return next();
    }
    if (!KEY_PATTERN.test(key)) return problem(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
    const { db, clock, jobsHolder } = c.env.deps;
    const scope = `${c.req.method} ${c.req.path}`;
    const requestHash = hashOf(await c.req.text());
    let owner = keyOwner(c, { scope, key }, requestHash, makesGuest);
    if (owner === 'different-request') return problem(422, 'This Idempotency-Key was already used with a different request.');
    // Signed out, no cart and none made here: the route answers for itself (nothing to repeat).
    if (owner === null) return next();

    const claimant: Claimant = { owner: jobsHolder, ownerGone: (other) => processGone(db, other) };
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    let id: IdempotencyKey;
    let takenOver: { from: string | null; orderId: number | null } | undefined;
    for (;;) {
      id = { userId: owner.userId, scope, key };
      const claim = claimIdempotencyKey(db, clock, id, requestHash, { ...claimant, guest: owner.guest });
      if (claim.kind === 'claimed') {
        takenOver = claim.takenOver;
        break;
      }
      if (claim.kind === 'different-request') return problem(422, 'This Idempotency-Key was already used with a different request.');
      if (claim.kind === 'other-guest') {
        // Two first tries at once, each with a new guest: the one that claimed first is the purchase.
        owner = asFirstTry(c, findGuestKey(db, scope, key) ?? { userId: claim.userId, madeGuest: false });
        continue;
      }
      if (claim.kind === 'answered') {
        if (owner.guest?.restoreCookie) restoreVisitorCookie(c, owner.userId);
        return replay(c, claim);
      }
      if (Date.now() > deadline) return problem(409, 'A request with this Idempotency-Key is still in progress.', 'IDEMPOTENCY_KEY_IN_PROGRESS');
      await Bun.sleep(100);
    }
    if (owner.guest?.restoreCookie) restoreVisitorCookie(c, owner.userId);
    if (takenOver) {
      log.warn(
        { event: 'idempotency_key_taken_over', scope, from: takenOver.from, orderId: takenOver.orderId },
        'a request cut off by its process is retried here',
      );
      if (takenOver.orderId !== null) takenOverOrders.set(c.req.raw, takenOver.orderId);
    }

    try {
      await underIdempotencyKey(id, jobsHolder, () => next());
    } catch (error) {
      forgetIdempotencyKey(db, id, jobsHolder);
      throw error;
    }
    const body = await c.res.clone().text();
    if ((c.res.status >= 500 && !namesAnOrder(body)) || c.res.status === 429) {
      forgetIdempotencyKey(db, id, jobsHolder);
      return;
    }
    recordIdempotentAnswer(db, id, jobsHolder, c.res.status, body);
  });
}

/** Every money route: a signed-in user's key, or a guest's (found with or without the cookie). */
export const idempotent = keyed(false);

/** Buy now: signed out, the purchase is a guest account's, made here unless the key finds the first try's. */
export const idempotentAsGuest = keyed(true);
