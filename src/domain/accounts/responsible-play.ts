import { and, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { playerSettings, plays } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import type { EXCLUSION_PERIODS } from '../../shared/schemas/games.ts';
import { cardFingerprintHash, followedExclusion, keepIdentifiersExcluded } from './play-exclusions.ts';
const DAY_MS = 24 * 60 * 60 * 1000;

/*
 * Responsible play (the /rules page): before a first entry a player confirms they are 18 or older
 * and accepts the official rules; each player has a daily entry limit (the store's default is
 * also its maximum; lowering it applies at once, raising it after 24 hours, so a limit is never
 * lifted in the heat of a session) and may exclude themselves for 30 days, 6 months or for good;
 * the exclusion follows their e-mail, phone and card to any account (play-exclusions.ts). Every entry
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

/* Every entry into a game, and the rules and profile pages, read these: built once (db/prepared.ts). */
const settingsQuery = preparedOnce((db) =>
  db
    .select()
    .from(playerSettings)
    .where(eq(playerSettings.userId, sql.placeholder('userId')))
    .prepare(),
);
const entriesSinceQuery = preparedOnce((db) =>
  db
    .select({ n: count() })
    .from(plays)
    .where(
      and(
        eq(plays.userId, sql.placeholder('userId')),
        inArray(plays.status, ['entered', 'authorizing']),
        gte(sql`coalesce(${plays.enteredAt}, ${plays.createdAt})`, sql.placeholder('since')),
      ),
    )
    .prepare(),
);

function settingsOf(db: Queryable, userId: number) {
  return settingsQuery(db).get({ userId });
}

type SettingsValues = Partial<typeof playerSettings.$inferInsert>;

/*
 * The settings' writes, one statement per set of columns written (the consent, the limit, the
 * exclusion, the card: a few fixed sets), each built once (db/prepared.ts). A column left out
 * (undefined) is not written, as before.
 */
const upserts = new Map<string, ReturnType<typeof upsertOf>>();
function upsertOf(columns: string[]) {
  return preparedOnce((db) => {
    const values = Object.fromEntries(columns.map((column) => [column, sql`${sql.placeholder(column)}`])) as SettingsValues;
    const updatedAt = sql`${sql.placeholder('now')}`;
    return db
      .insert(playerSettings)
      .values({ userId: sql.placeholder('userId'), ...values, updatedAt })
      .onConflictDoUpdate({ target: playerSettings.userId, set: { ...values, updatedAt } })
      .prepare();
  });
}

function upsert(db: Queryable, clock: Clock, userId: number, values: SettingsValues): void {
  const columns = Object.keys(values).filter((column) => values[column as keyof SettingsValues] !== undefined);
  const shape = columns.join();
  let query = upserts.get(shape);
  if (!query) {
    query = upsertOf(columns);
    upserts.set(shape, query);
  }
  query(db).run({ ...values, userId, now: clock.now() });
}

/** Entries that count against the daily limit: paid or being paid, in the last 24 hours. */
export function entriesInLastDay(db: Queryable, userId: number, now: number): number {
  return entriesSinceQuery(db).get({ userId, since: now - DAY_MS })?.n ?? 0;
}

export interface PlayerSettingsView {
  consented: boolean;
  consentedAt: number | null;
  dailyEntryLimit: number;
  maxDailyEntryLimit: number;
  entriesToday: number;
  /** A raised limit waiting its 24 hours, and when it starts; null when none is waiting. */
  pendingDailyEntryLimit: number | null;
  pendingLimitFrom: number | null;
  excludedUntil: number | null;
  permanentlyExcluded: boolean;
  exclusionPeriod: ExclusionPeriod | null;
}

type SettingsRow = typeof playerSettings.$inferSelect;

/** The limit in force at `now`: a raise counts once its day has passed. */
function limitsAt(row: SettingsRow | undefined, now: number, storeLimit: number) {
  const pending = row?.pendingDailyEntryLimit ?? null;
  const from = row?.pendingLimitFrom ?? null;
  if (pending !== null && from !== null && from <= now) return { limit: Math.min(pending, storeLimit), pending: null, from: null };
  return { limit: Math.min(row?.dailyEntryLimit ?? storeLimit, storeLimit), pending, from: pending === null ? null : from };
}

/** The later of the account's own exclusion and one its e-mail, phone or card is under. */
function exclusionAt(db: Queryable, row: SettingsRow | undefined, now: number, userId: number) {
  const own =
    row?.excludedUntil != null && row.excludedUntil > now ? { excludedUntil: row.excludedUntil, exclusionPeriod: row.exclusionPeriod ?? '30d' } : null;
  const followed = followedExclusion(db, now, userId);
  if (!followed) return own;
  return !own || followed.excludedUntil > own.excludedUntil ? followed : own;
}

export function playerSettingsView(db: Queryable, clock: Clock, userId: number, storeLimit = DEFAULT_DAILY_ENTRY_LIMIT): PlayerSettingsView {
  const row = settingsOf(db, userId);
  const now = clock.now();
  const limits = limitsAt(row, now, storeLimit);
  const exclusion = exclusionAt(db, row, now, userId);
  return {
    consented: row?.consentedAt != null,
    consentedAt: row?.consentedAt ?? null,
    dailyEntryLimit: limits.limit,
    maxDailyEntryLimit: storeLimit,
    entriesToday: entriesInLastDay(db, userId, now),
    pendingDailyEntryLimit: limits.pending,
    pendingLimitFrom: limits.from,
    excludedUntil: exclusion?.excludedUntil ?? null,
    permanentlyExcluded: exclusion?.excludedUntil === FOREVER,
    exclusionPeriod: (exclusion?.exclusionPeriod as ExclusionPeriod | undefined) ?? null,
  };
}

/** POST /api/user/play-consent: both answers were an explicit true (playConsentBody). */
export function recordPlayConsent(db: Queryable, clock: Clock, userId: number): PlayerSettingsView {
  if (settingsOf(db, userId)?.consentedAt == null) upsert(db, clock, userId, { consentedAt: clock.now() });
  return playerSettingsView(db, clock, userId);
}

/**
 * PUT /api/user/play-limits: a whole number from 1 to the store's limit. A lower (or equal)
 * limit applies at once and drops a raise still waiting; a higher one starts 24 hours later.
 */
export function setDailyEntryLimit(db: Queryable, clock: Clock, userId: number, limit: number, storeLimit = DEFAULT_DAILY_ENTRY_LIMIT): PlayerSettingsView {
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > storeLimit) {
    const message = `Choose a daily entry limit from 1 to ${storeLimit}.`;
    throw new DomainError(400, message, { dailyEntryLimit: message });
  }
  const now = clock.now();
  const current = limitsAt(settingsOf(db, userId), now, storeLimit).limit;
  if (limit <= current) upsert(db, clock, userId, { dailyEntryLimit: limit, pendingDailyEntryLimit: null, pendingLimitFrom: null });
  else upsert(db, clock, userId, { dailyEntryLimit: current, pendingDailyEntryLimit: limit, pendingLimitFrom: now + DAY_MS });
  return playerSettingsView(db, clock, userId, storeLimit);
}

