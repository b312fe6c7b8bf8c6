import { Hono } from 'hono';
import { listBusinessApplications, submitBusinessApplication } from '../../domain/business.ts';
import { DomainError } from '../../domain/errors.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireAdminWithPinApi } from '../../http/guards.ts';
import { readJson } from '../../http/json.ts';

/**
 * The business portal's applications: anyone may apply (the signed-in user is recorded when
 * there is one); only an admin who passed the PIN may read them.
 */
export const businessApi = new Hono<AppEnv>()
  .post('/business-applications', async (c) => {
    const body = await readJson(c);
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new DomainError(400, 'Send a JSON object.');
    const application = submitBusinessApplication({ db: c.var.deps.db, clock: c.var.deps.clock }, body, c.var.user?.id ?? null);
    return c.json(application, 201);
  })
  .get('/business-applications', requireAdminWithPinApi, (c) => c.json(listBusinessApplications(c.var.deps.db)));
