import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { idempotencyKeys } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';

/*
 * The stored side of `Idempotency-Key` (docs/decisions.md "Money"): one row per user, route and
 * key, claimed by the first request and holding its final answer. src/http/idempotency.ts
 * decides when to claim, replay or forget.
 */

export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A first request that has not answered after this long died with its process: the key is free again. */
const ABANDONED_AFTER_MS = 2 * 60 * 1000;

export interface IdempotencyKey {
  userId: number;
  /** 'POST /api/orders' */
  scope: string;
  key: string;
}

export type ClaimResult = { kind: 'claimed' } | { kind: 'different-request' } | { kind: 'answered'; status: number; body: string } | { kind: 'in-progress' };

function whereKey(id: IdempotencyKey) {
  return and(eq(idempotencyKeys.userId, id.userId), eq(idempotencyKeys.scope, id.scope), eq(idempotencyKeys.key, id.key));
}

/** One attempt to own the key: the first request claims it; a later one learns what became of the first. */
export function claimIdempotencyKey(db: Queryable, clock: Clock, id: IdempotencyKey, requestHash: string): ClaimResult {
  for (;;) {
    const now = clock.now();
    const claimed = db
      .insert(idempotencyKeys)
      .values({ ...id, requestHash, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key })
      .all();
    if (claimed.length > 0) return { kind: 'claimed' };
    const seen = db.select().from(idempotencyKeys).where(whereKey(id)).get();
    if (!seen) continue; // forgotten in between (a 5xx): claim it again
    if (seen.requestHash !== requestHash) return { kind: 'different-request' };
    if (seen.responseStatus !== null) return { kind: 'answered', status: seen.responseStatus, body: seen.responseBody ?? '' };
    // The first request died with its process: take the key over.
    const takenOver = db
      .update(idempotencyKeys)
      .set({ createdAt: now })
      .where(and(whereKey(id), isNull(idempotencyKeys.responseStatus), lt(idempotencyKeys.createdAt, now - ABANDONED_AFTER_MS)))
      .returning({ key: idempotencyKeys.key })
      .all();
    return takenOver.length > 0 ? { kind: 'claimed' } : { kind: 'in-progress' };
  }
}

/** The first request's final answer, replayed to every duplicate. */
export function recordIdempotentAnswer(db: Queryable, id: IdempotencyKey, status: number, body: string): void {
  db.update(idempotencyKeys).set({ responseStatus: status, responseBody: body }).where(whereKey(id)).run();
}

/** No final answer (a 5xx or a crash of the handler): the retry asks again. */
export function forgetIdempotencyKey(db: Queryable, id: IdempotencyKey): void {
  db.delete(idempotencyKeys).where(whereKey(id)).run();
}

export function pruneIdempotencyKeys(db: Queryable, now: number): void {
  db.delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_KEY_LIFETIME_MS))
    .run();
}
