import { Hono } from 'hono';
import { COACH_THANK_YOU, signUpForCoach } from '../../domain/coach.ts';
import { DomainError } from '../../domain/errors.ts';
import type { AppEnv } from '../../http/context.ts';
import { readJson } from '../../http/json.ts';

/**
 * POST /api/coach/signups { email }: 201 for a new address, 200 when it is already on the list
 * (the same thank-you, not an error), 400 'Please enter a valid email' otherwise.
 */
export const coachApi = new Hono<AppEnv>().post('/coach/signups', async (c) => {
  const body = await readJson(c);
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DomainError(400, 'Send a JSON object.');
  const { email, created } = signUpForCoach(c.var.deps.db, c.var.deps.clock, (body as Record<string, unknown>).email);
  return c.json({ email, alreadySubscribed: !created, message: COACH_THANK_YOU }, created ? 201 : 200);
});
