import { Hono } from 'hono';
import { createPlay } from '../../domain/games/entry.ts';
import { userPlays } from '../../domain/games/views.ts';
import type { AppEnv } from '../../http/context.ts';
import { gameDeps } from '../../http/domain-deps.ts';
import { requirePlayerApi, requireUserApi } from '../../http/guards.ts';
import { jsonBody } from '../../http/request.ts';
import { playBody } from '../../shared/schemas/games.ts';

/** A player's picks: POST /api/plays (five influencers for a product's game) and GET /api/user/plays (My Games). */
export const playsApi = new Hono<AppEnv>()
  .post('/plays', requirePlayerApi, jsonBody(playBody), (c) => c.json(createPlay(gameDeps(c), c.get('user').id, c.req.valid('json')), 201))
  .get('/user/plays', requireUserApi, (c) => c.json(userPlays(gameDeps(c), c.get('user').id)));
