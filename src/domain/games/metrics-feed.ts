import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { games, influencerMetrics, influencers } from '../../db/schema.ts';
import { MINUTE_MS, minuteOf, minutePoints, roundPoints, type MetricsSource, type MinuteMetrics } from './metrics.ts';
import { log } from '../../log.ts';

/*
 * METRICS_SOURCE=feed: real per-minute metrics from a data provider's HTTP JSON feed (the
 * contract is docs/metrics-feed.md). Every minute the job asks for the minutes not stored yet:
 * the last few minutes (for the influencer list and live scores) and every minute a live or
 * ended feed game still lacks. Each answer is stored as snapshots; scoring reads them. A late
 * feed is logged; a game whose hour stays incomplete is voided at FEED_SETTLE_DEADLINE_MS.
 */

export interface FeedOptions {
  url: string;
  key?: string;
  timeoutMs: number;
  /** Attempts per minute asked (network errors and 5xx are retried; 404 means 'not ready'). */
  attempts?: number;
  /** The first pause before asking again (150 ms); each next one is four times longer. */
  retryPauseMs?: number;
  /** Most minutes asked in one tick, so a long outage is caught up over several ticks. */
  maxMinutesPerTick?: number;
  log?: (line: string) => void;
}

const metricSchema = z.object({
  followers: z.number().int().min(0).max(1e11),
  engagement: z.number().min(0).max(100),
  growth: z.number().min(-100).max(100),
  posts: z.number().int().min(0).max(1_000),
});
export const feedMinuteSchema = z.object({
  minute: z.number().int(),
  influencers: z.array(z.object({ handle: z.string().min(1).max(100), platforms: z.record(z.string().min(1).max(40), metricSchema) })).max(10_000),
});
export type FeedMinute = z.infer<typeof feedMinuteSchema>;

/** How long after a minute ends before its absence is logged as late. */
export const FEED_LATE_AFTER_MS = 5 * MINUTE_MS;
/** The last minutes always asked for, for the list and live scores. */
const RECENT_MINUTES = 10;

type Answer = { kind: 'data'; body: FeedMinute } | { kind: 'not-ready'; status: number } | { kind: 'error'; detail: string };

const normalHandle = (handle: string) => handle.trim().replace(/^@/, '').toLowerCase();

