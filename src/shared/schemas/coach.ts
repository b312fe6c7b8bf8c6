import * as z from 'zod/mini';
import { formText } from './fields.ts';

/** POST /api/coach/signups and the Coach pages' form (browser-safe). */
export const COACH_EMAIL_MESSAGE = 'Please enter a valid email';
export const COACH_THANK_YOU = "Thanks! We'll e-mail you when Coach launches.";

export const coachSignupSchema = z.object({
  email: z
    .string({ error: COACH_EMAIL_MESSAGE })
    .check(z.trim(), z.minLength(1, COACH_EMAIL_MESSAGE), z.maxLength(254, COACH_EMAIL_MESSAGE), z.email(COACH_EMAIL_MESSAGE), z.toLowerCase()),
});

/** POST /coach/signup: the Coach pages' form, with the page it came from; the e-mail's rule is coachSignupSchema's. */
export const coachSignupPost = z.object({ email: formText(1000), next: formText(100) });

export type CoachSignupInput = z.infer<typeof coachSignupSchema>;
