import { Hono } from 'hono';
import { listBusinessApplications, submitBusinessApplication } from '../../domain/accounts/business.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireAdminWithPinApi } from '../../http/guards.ts';
import { jsonBody } from '../../http/request.ts';
import { businessApplicationSchema } from '../../shared/schemas/business.ts';

/**
 * The business portal's applications: anyone may apply (the signed-in user is recorded when
 * there is one); only an admin who passed the PIN may read them.
 */
export const businessApi = new Hono<AppEnv>()
  .post('/business-applications', jsonBody(businessApplicationSchema), (c) => {
    const application = submitBusinessApplication({ db: c.env.deps.db, clock: c.env.deps.clock }, c.req.valid('json'), c.get('user')?.id ?? null);
    return c.json(application, 201);
  })
  .get('/business-applications', requireAdminWithPinApi, (c) => c.json(listBusinessApplications(c.env.deps.db)));
