import type { Queryable } from '../../db/client.ts';
import { coachSignups } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { validationError } from '../errors.ts';
import { coachSignupSchema } from '../../shared/schemas/coach.ts';

/*
 * Coach is announced as coming soon (spec sections 2 and 4): visitors leave an e-mail address to
 * hear when it launches. One row per address, compared case-insensitively (stored lower-case).
 * Shared by the server-rendered form (POST /coach/signup) and POST /api/coach/signups.
 */

export { COACH_EMAIL_MESSAGE, COACH_THANK_YOU, coachSignupSchema, type CoachSignupInput } from '../../shared/schemas/coach.ts';

export interface CoachSignupResult {
  /** The address as stored (trimmed, lower-case). */
  email: string;
  /** False when the address had already signed up; that is not an error. */
  created: boolean;
}

/** Records an address for the Coach launch e-mail; a repeat sign-up changes nothing. */
export function signUpForCoach(db: Queryable, clock: Clock, email: unknown): CoachSignupResult {
  const parsed = coachSignupSchema.safeParse({ email });
  if (!parsed.success) throw validationError(parsed.error);
  const address = parsed.data.email;
  const inserted = db
    .insert(coachSignups)
    .values({ email: address, createdAt: clock.now() })
    .onConflictDoNothing({ target: coachSignups.email })
    .returning({ id: coachSignups.id })
    .all();
  return { email: address, created: inserted.length > 0 };
}
