import { Hono } from 'hono';
import { publicGame } from '../../domain/games/audit.ts';
import { claimPrize, donatePrize } from '../../domain/games/prizes.ts';
import { activeGames } from '../../domain/games/views.ts';
import { winnersWithAuctions } from '../../domain/auctions/lists.ts';
import type { AppEnv } from '../../http/context.ts';
import { gameDeps } from '../../http/domain-deps.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idFrom, pathId } from '../../http/request.ts';

/** /api/games/*: the scoreboard's lists, a game's public record, and the winner's prize moves. */
export const gamesApi = new Hono<AppEnv>()
  .get('/games/active', (c) => c.json(activeGames(gameDeps(c))))
  .get('/games/winners', (c) => c.json(winnersWithAuctions(c.env.deps.db)))
  .get('/games/:id', idFrom('Game'), (c) => {
    const game = publicGame(c.env.deps.db, c.env.deps.clock, pathId(c));
    if (!game) return c.json({ message: 'Game not found' }, 404);
    return c.json(game);
  })
  .post('/games/:id/donate', requireUserApi, idFrom('Game'), (c) => {
    donatePrize(gameDeps(c), c.get('user').id, pathId(c));
    const charity = c.env.deps.config.charity?.name;
    return c.json({ message: charity ? `Thank you! Your prize will be handed over to ${charity}.` : 'Thank you! Your prize will be donated to charity.' });
  })
  .post('/games/:id/claim', requireUserApi, idFrom('Game'), (c) => {
    claimPrize(gameDeps(c), c.get('user').id, pathId(c));
    return c.json({ message: 'Your prize is in your cart.' });
  });
