import { and, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { influencerMetrics, influencers, type Game, type Influencer, type InfluencerCalibration } from '../../db/schema.ts';
import { MINUTE_MS, minuteOf, roundPoints } from './metrics.ts';
import { formOf, simulatedMinute, simulatedPoints } from './simulation.ts';
import { gameSeed } from './seeds.ts';

/*
 * Scoring (DESIGN section 4): a play's score is the sum of its five influencers' points earned
 * in [startTime, endTime). A game's points come from the source it opened with: the simulation
 * under its own secret seed, or the feed's stored snapshots. Settlement freezes the result in
 * the game's record (record.ts), so a finished game is never computed again.
 */

export function influencersById(db: Queryable, ids: number[]): Map<number, Influencer> {
  if (ids.length === 0) return new Map();
  return new Map(
    db
      .select()
      .from(influencers)
      .where(inArray(influencers.id, ids))
      .all()
      .map((i) => [i.id, i]),
  );
}

/** What scoring needs of each influencer, as the influencers stand now. */
export function calibrationOf(db: Queryable, ids: number[]): Record<string, InfluencerCalibration> {
  const people = influencersById(db, ids);
  return Object.fromEntries(
    [...people.values()].map((p) => [String(p.id), { name: p.name, handle: p.handle, platforms: p.platforms, engagementRate: p.engagementRate }]),
  );
}

export interface GamePoints {
  /** Points of each influencer in [startTime, min(until, endTime)). */
  points: Map<number, number>;
  /** Influencer-minutes the source has not delivered yet (always 0 for the simulation). */
  missing: number;
}

/** Live points change once a minute; a game's figure for a minute is computed once. */
const liveCache = new Map<string, GamePoints>();

/**
 * Points of the game's influencers from its start until `until` (a started minute counts whole).
 * `calibration` defaults to the one frozen at the start.
 */
export function gamePoints(
  db: Queryable,
  game: Pick<Game, 'id' | 'metricsSource' | 'seed' | 'startTime' | 'endTime' | 'calibration'>,
  until: number,
  calibration = game.calibration ?? {},
): GamePoints {
  const start = game.startTime;
  const end = game.endTime;
  const ids = Object.keys(calibration).map(Number);
  if (start === null || end === null || until <= start) return { points: new Map(ids.map((id) => [id, 0])), missing: 0 };
  const to = Math.min(until, end);
  // Only the game's own frozen calibration is kept: a figure for another one is computed each time.
  const cacheKey = calibration === game.calibration ? `${game.id}:${game.seed}:${minuteOf(to - 1)}:${ids.join(',')}` : null;
  const cached = cacheKey === null ? undefined : liveCache.get(cacheKey);
  if (cached) return cached;
  let result: GamePoints;
  if (game.metricsSource === 'feed') result = feedPoints(db, calibration, start, to);
  else {
    result = { points: runningSimulatedPoints(game, ids, calibration, start, to), missing: 0 };
  }
  if (result.missing === 0 && cacheKey !== null) {
    if (liveCache.size > 2_000) liveCache.clear();
    liveCache.set(cacheKey, result);
  }
  return result;
}

/**
 * A live simulated game's unrounded sums so far, by game: each new minute adds that minute only,
 * so a page or a tick pays one simulated minute per influencer instead of the whole game so
 * far. The minutes are added in the order simulatedPoints adds them, so the figures are the
 * same to the last bit. Only the game's own frozen calibration is kept; at most RUNNING_KEPT games.
 */
const running = new Map<string, { next: number; totals: number[]; forms: number[]; key: NonNullable<Parameters<typeof simulatedMinute>[4]> }>();
const RUNNING_KEPT = 2_000;

function runningSimulatedPoints(
  game: Pick<Game, 'id' | 'seed' | 'calibration'>,
  ids: number[],
  calibration: Record<string, InfluencerCalibration>,
  start: number,
  to: number,
): Map<number, number> {
  const seed = gameSeed(game);
  if (calibration !== game.calibration) return new Map(ids.map((id) => [id, simulatedPoints(seed, id, calibration[String(id)]!, start, to)]));
  const stateKey = `${game.id}:${seed}:${start}:${ids.join(',')}`;
  let state = running.get(stateKey);
  if (!state || state.next > minuteOf(to - 1) + MINUTE_MS) {
    const key = Buffer.from(seed, 'hex') as NonNullable<Parameters<typeof simulatedMinute>[4]>;
    state = { next: minuteOf(start), totals: ids.map(() => 0), forms: ids.map((id) => formOf(key, id)), key };
    if (running.size >= RUNNING_KEPT) running.delete(running.keys().next().value!);
    running.set(stateKey, state);
  }
  for (; state.next < to; state.next += MINUTE_MS) {
    for (const [index, id] of ids.entries()) {
      for (const m of simulatedMinute(seed, id, calibration[String(id)]!, state.next, state.key, state.forms[index]!)) state.totals[index]! += m.points;
    }
  }
  return new Map(ids.map((id, index) => [id, roundPoints(state.totals[index]!)]));
}

/** The feed's stored points, and how many influencer-minutes are still missing. */
function feedPoints(db: Queryable, calibration: Record<string, InfluencerCalibration>, from: number, to: number): GamePoints {
  const ids = Object.keys(calibration).map(Number);
  const points = storedPoints(db, ids, from, to);
  const minutes = Math.ceil((to - minuteOf(from)) / MINUTE_MS);
  const covered = new Map(
    db
      .select({ id: influencerMetrics.influencerId, minutes: sql<number>`count(distinct ${influencerMetrics.minuteAt})` })
      .from(influencerMetrics)
      .where(and(inArray(influencerMetrics.influencerId, ids), gte(influencerMetrics.minuteAt, minuteOf(from)), lt(influencerMetrics.minuteAt, to)))
      .groupBy(influencerMetrics.influencerId)
      .all()
      .map((row) => [row.id, row.minutes]),
  );
  const missing = ids.reduce((sum, id) => sum + Math.max(0, minutes - (covered.get(id) ?? 0)), 0);
  return { points, missing };
}

/** Each influencer's points in [from, to), added up from the stored snapshots. */
export function storedPoints(db: Queryable, ids: number[], from: number, to: number): Map<number, number> {
  const rows = ids.length
    ? db
        .select({ influencerId: influencerMetrics.influencerId, points: influencerMetrics.points })
        .from(influencerMetrics)
        .where(and(inArray(influencerMetrics.influencerId, ids), gte(influencerMetrics.minuteAt, minuteOf(from)), lt(influencerMetrics.minuteAt, to)))
        .all()
    : [];
  const totals = new Map<number, number>(ids.map((id) => [id, 0]));
  for (const row of rows) totals.set(row.influencerId, (totals.get(row.influencerId) ?? 0) + row.points);
  for (const [id, total] of totals) totals.set(id, roundPoints(total));
  return totals;
}

export function playScore(influencerIds: string[], points: Map<number, number>): number {
  return roundPoints(influencerIds.reduce((sum, id) => sum + (points.get(Number(id)) ?? 0), 0));
}

/** Highest score first; a tie goes to the earlier entry, then to the lower play id. */
export function rank<T extends { score: number; enteredAt: number | null; id: number }>(entries: T[]): T[] {
  return [...entries].sort((a, b) => b.score - a.score || (a.enteredAt ?? 0) - (b.enteredAt ?? 0) || a.id - b.id);
}
