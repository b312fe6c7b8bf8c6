import { Hono } from 'hono';
import { payForPlay } from '../../domain/games/entry-payment.ts';
import { clientIp, type AppEnv } from '../../http/context.ts';
import { gameDeps } from '../../http/domain-deps.ts';
import { requirePlayerApi } from '../../http/guards.ts';
import { idempotent } from '../../http/idempotency.ts';
import { jsonBody } from '../../http/request.ts';
import { entryPaymentBody } from '../../shared/schemas/games.ts';

/** POST /api/payments: the $1 hold that turns a play into an entry (card attempts are limited per user and address). */
export const paymentsApi = new Hono<AppEnv>().post('/payments', requirePlayerApi, jsonBody(entryPaymentBody), idempotent, async (c) =>
  c.json(await payForPlay(gameDeps(c), c.get('user').id, c.req.valid('json'), clientIp(c)), 201),
);
