import { and, count, gte, inArray, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { influencerMetrics, influencers, type Influencer } from '../../db/schema.ts';
import { MINUTE_MS, minuteOf, pointsBetween, type MetricsSource } from '../metrics.ts';

/*
 * Scoring (DESIGN section 4): a play's score is the sum of its five influencers' points earned
 * in [startTime, endTime). Settlement first stores every minute of the window as snapshots and
 * then adds up the stored points, so a settled game can be audited from the database alone.
 */

export function influencersById(db: Db, ids: number[]): Map<number, Influencer> {
  if (ids.length === 0) return new Map();
  return new Map(db.select().from(influencers).where(inArray(influencers.id, ids)).all().map((i) => [i.id, i]));
}

/** Stores the metrics of every minute of [from, to) for these influencers (idempotent). */
export function snapshotWindow(db: Db, source: MetricsSource, people: Influencer[], from: number, to: number, takenAt: number): void {
  // Influencers whose window is already stored in full (another game of the same hour) are skipped.
  const minutes = Math.ceil((to - minuteOf(from)) / MINUTE_MS);
  const stored = new Map(
    db
      .select({ id: influencerMetrics.influencerId, n: count() })
      .from(influencerMetrics)
      .where(and(inArray(influencerMetrics.influencerId, people.map((p) => p.id)), gte(influencerMetrics.minuteAt, minuteOf(from)), lt(influencerMetrics.minuteAt, to)))
      .groupBy(influencerMetrics.influencerId)
      .all()
      .map((row) => [row.id, row.n]),
  );
  people = people.filter((person) => (stored.get(person.id) ?? 0) < minutes * Object.keys(person.platforms).length);
  if (people.length === 0) return;
  const statement = db.$client.prepare(
    `insert into influencer_metrics (influencer_id, platform, minute_at, followers, engagement, growth, posts, points, source, taken_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing`,
  );
  db.$client.transaction(() => {
    for (const person of people) {
      for (let minute = minuteOf(from); minute < to; minute += MINUTE_MS) {
        for (const m of source.minute(person, minute)) {
          statement.run(person.id, m.platform, minute, m.followers, m.engagement, m.growth, m.posts, m.points, source.name, takenAt);
        }
      }
    }
  })();
}

/** Each influencer's points in [from, to), added up from the stored snapshots. */
export function storedPoints(db: Db, ids: number[], from: number, to: number): Map<number, number> {
  const rows = db
    .select({ influencerId: influencerMetrics.influencerId, points: influencerMetrics.points })
    .from(influencerMetrics)
    .where(and(inArray(influencerMetrics.influencerId, ids), gte(influencerMetrics.minuteAt, minuteOf(from)), lt(influencerMetrics.minuteAt, to)))
    .all();
  const totals = new Map<number, number>(ids.map((id) => [id, 0]));
  for (const row of rows) totals.set(row.influencerId, (totals.get(row.influencerId) ?? 0) + row.points);
  for (const [id, total] of totals) totals.set(id, Math.round(total * 1000) / 1000);
  return totals;
}

/** Each influencer's points so far in [from, min(now, to)), straight from the source (live scores). */
export function livePoints(source: MetricsSource, people: Map<number, Influencer>, from: number, to: number, now: number): Map<number, number> {
  const until = Math.min(now, to);
  const totals = new Map<number, number>();
  for (const [id, person] of people) totals.set(id, until > from ? pointsBetween(source, person, from, until) : 0);
  return totals;
}

export function playScore(influencerIds: string[], points: Map<number, number>): number {
  const total = influencerIds.reduce((sum, id) => sum + (points.get(Number(id)) ?? 0), 0);
  return Math.round(total * 1000) / 1000;
}

/** Highest score first; a tie goes to the earlier entry. */
export function rank<T extends { score: number; enteredAt: number | null; id: number }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => b.score - a.score || (a.enteredAt ?? 0) - (b.enteredAt ?? 0) || a.id - b.id);
}
