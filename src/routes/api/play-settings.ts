import { Hono } from 'hono';
import { playerSettingsView, recordPlayConsent, selfExclude, setDailyEntryLimit } from '../../domain/accounts/responsible-play.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireUserApi } from '../../http/guards.ts';
import { jsonBody } from '../../http/request.ts';
import { playConsentBody, playLimitsBody, selfExclusionBody } from '../../shared/schemas/games.ts';

/** Responsible play (the /rules page): consent, the daily entry limit and self-exclusion of the signed-in player. */
export const playSettingsApi = new Hono<AppEnv>()
  .use('/user/play-*', requireUserApi)
  .use('/user/self-exclusion', requireUserApi)
  .get('/user/play-settings', (c) => {
    const { db, clock, config } = c.env.deps;
    return c.json(playerSettingsView(db, clock, c.get('user').id, config.dailyEntryLimit));
  })
  .post('/user/play-consent', jsonBody(playConsentBody), (c) => {
    const { db, clock } = c.env.deps;
    return c.json(recordPlayConsent(db, clock, c.get('user').id));
  })
  .put('/user/play-limits', jsonBody(playLimitsBody), (c) => {
    const { db, clock, config } = c.env.deps;
    return c.json(setDailyEntryLimit(db, clock, c.get('user').id, c.req.valid('json').dailyEntryLimit, config.dailyEntryLimit));
  })
  .post('/user/self-exclusion', jsonBody(selfExclusionBody), (c) => {
    const { db, clock, config } = c.env.deps;
    return c.json(selfExclude(db, clock, c.get('user').id, c.req.valid('json').period, config.dailyEntryLimit));
  });
