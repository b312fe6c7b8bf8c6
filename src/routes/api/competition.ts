import { Hono } from 'hono';
import { competitionView } from '../../domain/games/views.ts';
import type { AppEnv } from '../../http/context.ts';
import { gameDeps } from '../../http/domain-deps.ts';
import { idFrom, pathId } from '../../http/request.ts';

/** A product's game as its competition tab shows it: GET /api/products/{id}/competition and /plays. */
export const competitionApi = new Hono<AppEnv>()
  .get('/products/:id/competition', idFrom('Product'), (c) => {
    const view = competitionView(gameDeps(c), pathId(c));
    if (!view) return c.json({ message: 'Product not found' }, 404);
    return c.json(view);
  })
  .get('/products/:id/plays', idFrom('Product'), (c) => {
    const view = competitionView(gameDeps(c), pathId(c));
    if (!view) return c.json({ message: 'Product not found' }, 404);
    return c.json(view.plays);
  });
