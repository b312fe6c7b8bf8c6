import { Hono } from 'hono';
import { playerSettingsView, recordPlayConsent, selfExclude, setDailyEntryLimit } from '../../domain/games/responsible-play.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireUserApi } from '../../http/guards.ts';
import { jsonObject } from '../../http/json.ts';

/** Responsible play (the /rules page): consent, the daily entry limit and self-exclusion of the signed-in player. */
export const playSettingsApi = new Hono<AppEnv>()
  .use('/user/play-*', requireUserApi)
  .use('/user/self-exclusion', requireUserApi)
  .get('/user/play-settings', (c) => {
    const { db, clock, config } = c.var.deps;
    return c.json(playerSettingsView(db, clock, c.var.user!.id, config.dailyEntryLimit));
  })
  .post('/user/play-consent', async (c) => {
    const { db, clock } = c.var.deps;
    return c.json(recordPlayConsent(db, clock, c.var.user!.id, await jsonObject(c)));
  })
  .put('/user/play-limits', async (c) => {
    const { db, clock, config } = c.var.deps;
    return c.json(setDailyEntryLimit(db, clock, c.var.user!.id, await jsonObject(c), config.dailyEntryLimit));
  })
  .post('/user/self-exclusion', async (c) => {
    const { db, clock, config } = c.var.deps;
    return c.json(selfExclude(db, clock, c.var.user!.id, await jsonObject(c), config.dailyEntryLimit));
  });
