import { and, eq, gte, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { games } from '../../db/schema.ts';
import { GAME_EVIDENCE_MS, SNAPSHOT_RETENTION_MS } from './schedule.ts';

/*
 * Retention of the feed's raw snapshots. A settled game's result lives in its frozen record
 * (record.ts), which nothing prunes. Raw snapshots older than SNAPSHOT_RETENTION_MS go, except
 * the hours of feed games that ended within GAME_EVIDENCE_MS: card disputes come up to about
 * 120 days after a charge, and verify-game can then recompute those games from the raw feed.
 */

/** Rows deleted in one go at most, so a first prune of a big backlog never blocks the store for long. */
export const PRUNE_BATCH = 2_000;

/**
 * Deletes the snapshots no one needs, range by range between the hours kept, at most `limit`
 * rows; returns how many went (== limit: there may be more, run again soon).
 */
export function pruneSnapshots(db: Db, now: number, limit = PRUNE_BATCH): number {
  const cutoff = now - SNAPSHOT_RETENTION_MS;
  const kept = db
    .select({ start: games.startTime, end: games.endTime })
    .from(games)
    .where(and(eq(games.metricsSource, 'feed'), isNotNull(games.startTime), gte(games.endTime, now - GAME_EVIDENCE_MS)))
    .orderBy(games.startTime)
    .all()
    .filter((w): w is { start: number; end: number } => w.start !== null && w.end !== null && w.start < cutoff);
  const remove = db.$client.prepare(
    'delete from influencer_metrics where id in (select id from influencer_metrics where minute_at >= ? and minute_at < ? limit ?)',
  );
  let removed = 0;
  let from = 0;
  const ranges: [number, number][] = [];
  for (const window of kept) {
    if (window.start > from) ranges.push([from, Math.min(window.start, cutoff)]);
    from = Math.max(from, window.end);
  }
  if (from < cutoff) ranges.push([from, cutoff]);
  db.$client.transaction(() => {
    for (const [a, b] of ranges) {
      if (removed >= limit) break;
      removed += remove.run(a, b, limit - removed).changes;
    }
  })();
  return removed;
}
