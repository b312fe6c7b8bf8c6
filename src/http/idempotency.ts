import { and, eq, isNull, lt } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { createHash } from 'node:crypto';
import { idempotencyKeys } from '../db/schema.ts';
import type { AppEnv } from './context.ts';

/*
 * `Idempotency-Key` on POST /api/checkout, /api/orders and /api/payments (docs/decisions.md
 * "Money"): the same key from the same user on the same route returns the first answer again
 * and does nothing more. A duplicate sent while the first is still running waits for its
 * answer. Only final answers are kept: a 5xx (the outcome is not known yet) is forgotten, so
 * the retry asks again, and the money paths' own locks keep that retry from paying twice.
 */

export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A first request that has not answered after this long died with its process: the key is free again. */
const ABANDONED_AFTER_MS = 2 * 60 * 1000;
/** How long a duplicate waits for the first answer before it is told to try later. */
const WAIT_FOR_FIRST_MS = 30_000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function replay(row: { responseStatus: number | null; responseBody: string | null }): Response {
  return new Response(row.responseBody ?? '', {
    status: row.responseStatus ?? 200,
    headers: { 'content-type': 'application/json; charset=UTF-8', 'idempotent-replayed': 'true', 'cache-control': 'private, no-store' },
  });
}

function problem(status: 400 | 409 | 422, message: string): Response {
  return new Response(JSON.stringify({ message }), { status, headers: { 'content-type': 'application/json; charset=UTF-8' } });
}

export const idempotent = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header('idempotency-key');
  const user = c.var.user;
  if (key === undefined || !user) return next();
  if (!KEY_PATTERN.test(key)) return problem(400, 'Idempotency-Key must be 1 to 255 visible ASCII characters.');
  const { db, clock } = c.var.deps;
  const scope = `${c.req.method} ${c.req.path}`;
  const requestHash = hashOf(await c.req.text());
  const where = and(eq(idempotencyKeys.userId, user.id), eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key));

  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const now = clock.now();
    const claimed = db
      .insert(idempotencyKeys)
      .values({ userId: user.id, scope, key, requestHash, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key })
      .all();
    if (claimed.length > 0) break;
    const seen = db.select().from(idempotencyKeys).where(where).get();
    if (!seen) continue; // forgotten in between (a 5xx): claim it again
    if (seen.requestHash !== requestHash) return problem(422, 'This Idempotency-Key was already used with a different request.');
    if (seen.responseStatus !== null) return replay(seen);
    // The first request died with its process: take the key over.
    const takenOver = db
      .update(idempotencyKeys)
      .set({ createdAt: now })
      .where(and(where, isNull(idempotencyKeys.responseStatus), lt(idempotencyKeys.createdAt, now - ABANDONED_AFTER_MS)))
      .returning({ key: idempotencyKeys.key })
      .all();
    if (takenOver.length > 0) break;
    if (Date.now() > deadline) return problem(409, 'A request with this Idempotency-Key is still in progress.');
    await Bun.sleep(100);
  }

  try {
    await next();
  } catch (error) {
    db.delete(idempotencyKeys).where(where).run();
    throw error;
  }
  if (c.res.status >= 500) {
    db.delete(idempotencyKeys).where(where).run();
    return;
  }
  const body = await c.res.clone().text();
  db.update(idempotencyKeys).set({ responseStatus: c.res.status, responseBody: body }).where(where).run();
});