export function createFeedSource(options: FeedOptions): MetricsSource & { fetchMinute(minute: number): Promise<Answer> } {
  const attempts = options.attempts ?? 3;
  const retryPauseMs = options.retryPauseMs ?? 150;
  const maxPerTick = options.maxMinutesPerTick ?? 60;
  const warn = options.log ?? ((line: string) => log.warn({ component: 'metrics-feed' }, line));

  async function fetchMinute(minute: number): Promise<Answer> {
    let detail = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        const url = new URL(options.url);
        url.searchParams.set('minute', String(minute));
        const response = await fetch(url, {
          headers: { accept: 'application/json', ...(options.key ? { authorization: `Bearer ${options.key}` } : {}) },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        if (response.status === 404 || response.status === 425 || response.status === 204) return { kind: 'not-ready', status: response.status };
        if (response.ok) {
          const parsed = feedMinuteSchema.safeParse(await response.json().catch(() => null));
          if (parsed.success && parsed.data.minute === minute) return { kind: 'data', body: parsed.data };
          return {
            kind: 'error',
            detail: parsed.success ? `answered minute ${parsed.data.minute} for ${minute}` : `invalid body: ${parsed.error.issues[0]?.message}`,
          };
        }
        detail = `HTTP ${response.status}`;
        // A refused key or a bad request does not get better by asking again.
        if (response.status < 500 && response.status !== 429) return { kind: 'error', detail };
      } catch (error) {
        detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      }
      if (attempt < attempts) await Bun.sleep(retryPauseMs * 4 ** (attempt - 1));
    }
    return { kind: 'error', detail };
  }

  function store(db: Db, body: FeedMinute, now: number): number {
    const ids = new Map(
      db
        .select({ id: influencers.id, handle: influencers.handle })
        .from(influencers)
        .all()
        .map((i) => [normalHandle(i.handle), i.id]),
    );
    const statement = db.$client.prepare(
      `insert into influencer_metrics (influencer_id, platform, minute_at, followers, engagement, growth, posts, points, source, taken_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, 'feed', ?) on conflict do nothing`,
    );
    let stored = 0;
    db.$client.transaction(() => {
      for (const person of body.influencers) {
        const id = ids.get(normalHandle(person.handle));
        if (id === undefined) continue;
        for (const [platform, m] of Object.entries(person.platforms)) {
          statement.run(id, platform, body.minute, m.followers, m.engagement, m.growth, m.posts, minutePoints(m), now);
          stored++;
        }
      }
    })();
    return stored;
  }

  return {
    name: 'feed',
    fetchMinute,
    recent(db, people, now) {
      const latest = db.$client.query<{ at: number | null }, []>(`select max(minute_at) as at from influencer_metrics where source = 'feed'`).get()?.at ?? null;
      const rows = latest === null ? [] : db.select().from(influencerMetrics).where(eq(influencerMetrics.minuteAt, latest)).all();
      const hour = db
        .select({ id: influencerMetrics.influencerId, points: sql<number>`sum(${influencerMetrics.points})` })
        .from(influencerMetrics)
        .where(and(gte(influencerMetrics.minuteAt, minuteOf(now) - 60 * MINUTE_MS), lt(influencerMetrics.minuteAt, minuteOf(now))))
        .groupBy(influencerMetrics.influencerId)
        .all();
      const lastHour = new Map(hour.map((h) => [h.id, roundPoints(h.points)]));
      return new Map(
        people.map((person) => {
          const minute: MinuteMetrics[] = rows
            .filter((r) => r.influencerId === person.id)
            .map((r) => ({ platform: r.platform, followers: r.followers, engagement: r.engagement, growth: r.growth, posts: r.posts, points: r.points }));
          return [person.id, { minute, lastHour: lastHour.get(person.id) ?? 0 }];
        }),
      );
    },
    async collect(db, now) {
      const wanted = minutesWanted(db, now).slice(0, maxPerTick);
      let lastProblem = '';
      const delivered = new Set<number>();
      for (const minute of wanted) {
        const answer = await fetchMinute(minute);
        if (answer.kind === 'data') {
          store(db, answer.body, now);
          delivered.add(minute);
          continue;
        }
        lastProblem = answer.kind === 'not-ready' ? `HTTP ${answer.status} (not ready)` : answer.detail;
        // The feed is down or behind: later minutes will not be there either; the next tick asks again.
        if (answer.kind === 'error' || minute >= now - FEED_LATE_AFTER_MS) break;
      }
      const late = wanted.filter((m) => !delivered.has(m) && m + MINUTE_MS <= now - FEED_LATE_AFTER_MS);
      if (late.length) {
        const oldest = Math.min(...late);
        warn(
          `metrics feed: late: ${late.length} minute(s) not delivered, the oldest ${new Date(oldest).toISOString()} (${Math.round((now - oldest) / MINUTE_MS)} min ago); last answer: ${lastProblem || 'none'}`,
        );
      }
    },
  };
}

/** The minutes to ask for, oldest first: recent ones not stored, and every minute a feed game still lacks. */
export function minutesWanted(db: Db, now: number): number[] {
  const lastDone = minuteOf(now) - MINUTE_MS;
  const wanted = new Set<number>();
  const recentFrom = lastDone - (RECENT_MINUTES - 1) * MINUTE_MS;
  const have = new Set(
    db.$client
      .query<{ m: number }, [number]>(`select distinct minute_at as m from influencer_metrics where minute_at >= ? and source = 'feed'`)
      .all(recentFrom)
      .map((r) => r.m),
  );
  for (let m = recentFrom; m <= lastDone; m += MINUTE_MS) if (!have.has(m)) wanted.add(m);
  // Live and ended, unsettled feed games: each minute where one of its influencers has no snapshot.
  const open = db
    .select({ startTime: games.startTime, endTime: games.endTime, calibration: games.calibration })
    .from(games)
    .where(and(eq(games.status, 'active'), eq(games.metricsSource, 'feed')))
    .all();
  for (const game of open) {
    const ids = Object.keys(game.calibration ?? {}).map(Number);
    if (!game.startTime || !game.endTime || ids.length === 0) continue;
    const to = Math.min(game.endTime, lastDone + MINUTE_MS);
    const covered = new Map(
      db
        .select({ minute: influencerMetrics.minuteAt, n: sql<number>`count(distinct ${influencerMetrics.influencerId})` })
        .from(influencerMetrics)
        .where(and(inArray(influencerMetrics.influencerId, ids), gte(influencerMetrics.minuteAt, game.startTime), lt(influencerMetrics.minuteAt, to)))
        .groupBy(influencerMetrics.minuteAt)
        .all()
        .map((r) => [r.minute, r.n]),
    );
    for (let m = game.startTime; m < to; m += MINUTE_MS) if ((covered.get(m) ?? 0) < ids.length) wanted.add(m);
  }
  return [...wanted].sort((a, b) => a - b);
}
