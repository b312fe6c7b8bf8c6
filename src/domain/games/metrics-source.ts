import { isNull, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { games } from '../../db/schema.ts';
import { createFeedSource } from '../metrics-feed.ts';
import type { MetricsSource } from '../metrics.ts';
import { drawSeed, simulatedMetrics as simulatedSource } from './simulation.ts';

/** The configured metrics source; games opened before seeds existed get one now. */
export function metricsFromConfig(db: Db, config: Pick<Config, 'metricsSource' | 'metricsFeed'>): MetricsSource {
  giveSeedsToOpenGames(db);
  if (config.metricsSource === 'feed') {
    return createFeedSource({ url: config.metricsFeed.url!, key: config.metricsFeed.key, timeoutMs: config.metricsFeed.timeoutMs });
  }
  return simulatedSource;
}

/** Waiting and live games from before commit and reveal: each draws its seed (its hash is public from now on). */
export function giveSeedsToOpenGames(db: Db): number {
  const open = db.select({ id: games.id }).from(games).where(sql`${games.status} in ('waiting', 'active') and ${isNull(games.seed)}`).all();
  for (const { id } of open) db.update(games).set(drawSeed()).where(sql`${games.id} = ${id} and ${isNull(games.seed)}`).run();
  return open.length;
}
