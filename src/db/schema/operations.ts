import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.ts';

/*
 * Operations: the rows the running service keeps for itself (request idempotency, rate limits,
 * settings, cache and live-stream counters, the jobs' lease), not the shop's data.
 */

/**
 * Idempotency-Key of POST /api/checkout, /api/orders and /api/payments: the same key from the
 * same user gets the first answer again and does nothing more. A guest's key is found by route
 * and key alone (its retry may come without the cart cookie), and a key whose owning process
 * died is taken over at once (docs/decisions.md "Idempotency keys across guests and crashes").
 */
export const idempotencyKeys = sqliteTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** 'POST /api/checkout' */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** SHA-256 of the request body: the same key with another body is refused. */
    requestHash: text('request_hash').notNull(),
    /** null while the first request runs. */
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: integer('created_at').notNull(),
    /** The process running the request ('host:pid:random', its liveness row in job_leases); null in rows older than migration 0024. */
    owner: text('owner'),
    /** A guest's key: one per route and key, whoever sends it. */
    guest: integer('guest', { mode: 'boolean' }).notNull().default(false),
    /** The request made its guest account: a retry without the cookie may be given that guest's cookie again. */
    madeGuest: integer('made_guest', { mode: 'boolean' }).notNull().default(false),
    /** The order the request placed, written in the order's own transaction: a taken-over retry finishes it. */
    orderId: integer('order_id'),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.scope, t.key] }),
    index('idempotency_keys_created_idx').on(t.createdAt),
    uniqueIndex('idempotency_keys_guest_key_idx').on(t.scope, t.key).where(sql`${t.guest} = 1`),
  ],
);

/** Small key-value store for values generated once, such as the development admin PIN. */
export const appSettings = sqliteTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * Sign-in, registration, PIN and card attempts, one row per counted event, shared by every
 * process on the database (domain/operations/rate-limit.ts). Old rows are pruned by the retention job.
 */
export const rateLimitEvents = sqliteTable(
  'rate_limit_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Which limit counts it: 'login-ip', 'login-username', 'register-ip', ... */
    bucket: text('bucket').notNull(),
    key: text('key').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('rate_limit_events_key_idx').on(t.bucket, t.key, t.at), index('rate_limit_events_at_idx').on(t.at)],
);

/**
 * Counters bumped by triggers (migration 0004) whenever something a visitor's page shows
 * changes: products, games, plays. Every process compares 'storefront' with the value its
 * page cache was filled at, so a sale or a price change on one process reaches all of them.
 */
export const changeCounters = sqliteTable('change_counters', {
  name: text('name').primaryKey(),
  value: integer('value').notNull(),
});

/**
 * What changed, for the live stream (GET /api/events): a row per change of a topic
 * ('product:{id}', 'scoreboard', 'user:{id}'), written by triggers (migration 0006) in the
 * transaction of the change, whichever process made it; the stream sends each subscriber the
 * new state of its topics, and a reconnect resumes after the last id it saw.
 */
export const liveEvents = sqliteTable(
  'live_events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    topic: text('topic').notNull(),
    /** Unix seconds (SQLite's clock: triggers have no other), for pruning. */
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('live_events_created_idx').on(t.createdAt)],
);

/**
 * What the header shows a signed-in user (cart count, notifications, profile dot) changes
 * whenever this row's version moves: triggers on cart_items, notifications and user_profiles
 * (migration 0007) bump it in the transaction of the change, whichever process made it. The
 * session lookup reads it, so a page's header from the viewer cache is never one change behind.
 */
export const viewerVersions = sqliteTable('viewer_versions', {
  userId: integer('user_id').primaryKey(),
  version: integer('version').notNull(),
});

/** Who runs the game jobs: one process holds the lease and renews it; another takes it once it expires. */
export const jobLeases = sqliteTable('job_leases', {
  name: text('name').primaryKey(),
  /** 'host:pid:random' of the process holding it. */
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at').notNull(),
  renewedAt: integer('renewed_at').notNull(),
  /** When the holder last finished a tick of every job: the jobs heartbeat of /readyz. */
  tickedAt: integer('ticked_at'),
});
