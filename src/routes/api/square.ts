import { Hono } from 'hono';
import { cardConfig } from '../../domain/payments/card-config.ts';
import type { AppEnv } from '../../http/context.ts';

/** GET /api/square/config: what the card form needs (the gateway's application and location, or the test form). */
export const squareApi = new Hono<AppEnv>().get('/square/config', (c) => c.json(cardConfig(c.env.deps.config)));
