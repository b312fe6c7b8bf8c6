import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { idempotencyKeys } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';

/*
 * The stored side of `Idempotency-Key` (docs/decisions.md "Money" and "Idempotency keys across
 * guests and crashes"): one row per user, route and key, claimed by the first request and
 * holding its final answer. src/http/idempotency.ts decides when to claim, replay or forget.
 *
 * Each row names the process running its request. When that process is gone (killed, its
 * liveness row lapsed: operations/process-lease.ts), the next try of the key takes it over at
 * once, and learns from the row which order the first try placed, if any.
 */

export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A row written before rows named their process: its request is taken for dead after this long. */
const ABANDONED_AFTER_MS = 2 * 60 * 1000;

export interface IdempotencyKey {
  userId: number;
  /** 'POST /api/orders' */
  scope: string;
  key: string;
}

/** Who claims: this process, and how to tell that another one is gone. */
export interface Claimant {
  owner: string;
  ownerGone: (owner: string) => boolean;
  /** A guest's request: the key is the route's alone. `madeGuest`: this request made the guest account. */
  guest?: { madeGuest: boolean };
}

export type ClaimResult =
  /** `takenOver`: the first try's process (`from`) died; `orderId` is the order it had placed, if any. */
  | { kind: 'claimed'; takenOver?: { from: string | null; orderId: number | null } }
  | { kind: 'different-request' }
  | { kind: 'answered'; status: number; body: string }
  | { kind: 'in-progress' }
  /** Another guest's request holds this key on this route (two first tries at once): retry as that guest. */
  | { kind: 'other-guest'; userId: number };

function whereKey(id: IdempotencyKey) {
  return and(eq(idempotencyKeys.userId, id.userId), eq(idempotencyKeys.scope, id.scope), eq(idempotencyKeys.key, id.key));
}

/** A guest's first try of this key on this route, whoever sends the retry (with or without its cookie). */
export function findGuestKey(db: Queryable, scope: string, key: string) {
  return db
    .select({ userId: idempotencyKeys.userId, requestHash: idempotencyKeys.requestHash, madeGuest: idempotencyKeys.madeGuest })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), eq(idempotencyKeys.guest, true)))
    .get();
}

function abandoned(seen: typeof idempotencyKeys.$inferSelect, claimant: Claimant, now: number): boolean {
  if (seen.owner === null) return seen.createdAt < now - ABANDONED_AFTER_MS;
  return seen.owner !== claimant.owner && claimant.ownerGone(seen.owner);
}

/** One attempt to own the key: the first request claims it; a later one learns what became of the first. */
export function claimIdempotencyKey(db: Queryable, clock: Clock, id: IdempotencyKey, requestHash: string, claimant: Claimant): ClaimResult {
  for (;;) {
    const now = clock.now();
    const claimed = insertKey(db).all({
      ...id,
      requestHash,
      createdAt: now,
      owner: claimant.owner,
      guest: claimant.guest !== undefined,
      madeGuest: claimant.guest?.madeGuest ?? false,
    });
    if (claimed.length > 0) return { kind: 'claimed' };
    const seen = keyRow(db).get({ ...id });
    if (!seen) {
      const other = claimant.guest ? findGuestKey(db, id.scope, id.key) : undefined;
      if (other) return other.requestHash === requestHash ? { kind: 'other-guest', userId: other.userId } : { kind: 'different-request' };
      continue; // forgotten in between (a 5xx): claim it again
    }
    if (seen.requestHash !== requestHash) return { kind: 'different-request' };
    if (seen.responseStatus !== null) return { kind: 'answered', status: seen.responseStatus, body: seen.responseBody ?? '' };
    if (!abandoned(seen, claimant, now)) return { kind: 'in-progress' };
    // The first request died with its process: take the key over, if nobody else did meanwhile.
    const takenOver = db
      .update(idempotencyKeys)
      .set({ owner: claimant.owner })
      .where(
        and(whereKey(id), isNull(idempotencyKeys.responseStatus), seen.owner === null ? isNull(idempotencyKeys.owner) : eq(idempotencyKeys.owner, seen.owner)),
      )
      .returning({ orderId: idempotencyKeys.orderId })
      .get();
    if (takenOver) return { kind: 'claimed', takenOver: { from: seen.owner, orderId: takenOver.orderId } };
  }
}

/* Every purchase, entry and team place sent with a key claims it first: built once (db/prepared.ts). */
const insertKey = preparedOnce((db) =>
  db
    .insert(idempotencyKeys)
    .values({
      userId: sql.placeholder('userId'),
      scope: sql.placeholder('scope'),
      key: sql.placeholder('key'),
      requestHash: sql.placeholder('requestHash'),
      createdAt: sql.placeholder('createdAt'),
      owner: sql.placeholder('owner'),
      guest: sql.placeholder('guest'),
      madeGuest: sql.placeholder('madeGuest'),
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key })
    .prepare(),
);
const keyRow = preparedOnce((db) =>
  db
    .select()
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, sql.placeholder('userId')),
        eq(idempotencyKeys.scope, sql.placeholder('scope')),
        eq(idempotencyKeys.key, sql.placeholder('key')),
      ),
    )
    .prepare(),
);

function whereOwned(id: IdempotencyKey, owner: string) {
  return and(whereKey(id), eq(idempotencyKeys.owner, owner));
}

/** The first request's final answer, replayed to every duplicate (unless the key was taken from this process meanwhile). */
export function recordIdempotentAnswer(db: Queryable, id: IdempotencyKey, owner: string, status: number, body: string): void {
  db.update(idempotencyKeys).set({ responseStatus: status, responseBody: body }).where(whereOwned(id, owner)).run();
}

/** No final answer (a 5xx or a crash of the handler): the retry asks again. */
export function forgetIdempotencyKey(db: Queryable, id: IdempotencyKey, owner: string): void {
  db.delete(idempotencyKeys).where(whereOwned(id, owner)).run();
}

export function pruneIdempotencyKeys(db: Queryable, now: number): void {
  db.delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_KEY_LIFETIME_MS))
    .run();
}

const running = new AsyncLocalStorage<{ id: IdempotencyKey; owner: string }>();

/** Runs a request's work under its key, so the order it places is written on the key's row. */
export function underIdempotencyKey<T>(id: IdempotencyKey, owner: string, work: () => T): T {
  return running.run({ id, owner }, work);
}

/**
 * Called in the transaction that writes an order: the running request's key (if any) names
 * it, atomically with it, so a retry that takes the key over after a crash finishes that order
 * instead of placing a second one. The first order a request places is its own.
 */
export function noteIdempotentOrder(tx: Queryable, orderId: number): void {
  const attempt = running.getStore();
  if (!attempt) return;
  tx.update(idempotencyKeys)
    .set({ orderId })
    // Not after the answer: work the request left running in the background is not its purchase.
    .where(and(whereOwned(attempt.id, attempt.owner), isNull(idempotencyKeys.orderId), isNull(idempotencyKeys.responseStatus)))
    .run();
}