function exclusionEnd(now: number, period: ExclusionPeriod): number {
  if (period === 'permanent') return FOREVER;
  if (period === '30d') return now + 30 * DAY_MS;
  const end = new Date(now);
  end.setUTCMonth(end.getUTCMonth() + 6);
  return end.getTime();
}

/**
 * POST /api/user/self-exclusion: starts at once; it can be lengthened, never shortened. The
 * account's e-mail, phone and card are kept excluded for the same period.
 */
export function selfExclude(db: Queryable, clock: Clock, userId: number, period: ExclusionPeriod, storeLimit = DEFAULT_DAILY_ENTRY_LIMIT): PlayerSettingsView {
  const now = clock.now();
  const until = exclusionEnd(now, period);
  const current = exclusionAt(db, settingsOf(db, userId), now, userId)?.excludedUntil ?? 0;
  if (until > current) {
    upsert(db, clock, userId, { excludedUntil: until, exclusionPeriod: period });
    keepIdentifiersExcluded(db, clock, userId, until, period);
  }
  return playerSettingsView(db, clock, userId, storeLimit);
}

/**
 * Before an account's rows go (account deletion) or when it gains a card: a running exclusion is
 * kept for every identifier the account holds now, so it outlives the account.
 */
export function keepExclusionWithIdentifiers(db: Queryable, clock: Clock, userId: number): void {
  const exclusion = exclusionAt(db, settingsOf(db, userId), clock.now(), userId);
  if (exclusion) keepIdentifiersExcluded(db, clock, userId, exclusion.excludedUntil, exclusion.exclusionPeriod);
}

/**
 * After a profile save (profile.ts): a newly saved card's fingerprint is kept, hashed, so an
 * exclusion can follow the card, and a running exclusion takes in any new e-mail, phone or card.
 */
export function followProfileIdentifiers(db: Queryable, clock: Clock, userId: number, cardFingerprint: string | undefined): void {
  if (cardFingerprint) upsert(db, clock, userId, { cardFingerprintHash: cardFingerprintHash(db, clock.now(), cardFingerprint) });
  keepExclusionWithIdentifiers(db, clock, userId);
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
