import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { plays, type Game } from '../../db/schema.ts';
import { GAME_LENGTH_MS } from '../../shared/game-time.ts';
import { MINUTE_MS } from './metrics.ts';

/*
 * Game time, in one place (DESIGN section 4, the rules page): how long things last, when a
 * game filled and when it starts. Everything else (the jobs, entries, pages) asks here.
 */

export { MINUTE_MS };
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export { GAME_LENGTH_MS };
/** A waiting game that has not filled is canceled after this: inside the card networks' 7-day window for a delayed capture. */
export const WAITING_GAME_LIFETIME_MS = 6 * DAY_MS;
/** A pick not paid within this lapses. */
export const PENDING_PLAY_MS = 15 * MINUTE_MS;
/** A feed game whose hour is still incomplete this long after its end is voided, every hold released. */
export const FEED_SETTLE_DEADLINE_MS = 3 * HOUR_MS;
/** A prize nobody buys or donates is kept this long after its game ended... */
export const PRIZE_KEEP_MS = 7 * DAY_MS;
/** ...with a reminder this long before it goes. */
export const PRIZE_REMINDER_BEFORE_MS = DAY_MS;
/** Raw metric snapshots are kept this long (record.ts keeps every settled game's own)... */
export const SNAPSHOT_RETENTION_MS = 35 * DAY_MS;
/** ...except the hours of feed games that ended within this: card disputes come up to about 120 days later. */
export const GAME_EVIDENCE_MS = 180 * DAY_MS;

/** The top of the hour at or after `time`: a game that fills at 13:40 starts at 14:00. */
export function topOfHourAtOrAfter(time: number): number {
  return Math.ceil(time / HOUR_MS) * HOUR_MS;
}

/** The next top of the hour strictly after `now`: when a game that fills now would start at the latest. */
export function nextTopOfHour(now: number): number {
  return Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
}

/** When a play joined its game: when its hold was taken (rows from before `enteredAt` existed: their creation). */
export function entryTime(play: { enteredAt: number | null; createdAt: number }): number {
  return play.enteredAt ?? play.createdAt;
}

/** When a game filled: the time its `required`-th entry came in; null while it has fewer. */
export function filledAt(entryTimes: readonly number[], required: number): number | null {
  if (entryTimes.length < required) return null;
  return [...entryTimes].sort((a, b) => a - b)[required - 1]!;
}

/** When a game with these entries starts: the top of the hour at or after it filled; null while it has not. */
export function startOfFilledGame(entryTimes: readonly number[], required: number): number | null {
  const filled = filledAt(entryTimes, required);
  return filled === null ? null : topOfHourAtOrAfter(filled);
}

/** A game whose hour is set: it started (active, completed, or canceled after the start). */
export type Started<G extends Pick<Game, 'startTime' | 'endTime'>> = G & { startTime: number; endTime: number };

export function isStarted<G extends Pick<Game, 'startTime' | 'endTime'>>(game: G): game is Started<G> {
  return game.startTime !== null && game.endTime !== null;
}

/**
 * When a game starts: its start once active; for a waiting game that has filled, the top of
 * the hour after it filled (even before the tick that starts it has run); otherwise null.
 */
export function gameStart(db: Queryable, game: Pick<Game, 'id' | 'startTime' | 'requiredParticipants'>): number | null {
  if (game.startTime !== null) return game.startTime;
  const entries = db
    .select({ enteredAt: plays.enteredAt, createdAt: plays.createdAt })
    .from(plays)
    .where(and(eq(plays.gameId, game.id), eq(plays.status, 'entered')))
    .all();
  return startOfFilledGame(entries.map(entryTime), game.requiredParticipants);
}

/** A game's moments as its views show them: opened, started, ended, settled or canceled (and why). */
export function timesOf(game: Game) {
  const { createdAt, startTime, endTime, settledAt, canceledAt, cancelReason } = game;
  return { createdAt, startTime, endTime, settledAt, canceledAt, cancelReason };
}
