import { and, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { playerSettings, plays } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import type { EXCLUSION_PERIODS } from '../../shared/schemas/games.ts';
import { DAY_MS } from './schedule.ts';

/*
 * Responsible play (the /rules page): before a first entry a player confirms they are 18 or older
 * and accepts the official rules; each player has a daily entry limit (the store's default is
 * also its maximum) and may exclude themselves for 30 days, 6 months or for good. Every entry
 * path asks `requireMayPlay` inside the transaction that stores the pick or claims the hold
 * (transactions begin IMMEDIATE), so two processes never both pass it on the same count.
 */

export const PLAY_CONSENT_REQUIRED = 'PLAY_CONSENT_REQUIRED';
export const SELF_EXCLUDED = 'SELF_EXCLUDED';
export const DAILY_LIMIT_REACHED = 'DAILY_LIMIT_REACHED';
/** The store's daily entry limit when configuration names none. */
export const DEFAULT_DAILY_ENTRY_LIMIT = 10;
/** Far beyond any date: a permanent exclusion. */
const FOREVER = 8_640_000_000_000_000;

export type ExclusionPeriod = (typeof EXCLUSION_PERIODS)[number];

function settingsOf(db: Queryable, userId: number) {
  return db.select().from(playerSettings).where(eq(playerSettings.userId, userId)).get();
}

function upsert(db: Queryable, clock: Clock, userId: number, values: Partial<typeof playerSettings.$inferInsert>): void {
  db.insert(playerSettings)
    .values({ userId, ...values, updatedAt: clock.now() })
    .onConflictDoUpdate({ target: playerSettings.userId, set: { ...values, updatedAt: clock.now() } })
    .run();
}

/** Entries that count against the daily limit: paid or being paid, in the last 24 hours. */
export function entriesInLastDay(db: Queryable, userId: number, now: number): number {
  return (
    db
      .select({ n: count() })
      .from(plays)
      .where(
        and(
          eq(plays.userId, userId),
          inArray(plays.status, ['entered', 'authorizing']),
          gte(sql`coalesce(${plays.enteredAt}, ${plays.createdAt})`, now - DAY_MS),
        ),
      )
      .get()?.n ?? 0
  );
}

export interface PlayerSettingsView {
  consented: boolean;
  consentedAt: number | null;
  dailyEntryLimit: number;
  maxDailyEntryLimit: number;
  entriesToday: number;
  excludedUntil: number | null;
  permanentlyExcluded: boolean;
  exclusionPeriod: ExclusionPeriod | null;
}

export function playerSettingsView(db: Queryable, clock: Clock, userId: number, storeLimit = DEFAULT_DAILY_ENTRY_LIMIT): PlayerSettingsView {
  const row = settingsOf(db, userId);
  const now = clock.now();
  const excluded = row?.excludedUntil != null && row.excludedUntil > now;
  return {
    consented: row?.consentedAt != null,
    consentedAt: row?.consentedAt ?? null,
    dailyEntryLimit: Math.min(row?.dailyEntryLimit ?? storeLimit, storeLimit),
    maxDailyEntryLimit: storeLimit,
    entriesToday: entriesInLastDay(db, userId, now),
    excludedUntil: excluded ? row.excludedUntil : null,
    permanentlyExcluded: excluded && row.excludedUntil === FOREVER,
    exclusionPeriod: excluded ? (row.exclusionPeriod as ExclusionPeriod) : null,
  };
}

/** POST /api/user/play-consent: both answers were an explicit true (playConsentBody). */
export function recordPlayConsent(db: Queryable, clock: Clock, userId: number): PlayerSettingsView {
  if (settingsOf(db, userId)?.consentedAt == null) upsert(db, clock, userId, { consentedAt: clock.now() });
  return playerSettingsView(db, clock, userId);
}

/** PUT /api/user/play-limits: a whole number from 1 to the store's limit. */
export function setDailyEntryLimit(db: Queryable, clock: Clock, userId: number, limit: number, storeLimit = DEFAULT_DAILY_ENTRY_LIMIT): PlayerSettingsView {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > storeLimit) {
    const message = `Choose a daily entry limit from 1 to ${storeLimit}.`;
    throw new DomainError(400, message, { dailyEntryLimit: message });
  }
  upsert(db, clock, userId, { dailyEntryLimit: limit });
  return playerSettingsView(db, clock, userId, storeLimit);
}

function exclusionEnd(now: number, period: ExclusionPeriod): number {
  if (period === 'permanent') return FOREVER;
  if (period === '30d') return now + 30 * DAY_MS;
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + 6);
  return end.getTime();
}

/** POST /api/user/self-exclusion: starts at once; it can be lengthened, never shortened. */
export function selfExclude(db: Queryable, clock: Clock, userId: number, period: ExclusionPeriod, storeLimit = DEFAULT_DAILY_ENTRY_LIMIT): PlayerSettingsView {
  const now = clock.now();
  const until = exclusionEnd(now, period);
  const current = settingsOf(db, userId)?.excludedUntil ?? 0;
  if (until > current) upsert(db, clock, userId, { excludedUntil: until, exclusionPeriod: period });
  return playerSettingsView(db, clock, userId, storeLimit);
}

const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', dateStyle: 'long' });

/** Refuses an entry when the player may not play; runs in the caller's transaction, before any pick is stored or any card is touched. */
export function requireMayPlay(db: Queryable, clock: Clock, userId: number, storeLimit = DEFAULT_DAILY_ENTRY_LIMIT): void {
  const view = playerSettingsView(db, clock, userId, storeLimit);
  if (view.excludedUntil !== null) {
    const until = view.permanentlyExcluded ? 'permanently' : `until ${dateFormat.format(view.excludedUntil)}`;
    throw new DomainError(403, `You have excluded yourself from games ${until}, so you cannot enter.`, undefined, { code: SELF_EXCLUDED });
  }
  if (!view.consented) {
    throw new DomainError(403, 'Please confirm you are 18 or older and accept the official rules before you play.', undefined, { code: PLAY_CONSENT_REQUIRED });
  }
  if (view.entriesToday >= view.dailyEntryLimit) {
    throw new DomainError(
      403,
      `You have reached your daily limit of ${view.dailyEntryLimit} ${view.dailyEntryLimit === 1 ? 'entry' : 'entries'}. You can play again once an entry is more than 24 hours old.`,
      undefined,
      { code: DAILY_LIMIT_REACHED },
    );
  }
}
