import type { Influencer } from '../db/schema.ts';

/*
 * Influencer metrics (DESIGN section 4). A MetricsSource gives each influencer's metrics per
 * platform for one minute. The default source is a deterministic simulation seeded per
 * influencer, platform and minute, calibrated by the influencer's size and engagement: the
 * same minute always gives the same numbers, so every score can be computed again.
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
  readonly name: string;
  /** Metrics of every platform of the influencer for the minute starting at `minuteStart`. */
  minute(influencer: Pick<Influencer, 'id' | 'platforms' | 'engagementRate'>, minuteStart: number): MinuteMetrics[];
}

/** '2.4M' → 2 400 000; plain numbers are read as they are. */
export function parseFollowers(text: string): number {
  const match = /^\s*([\d.]+)\s*([KMB])?\s*$/i.exec(text ?? '');
  if (!match) return 0;
  const scale = { K: 1e3, M: 1e6, B: 1e9 }[(match[2] ?? '').toUpperCase() as 'K' | 'M' | 'B'] ?? 1;
  return Math.round(Number(match[1]) * scale);
}

/** 2 400 000 → '2.4M' (spec section 3: K, M and B suffixes). */
export function formatFollowers(count: number): string {
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (count >= size) return `${Number((count / size).toFixed(1))}${suffix}`;
  }
  return String(count);
}

/** A 32-bit hash of a string (FNV-1a), the seed of each minute's random numbers. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: small, fast and good enough for a simulation. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const YEAR_MINUTES = 525_600;

/** Points for one minute: followers gained, engagement, growth and posts (DESIGN section 4). */
export function minutePoints(m: { followers: number; engagement: number; growth: number; posts: number }): number {
  const gained = (m.followers * m.growth) / 100 / 1440;
  return Math.round((gained / 100 + m.engagement + m.growth * 5 + m.posts * 20) * 1000) / 1000;
}

export const simulatedMetrics: MetricsSource = {
  name: 'simulated',
  minute(influencer, minuteStart) {
    const minuteIndex = Math.floor(minuteStart / MINUTE_MS);
    return Object.entries(influencer.platforms).map(([platform, followersText]) => {
      const base = parseFollowers(followersText);
      const next = random(hash(`${influencer.id}:${platform}:${minuteIndex}`));
      // Audiences drift up by about 10% over a year, the same for every minute of a given day.
      const followers = Math.round(base * (1 + ((minuteIndex % YEAR_MINUTES) / YEAR_MINUTES) * 0.1));
      const engagement = Math.round(influencer.engagementRate * (0.7 + 0.6 * next()) * 100) / 100;
      const growth = Math.round((0.02 + 0.2 * next()) * (influencer.engagementRate / 3) * 1000) / 1000;
      const posts = next() < 1 / 90 ? 1 : 0;
      const metrics = { platform, followers, engagement, growth, posts };
      return { ...metrics, points: minutePoints(metrics) };
    });
  },
};

/** The start of the minute containing `time`. */
export function minuteOf(time: number): number {
  return Math.floor(time / MINUTE_MS) * MINUTE_MS;
}

/** Points of one influencer over [from, to), minute by minute (a partial minute counts whole once started). */
export function pointsBetween(source: MetricsSource, influencer: Pick<Influencer, 'id' | 'platforms' | 'engagementRate'>, from: number, to: number): number {
  let total = 0;
  for (let minute = minuteOf(from); minute < to; minute += MINUTE_MS) {
    for (const m of source.minute(influencer, minute)) total += m.points;
  }
  return Math.round(total * 1000) / 1000;
}
