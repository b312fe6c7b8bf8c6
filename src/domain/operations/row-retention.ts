import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { pruneOutbox } from '../mail/retention.ts';
import { pruneRateLimitEvents } from './rate-limit.ts';
import { yieldToRequests } from './slices.ts';
import { VISITOR_COOKIE_DAYS, VISITOR_PREFIX } from '../../shared/visitor.ts';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
/** Rows deleted per kind and run: a backlog goes a batch a minute, never one long lock. */
export const RETENTION_BATCH = 5000;
/** Rows deleted between two turns for the requests (each delete is its own short write). */
const SLICE_ROWS = 1000;
/** Free pages given back to the file system per run (4 KiB each), VACUUM_SLICE at a time. */
const VACUUM_PAGES = 2000;
const VACUUM_SLICE = 500;

/** Up to RETENTION_BATCH rows, SLICE_ROWS at a time with a turn for the requests in between. */
async function deleteInSlices(remove: (limit: number) => number): Promise<number> {
  let deleted = 0;
  while (deleted < RETENTION_BATCH) {
    const limit = Math.min(SLICE_ROWS, RETENTION_BATCH - deleted);
    const removed = remove(limit);
    deleted += removed;
    if (removed < limit) break;
    await yieldToRequests();
  }
  return deleted;
}

/*
 * Store-wide retention (docs/operations.md, "Retention"): rows nobody needs any more go, in
 * bounded batches sliced so requests are answered in between (slices.ts). Nothing an order, a
 * payment or a settled game's audit record needs is touched: a void play goes only when no
 * payment row names it and its game is not settled. Then `PRAGMA incremental_vacuum` hands
 * freed pages back, so the file stops growing.
 */
export async function pruneStoreRows(db: Db, now: number, retention: Config['retention']) {
  const sql = db.$client;
  const notificationsBefore = now - retention.notificationsDays * DAY;
  const notifications = await deleteInSlices(
    (limit) =>
      sql.query('delete from notifications where id in (select id from notifications where created_at < ? limit ?)').run(notificationsBefore, limit).changes,
  );
  const sessionsBefore = now - retention.expiredSessionsDays * DAY;
  const sessions = await deleteInSlices(
    (limit) => sql.query('delete from sessions where id in (select id from sessions where expires_at < ? limit ?)').run(sessionsBefore, limit).changes,
  );
  const playsBefore = now - retention.voidPlaysDays * DAY;
  const voidPlays = await deleteInSlices(
    (limit) =>
      sql
        .query(
          `delete from plays where id in (
             select p.id from plays p join games g on g.id = p.game_id
             where p.status = 'void' and p.created_at < ? and g.status <> 'completed'
               and not exists (select 1 from payments pay where pay.play_id = p.id)
             limit ?)`,
        )
        .run(playsBefore, limit).changes,
  );
  // A self-exclusion's hashed identifiers (play-exclusions.ts) are kept for its period only.
  const endedExclusions = await deleteInSlices(
    (limit) => sql.query('delete from play_exclusions where id in (select id from play_exclusions where excluded_until <= ? limit ?)').run(now, limit).changes,
  );
  // A visitor's cart outlives its cookie (30 days from the first add) by nothing: its guest account goes, unless it ordered.
  const guestsBefore = now - (VISITOR_COOKIE_DAYS + 1) * DAY;
  const guestCarts = await deleteInSlices(
    (limit) =>
      sql
        .query(
          `delete from users where id in (
             select u.id from users u
             where substr(u.username, 1, ?) = ? and u.created_at < ?
               and not exists (select 1 from orders o where o.user_id = u.id)
               and not exists (select 1 from payments pay where pay.user_id = u.id)
             limit ?)`,
        )
        .run(VISITOR_PREFIX.length, VISITOR_PREFIX, guestsBefore, limit).changes,
  );
  const rateLimitEvents = pruneRateLimitEvents(db, now - retention.rateLimitHours * HOUR);
  const mail = pruneOutbox(db, now, retention.mailDays);
  for (let pages = 0; pages < VACUUM_PAGES; pages += VACUUM_SLICE) {
    const free = (sql.query('PRAGMA freelist_count').get() as { freelist_count: number }).freelist_count;
    if (free === 0) break;
    await yieldToRequests();
    sql.exec(`PRAGMA incremental_vacuum(${VACUUM_SLICE})`);
  }
  return { notifications, sessions, voidPlays, endedExclusions, guestCarts, rateLimitEvents, ...mail };
}
