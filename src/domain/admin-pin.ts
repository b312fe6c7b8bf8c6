import { eq } from 'drizzle-orm';
import { timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.ts';
import { sessions, type Session } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { DomainError } from './errors.ts';
import { minutesText } from './rate-limit.ts';

export const PIN_MAX_FAILURES = 5;
export const PIN_LOCK_MS = 15 * 60 * 1000;
/** A verified PIN unlocks the admin panel for a working day of that session. */
export const PIN_VALID_MS = 12 * 60 * 60 * 1000;

function sameSecret(given: string, expected: string): boolean {
  const a = new Bun.CryptoHasher('sha256').update(given).digest();
  const b = new Bun.CryptoHasher('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

export function sessionPassedPin(session: Session | null, clock: Clock): boolean {
  return session?.pinVerifiedAt != null && clock.now() - session.pinVerifiedAt < PIN_VALID_MS;
}

/**
 * Checks the admin PIN for one session (DESIGN section 6): compared in constant time, 5 wrong
 * PINs lock that session out for 15 minutes. The PIN itself never leaves the server.
 */
export function verifyAdminPin(db: Db, clock: Clock, session: Session, pin: unknown, expected: string): void {
  const now = clock.now();
  if (session.pinLockedUntil && session.pinLockedUntil > now) {
    throw new DomainError(429, `Too many wrong PINs. Please try again in ${minutesText(session.pinLockedUntil - now)}.`);
  }
  if (typeof pin !== 'string' || pin.length === 0 || pin.length > 32 || !sameSecret(pin, expected)) {
    const failures = session.pinFailures + 1;
    const locked = failures >= PIN_MAX_FAILURES;
    db.update(sessions)
      .set(locked ? { pinFailures: 0, pinLockedUntil: now + PIN_LOCK_MS } : { pinFailures: failures })
      .where(eq(sessions.id, session.id))
      .run();
    throw new DomainError(401, 'Invalid PIN. Please try again.', { pin: 'Invalid PIN. Please try again.' });
  }
  db.update(sessions).set({ pinVerifiedAt: now, pinFailures: 0, pinLockedUntil: null }).where(eq(sessions.id, session.id)).run();
}
