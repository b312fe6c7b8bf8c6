import { Hono } from 'hono';
import { COACH_THANK_YOU, signUpForCoach } from '../../domain/catalog/coach.ts';
import type { AppEnv } from '../../http/context.ts';
import { jsonBody } from '../../http/request.ts';
import { coachSignupSchema } from '../../shared/schemas/coach.ts';

/**
 * POST /api/coach/signups { email }: 201 for a new address, 200 when it is already on the list
 * (the same thank-you, not an error), 400 'Please enter a valid email' otherwise.
 */
export const coachApi = new Hono<AppEnv>().post('/coach/signups', jsonBody(coachSignupSchema), (c) => {
  const { email, created } = signUpForCoach(c.env.deps.db, c.env.deps.clock, c.req.valid('json').email);
  return c.json({ email, alreadySubscribed: !created, message: COACH_THANK_YOU }, created ? 201 : 200);
});
