import * as z from 'zod/mini';

/** POST /api/coach/signups and the Coach pages' form (browser-safe). */
export const COACH_EMAIL_MESSAGE = 'Please enter a valid email';
export const COACH_THANK_YOU = "Thanks! We'll e-mail you when Coach launches.";

export const coachSignupSchema = z.object({
  email: z
    .string({ error: COACH_EMAIL_MESSAGE })
    .check(z.trim(), z.minLength(1, COACH_EMAIL_MESSAGE), z.maxLength(254, COACH_EMAIL_MESSAGE), z.email(COACH_EMAIL_MESSAGE), z.toLowerCase()),
});

export type CoachSignupInput = z.infer<typeof coachSignupSchema>;
