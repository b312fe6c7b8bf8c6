import { and, eq, isNull, notExists, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../db/client.ts';
import { gameRecords, games, plays, products, users } from '../../db/schema.ts';
import { createFeedSource } from './metrics-feed.ts';
import type { MetricsSource } from './metrics.ts';
import { buildRecord, saveRecord } from './record.ts';
import { calibrationOf, rank, storedPoints } from './scoring.ts';
import { simulatedMetrics as simulatedSource } from './simulation.ts';
import { newGameSeed } from './seeds.ts';
import { isStarted } from './schedule.ts';

/** The configured metrics source; games from before commit and reveal get a seed or a record now. */
export function metricsFromConfig(db: Queryable, config: Pick<Config, 'metricsSource' | 'metricsFeed'>): MetricsSource {
  giveSeedsToOpenGames(db);
  recordGamesSettledBefore(db);
  if (config.metricsSource === 'feed') {
    return createFeedSource({ url: config.metricsFeed.url!, key: config.metricsFeed.key, timeoutMs: config.metricsFeed.timeoutMs });
  }
  return simulatedSource;
}

/** Waiting and live games from before commit and reveal: each draws its seed (its hash is public from now on). */
export function giveSeedsToOpenGames(db: Queryable): number {
  const open = db
    .select({ id: games.id })
    .from(games)
    .where(sql`${games.status} in ('waiting', 'active') and ${isNull(games.seed)}`)
    .all();
  for (const { id } of open)
    db.update(games)
      .set(newGameSeed())
      .where(sql`${games.id} = ${id} and ${isNull(games.seed)}`)
      .run();
  return open.length;
}

/**
 * Games settled before frozen records existed get one from what they stored then: the plays'
 * scores and the snapshots of their hour (no seed: they were not committed). Runs once each.
 */
export function recordGamesSettledBefore(db: Queryable): number {
  const old = db
    .select()
    .from(games)
    .where(and(eq(games.status, 'completed'), notExists(db.select({ id: gameRecords.gameId }).from(gameRecords).where(eq(gameRecords.gameId, games.id)))))
    .all();
  for (const game of old) {
    const product = db.select().from(products).where(eq(products.id, game.productId)).get();
    if (!product || !isStarted(game)) continue;
    const entries = db
      .select({ play: plays, username: users.username })
      .from(plays)
      .innerJoin(users, eq(plays.userId, users.id))
      .where(and(eq(plays.gameId, game.id), eq(plays.status, 'entered')))
      .all();
    const calibration = calibrationOf(db, [...new Set(entries.flatMap((e) => e.play.influencerIds.map(Number)))]);
    const points = storedPoints(db, Object.keys(calibration).map(Number), game.startTime, game.endTime);
    const ranked = rank(entries.map(({ play, username }) => ({ ...play, username, score: play.score ?? 0 })));
    saveRecord(db, buildRecord(game, product, calibration, points, ranked, game.settledAt ?? game.endTime));
  }
  return old.length;
}
