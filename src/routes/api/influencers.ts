import { Hono } from 'hono';
import { influencerList } from '../../domain/games/views.ts';
import type { AppEnv } from '../../http/context.ts';

/** GET /api/influencers: everyone a player can pick, with this hour's form. */
export const influencersApi = new Hono<AppEnv>().get('/influencers', (c) => {
  const { db, metrics, clock } = c.env.deps;
  return c.json(influencerList(db, metrics, clock.now()));
});
