import { createHmac } from 'node:crypto';
import { and, desc, eq, gt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { appSettings, playerSettings, playExclusions, userProfiles, users } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';

/*
 * Self-exclusion follows the person, not the account (issue 27, item 4): when a player excludes
 * themselves, and again when an excluded player deletes the account, their e-mail addresses,
 * phone numbers and card fingerprint are kept in play_exclusions for the period. Any account
 * (a new one, or another open one) with one of them is then excluded until the same day.
 *
 * Only keyed hashes are stored (HMAC-SHA256 under a random key made once per store), never the
 * address, number or fingerprint, and no account id: the row cannot be read back, and a list of
 * guessed addresses cannot be checked against the table without the key.
 */

type Kind = (typeof playExclusions.$inferSelect)['kind'];
interface Identifier {
  kind: Kind;
  hash: string;
}

export interface FollowedExclusion {
  excludedUntil: number;
  exclusionPeriod: string;
}

const KEY_SETTING = 'play_exclusion_hash_key';

/* Every entry into a game asks whether its player is excluded: these reads are built once (db/prepared.ts). */
const keyQuery = preparedOnce((db) => db.select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, KEY_SETTING)).prepare());
// The account id is bound as `cast(? as integer)`: compared bare in a join, each new value would
// make SQLite compile the statement again (see accounts/sessions.ts).
const identifiersQuery = preparedOnce((db) =>
  db
    .select({
      email: users.email,
      phone: users.phoneNumber,
      profileEmail: userProfiles.email,
      profilePhone: userProfiles.phone,
      card: playerSettings.cardFingerprintHash,
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .leftJoin(playerSettings, eq(playerSettings.userId, users.id))
    .where(eq(users.id, sql`cast(${sql.placeholder('userId')} as integer)`))
    .prepare(),
);

function readKey(db: Queryable): string | undefined {
  return keyQuery(db).get()?.value;
}

/** The store's key, made on first use; several processes may race: the first insert wins. */
function ensureKey(db: Queryable, now: number): string {
  const candidate = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
  db.insert(appSettings).values({ key: KEY_SETTING, value: candidate, updatedAt: now }).onConflictDoNothing().run();
  return readKey(db)!;
}

const hashWith = (key: string, kind: Kind, value: string) => createHmac('sha256', key).update(`${kind}:${value}`).digest('hex');

/** One spelling per mailbox: case, spaces and a '+tag' after the name do not make another person. */
export function normalizeEmail(email: string | null | undefined): string | null {
  const trimmed = email?.trim().toLowerCase() ?? '';
  const at = trimmed.lastIndexOf('@');
  if (at < 1 || at === trimmed.length - 1) return null;
  const name = trimmed.slice(0, at).split('+')[0]!;
  return name ? `${name}@${trimmed.slice(at + 1)}` : null;
}

/** Digits only, without the US country code: '(949) 555-0100', '+1 949 555 0100' and '9495550100' are one phone. */
export function normalizePhone(phone: string | null | undefined): string | null {
  const digits = phone?.replace(/\D/g, '') ?? '';
  const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return national.length >= 7 ? national : null;
}

/** The keyed hash of a card's gateway fingerprint, as player_settings keeps it (null before a key exists is never stored). */
export function cardFingerprintHash(db: Queryable, now: number, fingerprint: string): string {
  return hashWith(ensureKey(db, now), 'card', fingerprint.trim());
}

/** The account's identifiers as hashes: every e-mail and phone it holds, and its card's fingerprint. */
function identifiersOf(db: Queryable, key: string, userId: number): Identifier[] {
  const row = identifiersQuery(db).get({ userId });
  const card = row?.card;
  const found = new Map<string, Identifier>();
  const add = (kind: Kind, value: string | null) => {
    if (value) found.set(`${kind}:${value}`, { kind, hash: hashWith(key, kind, value) });
  };
  add('email', normalizeEmail(row?.email));
  add('email', normalizeEmail(row?.profileEmail));
  add('phone', normalizePhone(row?.phone));
  add('phone', normalizePhone(row?.profilePhone));
  if (card) found.set(`card:${card}`, { kind: 'card', hash: card });
  return [...found.values()];
}

/** The latest exclusion still running that one of the account's identifiers is under, if any. */
export function followedExclusion(db: Queryable, now: number, userId: number): FollowedExclusion | null {
  const key = readKey(db);
  if (!key) return null;
  const ids = identifiersOf(db, key, userId);
  if (ids.length === 0) return null;
  // identifiersOf gives at most five: one more would need the query below to ask for it.
  if (ids.length > MAX_IDENTIFIERS) throw new Error(`followedExclusion: ${ids.length} identifiers, the query asks for ${MAX_IDENTIFIERS}`);
  const params: Record<string, string | number | null> = { now };
  for (let i = 0; i < MAX_IDENTIFIERS; i++) {
    params[`kind${i}`] = ids[i]?.kind ?? null;
    params[`hash${i}`] = ids[i]?.hash ?? null;
  }
  return exclusionQuery(db).get(params) ?? null;
}

/*
 * An account has at most five identifiers (two e-mails, two phones, a card: identifiersOf), so
 * the read asks for five (kind, hash) pairs, built once (db/prepared.ts); a pair not used is
 * bound as NULL, and `kind = NULL` matches no row.
 */
const MAX_IDENTIFIERS = 5;
const exclusionQuery = preparedOnce((db) =>
  db
    .select({ excludedUntil: playExclusions.excludedUntil, exclusionPeriod: playExclusions.exclusionPeriod })
    .from(playExclusions)
    .where(
      and(
        or(
          ...Array.from({ length: MAX_IDENTIFIERS }, (_, i) =>
            and(eq(playExclusions.kind, sql.placeholder(`kind${i}`)), eq(playExclusions.identifierHash, sql.placeholder(`hash${i}`))),
          ),
        ),
        gt(playExclusions.excludedUntil, sql.placeholder('now')),
      ),
    )
    .orderBy(desc(playExclusions.excludedUntil))
    .limit(1)
    .prepare(),
);

/** Keeps the account's identifiers excluded until `until` (a later end already kept stays). */
export function keepIdentifiersExcluded(db: Queryable, clock: Clock, userId: number, until: number, period: string): void {
  const now = clock.now();
  const ids = identifiersOf(db, ensureKey(db, now), userId);
  for (const id of ids) {
    db.insert(playExclusions)
      .values({ kind: id.kind, identifierHash: id.hash, excludedUntil: until, exclusionPeriod: period, createdAt: now })
      .onConflictDoUpdate({
        target: [playExclusions.kind, playExclusions.identifierHash],
        set: {
          exclusionPeriod: sql`case when excluded.excluded_until > ${playExclusions.excludedUntil} then excluded.exclusion_period else ${playExclusions.exclusionPeriod} end`,
          excludedUntil: sql`max(${playExclusions.excludedUntil}, excluded.excluded_until)`,
        },
      })
      .run();
  }
}
