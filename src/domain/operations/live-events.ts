import type { Db } from '../../db/client.ts';

/*
 * The change log the live stream reads (table live_events, filled by triggers on games, plays,
 * notifications and cart items, migration 0006). A topic names what changed: 'product:{id}' (its
 * games and entries), 'auction:{productId}' (its auction and bids, migration 0017), 'team:{productId}' (its team buys, migration 0018), 'scoreboard'
 * (any game), 'user:{id}' (that user's notifications and cart).
 * The rows carry no data: the stream sends the topic's current state, so a missed row loses
 * nothing as long as the next one for the topic arrives.
 */

export type LiveTopic = `product:${number}` | `auction:${number}` | `team:${number}` | 'scoreboard' | `user:${number}`;

/** How long rows are kept: a reconnect further behind than this gets every topic's state anew. */
export const LIVE_EVENTS_KEEP_SECONDS = 60 * 60;

export interface LiveEventRow {
  id: number;
  topic: string;
}

export function liveEventsAfter(db: Db, afterId: number, limit = 5_000): LiveEventRow[] {
  return db.$client.query<LiveEventRow, [number, number]>('select id, topic from live_events where id > ? order by id limit ?').all(afterId, limit);
}

export function lastLiveEventId(db: Db): number {
  return db.$client.query<{ id: number | null }, []>('select max(id) as id from live_events').get()?.id ?? 0;
}

/** The oldest id still kept: a resume from before it cannot know what it missed. */
export function firstLiveEventId(db: Db): number {
  return db.$client.query<{ id: number | null }, []>('select min(id) as id from live_events').get()?.id ?? 0;
}

/**
 * Once a minute, after the games job: every live game's scores moved, so its product's topic
 * changes (snapshots are written per influencer, too many rows for a trigger), and so does the
 * scoreboard, whose leader lines would otherwise stay as they were for the hour.
 */
export function announceLiveScores(db: Db): number {
  const products = db.$client
    .query("insert into live_events (topic, created_at) select distinct 'product:' || product_id, unixepoch() from games where status = 'active'")
    .run().changes;
  if (products === 0) return 0;
  return products + db.$client.query("insert into live_events (topic, created_at) values ('scoreboard', unixepoch())").run().changes;
}

export function pruneLiveEvents(db: Db): number {
  return db.$client.query('delete from live_events where created_at < unixepoch() - ?').run(LIVE_EVENTS_KEEP_SECONDS).changes;
}
