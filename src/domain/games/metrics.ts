import type { Db } from '../../db/client.ts';
import type { Influencer, MetricsSourceName } from '../../db/schema.ts';

/*
 * Influencer metrics (DESIGN section 4). Points come minute by minute from four metrics per
 * platform. A game's metrics come from the source it opened with: 'simulated' (games/simulation.ts,
 * driven by the game's secret seed) or 'feed' (a data provider's per-minute feed, stored as
 * snapshots by metrics-feed.ts). The MetricsSource of the process also fills the influencer list
 * and does the per-minute collection.
 */

export const MINUTE_MS = 60_000;

export interface MinuteMetrics {
  platform: string;
  /** Followers at that minute. */
  followers: number;
  /** Engagement rate in percent during that minute. */
  engagement: number;
  /** Follower growth in percent per day at that minute. */
  growth: number;
  /** Posts published during that minute. */
  posts: number;
  /** Points earned during that minute. */
  points: number;
}

export interface MetricsSource {
  /** What new games use. */
  readonly name: MetricsSourceName;
  /** Each influencer's latest metrics per platform and points over the last hour, for the influencer list. */
  recent(db: Db, people: Influencer[], now: number): Map<number, { minute: MinuteMetrics[]; lastHour: number }>;
  /** The per-minute job: the feed fetches what the provider has; the simulation has nothing to do. */
  collect(db: Db, now: number): Promise<void>;
}

/** Points for one minute: followers gained, engagement, growth and posts (DESIGN section 4). */
export function minutePoints(m: { followers: number; engagement: number; growth: number; posts: number }): number {
  const gained = (m.followers * m.growth) / 100 / 1440;
  return roundPoints(gained / 100 + m.engagement + m.growth * 5 + m.posts * 20);
}

/** Points are kept to three decimals at every sum, so any recomputation gives the same figure. */
export function roundPoints(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The start of the minute containing `time`. */
export function minuteOf(time: number): number {
  return Math.floor(time / MINUTE_MS) * MINUTE_MS;
}
