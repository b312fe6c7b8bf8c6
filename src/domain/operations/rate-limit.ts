import { and, count, desc, eq, gt, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { rateLimitEvents } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';

/**
 * Counts events per key in a sliding window, in the database, so every process on the file
 * shares one count (docs/operations.md, "Several processes"). A check and its record happen
 * in one IMMEDIATE transaction (`attempt`), so two processes cannot both slip under the limit.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    /** The limit's name in the table: 'login-ip', 'register-ip', ... */
    readonly bucket: string,
    readonly limit: number,
    readonly windowMs: number,
    private readonly clock: Clock,
    private readonly enabled = true,
  ) {}

  /** Milliseconds until the key may act again, or 0 when it is under the limit. */
  retryAfter(key: string): number {
    if (!this.enabled) return 0;
    const since = this.clock.now() - this.windowMs;
    const row = this.db
      .select({ events: count(), oldest: min(rateLimitEvents.at) })
      .from(rateLimitEvents)
      .where(and(eq(rateLimitEvents.bucket, this.bucket), eq(rateLimitEvents.key, key), gt(rateLimitEvents.at, since)))
      .get();
    if (!row || row.events < this.limit) return 0;
    // Over the limit: the key may act again once enough of its events have left the window.
    const blocking = this.db
      .select({ at: rateLimitEvents.at })
      .from(rateLimitEvents)
      .where(and(eq(rateLimitEvents.bucket, this.bucket), eq(rateLimitEvents.key, key), gt(rateLimitEvents.at, since)))
      .orderBy(desc(rateLimitEvents.at))
      .limit(1)
      .offset(this.limit - 1)
      .get();
    return Math.max(1, (blocking?.at ?? row.oldest ?? 0) + this.windowMs - this.clock.now());
  }

  record(key: string): void {
    if (!this.enabled) return;
    this.db.insert(rateLimitEvents).values({ bucket: this.bucket, key, at: this.clock.now() }).run();
  }

  /** Checks and records in one step: 0 when the event was counted, or how long to wait. */
  attempt(key: string): number {
    return this.db.transaction(() => {
      const wait = this.retryAfter(key);
      if (wait === 0) this.record(key);
      return wait;
    });
  }

  /** Takes back the newest event of the key (an attempt counted in advance that turned out fine). */
  forgetLatest(key: string): void {
    const newest = this.db
      .select({ id: rateLimitEvents.id })
      .from(rateLimitEvents)
      .where(and(eq(rateLimitEvents.bucket, this.bucket), eq(rateLimitEvents.key, key)))
      .orderBy(desc(rateLimitEvents.id))
      .limit(1)
      .get();
    if (newest) this.db.delete(rateLimitEvents).where(eq(rateLimitEvents.id, newest.id)).run();
  }

  reset(key: string): void {
    this.db
      .delete(rateLimitEvents)
      .where(and(eq(rateLimitEvents.bucket, this.bucket), eq(rateLimitEvents.key, key)))
      .run();
  }

  /** Forgets every key that starts with `prefix` (compared as text: no LIKE wildcards). */
  resetKeysStartingWith(prefix: string): void {
    this.db
      .delete(rateLimitEvents)
      .where(and(eq(rateLimitEvents.bucket, this.bucket), sql`substr(${rateLimitEvents.key}, 1, ${prefix.length}) = ${prefix}`))
      .run();
  }
}

/** Events older than `before` count for no window any more (the retention job). */
export function pruneRateLimitEvents(db: Db, before: number): number {
  return db.$client.query('delete from rate_limit_events where at <= ?').run(before).changes;
}

export function minutesText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
