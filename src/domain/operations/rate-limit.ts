import { and, count, desc, eq, gt, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { rateLimitEvents } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';

/* Every sign-in, registration and checkout asks these: built once (db/prepared.ts). */
const inWindow = and(
  eq(rateLimitEvents.bucket, sql.placeholder('bucket')),
  eq(rateLimitEvents.key, sql.placeholder('key')),
  gt(rateLimitEvents.at, sql.placeholder('since')),
);
const ofKey = and(eq(rateLimitEvents.bucket, sql.placeholder('bucket')), eq(rateLimitEvents.key, sql.placeholder('key')));
const windowCount = preparedOnce((db) =>
  db
    .select({ events: count(), oldest: min(rateLimitEvents.at) })
    .from(rateLimitEvents)
    .where(inWindow)
    .prepare(),
);
const nthNewest = preparedOnce((db) =>
  db
    .select({ at: rateLimitEvents.at })
    .from(rateLimitEvents)
    .where(inWindow)
    .orderBy(desc(rateLimitEvents.at))
    .limit(1)
    .offset(sql.placeholder('skip'))
    .prepare(),
);
const recordEvent = preparedOnce((db) =>
  db
    .insert(rateLimitEvents)
    .values({ bucket: sql.placeholder('bucket'), key: sql.placeholder('key'), at: sql.placeholder('at') })
    .prepare(),
);
const newestOfKey = preparedOnce((db) =>
  db.select({ id: rateLimitEvents.id }).from(rateLimitEvents).where(ofKey).orderBy(desc(rateLimitEvents.id)).limit(1).prepare(),
);
const forgetEvent = preparedOnce((db) =>
  db
    .delete(rateLimitEvents)
    .where(eq(rateLimitEvents.id, sql.placeholder('id')))
    .prepare(),
);
const resetKey = preparedOnce((db) => db.delete(rateLimitEvents).where(ofKey).prepare());

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
    const window = { bucket: this.bucket, key, since };
    const row = windowCount(this.db).get(window);
    if (!row || row.events < this.limit) return 0;
    // Over the limit: the key may act again once enough of its events have left the window.
    const blocking = nthNewest(this.db).get({ ...window, skip: this.limit - 1 });
    return Math.max(1, (blocking?.at ?? row.oldest ?? 0) + this.windowMs - this.clock.now());
  }

  record(key: string): void {
    if (!this.enabled) return;
    recordEvent(this.db).run({ bucket: this.bucket, key, at: this.clock.now() });
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
    const newest = newestOfKey(this.db).get({ bucket: this.bucket, key });
    if (newest) forgetEvent(this.db).run({ id: newest.id });
  }

  reset(key: string): void {
    resetKey(this.db).run({ bucket: this.bucket, key });
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
