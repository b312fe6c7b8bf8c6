import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { pruneOutbox } from './mail/retention.ts';
import { pruneRateLimitEvents } from './rate-limit.ts';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
/** Rows deleted per kind and run: a backlog goes a batch a minute, never one long lock. */
export const RETENTION_BATCH = 5000;
/** Free pages given back to the file system per run (4 KiB each). */
const VACUUM_PAGES = 2000;

/*
 * Store-wide retention (docs/operations.md, "Retention"): rows nobody needs any more go, in
 * bounded batches. Nothing an order, a payment or a settled game's audit record needs is
 * touched: a void play goes only when no payment row names it and its game is not settled.
 * Then `PRAGMA incremental_vacuum` hands freed pages back, so the file stops growing.
 */
export function pruneStoreRows(db: Db, now: number, retention: Config['retention']) {
  const sql = db.$client;
  const notifications = sql
    .query('delete from notifications where id in (select id from notifications where created_at < ? limit ?)')
    .run(now - retention.notificationsDays * DAY, RETENTION_BATCH).changes;
  const sessions = sql
    .query('delete from sessions where id in (select id from sessions where expires_at < ? limit ?)')
    .run(now - retention.expiredSessionsDays * DAY, RETENTION_BATCH).changes;
  const voidPlays = sql
    .query(
      `delete from plays where id in (
         select p.id from plays p join games g on g.id = p.game_id
         where p.status = 'void' and p.created_at < ? and g.status <> 'completed'
           and not exists (select 1 from payments pay where pay.play_id = p.id)
         limit ?)`,
    )
    .run(now - retention.voidPlaysDays * DAY, RETENTION_BATCH).changes;
  const rateLimitEvents = pruneRateLimitEvents(db, now - retention.rateLimitHours * HOUR);
  const mail = pruneOutbox(db, now, retention.mailDays);
  sql.exec(`PRAGMA incremental_vacuum(${VACUUM_PAGES})`);
  return { notifications, sessions, voidPlays, rateLimitEvents, ...mail };
}
