import { createMiddleware } from 'hono/factory';
import { createHash } from 'node:crypto';
import { claimIdempotencyKey, forgetIdempotencyKey, type IdempotencyKey, recordIdempotentAnswer } from '../domain/payments/idempotency.ts';
import type { AppEnv } from './context.ts';
import { cartOwnerOf } from './visitor-cart.ts';

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
 */

/** How long a duplicate waits for the first answer before it is told to try later. */
const WAIT_FOR_FIRST_MS = 30_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function replay(answer: { status: number; body: string }): Response {
  return new Response(answer.body, {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=UTF-8', 'idempotent-replayed': 'true', 'cache-control': 'private, no-store' },
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

export const idempotent = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header('idempotency-key');
  // A guest's keys are its guest account's (http/visitor-cart.ts).
  const userId = cartOwnerOf(c);
  if (key === undefined || userId === null) return next();
  if (!KEY_PATTERN.test(key)) return problem(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  const { db, clock } = c.env.deps;
  const id: IdempotencyKey = { userId, scope: `${c.req.method} ${c.req.path}`, key };
  const requestHash = hashOf(await c.req.text());

  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claim = claimIdempotencyKey(db, clock, id, requestHash);
    if (claim.kind === 'claimed') break;
    if (claim.kind === 'different-request') return problem(422, 'This Idempotency-Key was already used with a different request.');
    if (claim.kind === 'answered') return replay(claim);
    if (Date.now() > deadline) return problem(409, 'A request with this Idempotency-Key is still in progress.', 'IDEMPOTENCY_KEY_IN_PROGRESS');
    await Bun.sleep(100);
  }

  try {
    await next();
  } catch (error) {
    forgetIdempotencyKey(db, id);
    throw error;
  }
  const body = await c.res.clone().text();
  if ((c.res.status >= 500 && !namesAnOrder(body)) || c.res.status === 429) {
    forgetIdempotencyKey(db, id);
    return;
  }
  recordIdempotentAnswer(db, id, c.res.status, body);
});
