import { Hono } from 'hono';
import { findProduct } from '../../domain/catalog/catalog.ts';
import { DomainError, validationError } from '../../domain/errors.ts';
import { joinTeam, startTeam } from '../../domain/promotions/teams.ts';
import { TEAM_NOT_FOUND } from '../../domain/promotions/teams-rules.ts';
import { productTeamsView, teamView } from '../../domain/promotions/teams-views.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { gameDeps } from '../../http/domain-deps.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idempotent } from '../../http/idempotency.ts';
import { idFrom, pathId } from '../../http/request.ts';
import { type TeamStartBody, teamStartBody } from '../../shared/schemas/teams.ts';

/*
 * Half price with a friend (issue 29 item 1): POST /api/products/{id}/teams starts a team for a
 * size (`{ variantId }`, issue 38; required when the product has several) (201
 * { code, expiresAt }), GET /api/teams/{code} shows one, POST /api/teams/{code}/join takes its
 * free place (both under Idempotency-Key); GET /api/products/{id}/teams lists the open ones.
 */
/** The start's body: today's clients send none (a product with one size needs none); one sent is a JSON object. */
async function startBodyOf<E extends AppEnv>(c: AppContext<E>): Promise<TeamStartBody> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  if (!/^application\/([\w.-]+\+)?json$/i.test((c.req.header('content-type') ?? '').split(';')[0]!.trim()))
    throw new DomainError(415, 'Send the request body as JSON (Content-Type: application/json).');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DomainError(400, 'The request body is not valid JSON.');
  }
  const result = teamStartBody.safeParse(body);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export const teamsApi = new Hono<AppEnv>()
  .post('/products/:id/teams', requireUserApi, idFrom('Product'), idempotent, async (c) => {
    const { variantId } = await startBodyOf(c);
    const started = await startTeam(gameDeps(c), c.get('user').id, pathId(c), clientIp(c), variantId);
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
