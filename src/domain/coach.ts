import * as z from 'zod/mini';
import type { Db } from '../db/client.ts';
import { coachSignups } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import { validationError } from './errors.ts';

/*
 * Coach is announced as coming soon (spec sections 2 and 4): visitors leave an e-mail address to
 * hear when it launches. One row per address, compared case-insensitively (stored lower-case).
 * Shared by the server-rendered form (POST /coach/signup) and POST /api/coach/signups.
 */

export const COACH_EMAIL_MESSAGE = 'Please enter a valid email';
export const COACH_THANK_YOU = "Thanks! We'll e-mail you when Coach launches.";

export const coachSignupSchema = z.object({
  email: z
    .string({ error: COACH_EMAIL_MESSAGE })
    .check(z.trim(), z.minLength(1, COACH_EMAIL_MESSAGE), z.maxLength(254, COACH_EMAIL_MESSAGE), z.email(COACH_EMAIL_MESSAGE), z.toLowerCase()),
});

export type CoachSignupInput = z.infer<typeof coachSignupSchema>;

export interface CoachSignupResult {
  /** The address as stored (trimmed, lower-case). */
  email: string;
  /** False when the address had already signed up; that is not an error. */
  created: boolean;
}

/** Records an address for the Coach launch e-mail; a repeat sign-up changes nothing. */
export function signUpForCoach(db: Db, clock: Clock, email: unknown): CoachSignupResult {
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

