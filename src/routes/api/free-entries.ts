import { Hono } from 'hono';
import { usableFreeEntries } from '../../domain/games/free-entries.ts';
import { userFreeEntries } from '../../domain/promotions/free-entries-views.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireUserApi } from '../../http/guards.ts';

/** Buy one, play free: GET /api/user/free-entries, the shopper's free game entries (available, used, expired, withdrawn). */
export const freeEntriesApi = new Hono<AppEnv>().get('/user/free-entries', requireUserApi, (c) => {
  const { db, clock } = c.env.deps;
  const userId = c.get('user').id;
  const now = clock.now();
  return c.json({ available: usableFreeEntries(db, userId, now), entries: userFreeEntries(db, userId, now) });
});
