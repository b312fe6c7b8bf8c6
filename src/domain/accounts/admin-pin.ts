import { eq, sql } from 'drizzle-orm';
import { timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { sessions, type Session } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { minutesText, type RateLimiter } from '../operations/rate-limit.ts';

export const PIN_MAX_FAILURES = 5;
export const PIN_LOCK_MS = 15 * 60 * 1000;
/** A verified PIN unlocks the admin panel for a working day of that session... */
export const PIN_VALID_MS = 12 * 60 * 60 * 1000;
/** ...while it is in use: 30 minutes without an admin request asks for the PIN again. */
export const PIN_IDLE_MS = 30 * 60 * 1000;

function sameSecret(given: string, expected: string): boolean {
  const a = new Bun.CryptoHasher('sha256').update(given).digest();
  const b = new Bun.CryptoHasher('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function sessionPassedPin(session: Session | null, clock: Clock): boolean {
  if (session?.pinVerifiedAt == null) return false;
  const now = clock.now();
  const lastUse = session.pinUsedAt ?? session.pinVerifiedAt;
  return now - session.pinVerifiedAt < PIN_VALID_MS && now - lastUse < PIN_IDLE_MS;
}

/* Every admin request and PIN check reads or writes the session's row: built once (db/prepared.ts). */
const bySessionId = eq(sessions.id, sql.placeholder('id'));
const sessionById = preparedOnce((db) => db.select().from(sessions).where(bySessionId).prepare());
const markPinUsed = preparedOnce((db) =>
  db
    .update(sessions)
    .set({ pinUsedAt: sql`${sql.placeholder('now')}` })
    .where(bySessionId)
    .prepare(),
);
const countPinFailure = preparedOnce((db) =>
  db
    .update(sessions)
    .set({ pinFailures: sql`${sessions.pinFailures} + 1` })
    .where(bySessionId)
    .returning({ failures: sessions.pinFailures })
    .prepare(),
);
const lockPin = preparedOnce((db) =>
  db
    .update(sessions)
    .set({ pinFailures: 0, pinLockedUntil: sql`${sql.placeholder('until')}` })
    .where(bySessionId)
    .prepare(),
);
const markPinVerified = preparedOnce((db) =>
  db
    .update(sessions)
    .set({ pinVerifiedAt: sql`${sql.placeholder('now')}`, pinUsedAt: sql`${sql.placeholder('now')}`, pinFailures: 0, pinLockedUntil: null })
    .where(bySessionId)
    .prepare(),
);

/** An admin request of an unlocked session keeps the unlock alive (written at most once a minute). */
export function touchPinUnlock(db: Queryable, session: Session, clock: Clock): void {
  const now = clock.now();
  if (now - (session.pinUsedAt ?? session.pinVerifiedAt ?? 0) < 60_000) return;
  markPinUsed(db).run({ id: session.id, now });
}

/**
 * Checks the admin PIN for one session (DESIGN section 6): compared in constant time, 5 wrong
 * PINs lock that session out for 15 minutes. Failures are counted in the database row itself
 * (read and bumped atomically), so parallel guesses cannot slip past the lock; `userFailures`
 * also limits an admin account across sessions, since a new login would start a fresh count.
 * The PIN itself never leaves the server.
 */
export function verifyAdminPin(
  db: Queryable,
  clock: Clock,
  sessionId: string,
  userFailures: RateLimiter,
  userKey: string,
  pin: unknown,
  expected: string,
): void {
  const now = clock.now();
  const current = sessionById(db).get({ id: sessionId });
  if (!current) throw new DomainError(401, 'Please log in to continue.');
  const lockedFor = Math.max(current.pinLockedUntil && current.pinLockedUntil > now ? current.pinLockedUntil - now : 0, userFailures.retryAfter(userKey));
  if (lockedFor > 0) throw new DomainError(429, `Too many wrong PINs. Please try again in ${minutesText(lockedFor)}.`);

  if (typeof pin !== 'string' || pin.length === 0 || pin.length > 32 || !sameSecret(pin, expected)) {
    userFailures.record(userKey);
    const counted = countPinFailure(db).get({ id: sessionId });
    if ((counted?.failures ?? 0) >= PIN_MAX_FAILURES) lockPin(db).run({ id: sessionId, until: now + PIN_LOCK_MS });
    throw new DomainError(401, 'Invalid PIN. Please try again.', { pin: 'Invalid PIN. Please try again.' });
  }
  userFailures.reset(userKey);
  markPinVerified(db).run({ id: sessionId, now });
}
