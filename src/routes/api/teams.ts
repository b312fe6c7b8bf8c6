import { Hono } from 'hono';
import { findProduct } from '../../domain/catalog/catalog.ts';
import { DomainError } from '../../domain/errors.ts';
import { joinTeam, startTeam } from '../../domain/promotions/teams.ts';
import { TEAM_NOT_FOUND } from '../../domain/promotions/teams-rules.ts';
import { productTeamsView, teamView } from '../../domain/promotions/teams-views.ts';
import type { AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { gameDeps } from '../../http/domain-deps.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idempotent } from '../../http/idempotency.ts';
import { idFrom, pathId } from '../../http/request.ts';

/*
 * Half price with a friend (issue 29 item 1): POST /api/products/{id}/teams starts a team (201
 * { code, expiresAt }), GET /api/teams/{code} shows one, POST /api/teams/{code}/join takes its
 * free place (both under Idempotency-Key); GET /api/products/{id}/teams lists the open ones.
 */
export const teamsApi = new Hono<AppEnv>()
  .post('/products/:id/teams', requireUserApi, idFrom('Product'), idempotent, async (c) => {
    const started = await startTeam(gameDeps(c), c.get('user').id, pathId(c), clientIp(c));
    return c.json({ code: started.code, expiresAt: new Date(started.expiresAt).toISOString() }, 201);
  })
  .get('/products/:id/teams', idFrom('Product'), (c) => {
    const product = findProduct(c.env.deps.db, pathId(c));
    if (!product) throw new DomainError(404, 'Product not found');
    const view = productTeamsView(c.env.deps.db, product, c.env.deps.clock.now(), c.get('user')?.id ?? null);
    if (!view) return c.json({ message: 'This product cannot be bought with a friend.' }, 404);
    c.header('cache-control', 'private, no-store');
    return c.json(view);
  })
  .get('/teams/:code', (c) => {
    const view = teamView(c.env.deps.db, c.req.param('code'), c.get('user')?.id ?? null);
    if (!view) return c.json({ message: TEAM_NOT_FOUND }, 404);
    c.header('cache-control', 'private, no-store');
    return c.json({ ...view, expiresAt: new Date(view.expiresAt).toISOString() });
  })
  .post('/teams/:code/join', requireUserApi, idempotent, async (c) => {
    const joined = await joinTeam(gameDeps(c), c.get('user').id, c.req.param('code'), clientIp(c));
    return c.json(joined, 201);
  });
