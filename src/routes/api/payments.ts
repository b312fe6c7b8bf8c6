import { Hono } from 'hono';
import { payForPlay } from '../../domain/games/entry-payment.ts';
import { enterWithFreeEntry } from '../../domain/promotions/free-entry-use.ts';
import type { AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { gameDeps } from '../../http/domain-deps.ts';
import { requirePlayerApi } from '../../http/guards.ts';
import { idempotent } from '../../http/idempotency.ts';
import { jsonBody } from '../../http/request.ts';
import { entryPaymentBody } from '../../shared/schemas/games.ts';

/**
 * POST /api/payments: the $1 hold that turns a play into an entry (card attempts are limited per
 * user and address), or with useFreeEntry a free entry instead (no card is touched).
 */
export const paymentsApi = new Hono<AppEnv>().post('/payments', requirePlayerApi, jsonBody(entryPaymentBody), idempotent, async (c) => {
  const body = c.req.valid('json');
  const userId = c.get('user').id;
  if (body.useFreeEntry) return c.json(enterWithFreeEntry(gameDeps(c), userId, body), 201);
  return c.json(await payForPlay(gameDeps(c), userId, body, clientIp(c)), 201);
});
