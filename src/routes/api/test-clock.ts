import { Hono } from 'hono';
import { ManualClock } from '../../domain/clock.ts';
import type { AppEnv } from '../../http/context.ts';
import { jsonBody } from '../../http/request.ts';
import { testClockBody } from '../../shared/schemas/games.ts';

/**
 * POST /api/test/clock (CLOCK=manual only, never in production): moves the game clock by
 * `advanceMs` or to `now`, runs every due job, then answers with the new time.
 */
export const testClockApi = new Hono<AppEnv>().post('/test/clock', jsonBody(testClockBody), async (c) => {
  const clock = c.env.deps.clock;
  if (!(clock instanceof ManualClock)) return c.json({ message: 'Not found' }, 404);
  const input = c.req.valid('json');
  if ('now' in input) clock.set(input.now);
  else clock.advance(input.advanceMs);
  await c.env.deps.runJobs();
  return c.json({ now: clock.now() });
});
