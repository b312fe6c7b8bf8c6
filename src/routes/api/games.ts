import { Hono } from 'hono';
import { DomainError } from '../../domain/errors.ts';
import { createPlay, payForPlay, type GameDeps } from '../../domain/games/entry.ts';
import { publicGame } from '../../domain/games/audit.ts';
import { claimPrize, donatePrize } from '../../domain/games/prizes.ts';
import { activeGames, competitionView, influencerList, userPlays, winners } from '../../domain/games/views.ts';
import { ManualClock } from '../../domain/clock.ts';
import type { AppContext, AppDeps, AppEnv } from '../../http/context.ts';
import { idempotent } from '../../http/idempotency.ts';
import { idFrom, jsonBody, pathId } from '../../http/request.ts';
import { entryPaymentBody, playBody, testClockBody } from '../../shared/schemas/games.ts';

/** The game rules' dependencies out of the app's. */
export function gameDepsOf(deps: AppDeps): GameDeps {
  const { db, clock, gateway, metrics, config } = deps;
  return { db, clock, gateway, metrics, dailyEntryLimit: config.dailyEntryLimit };
}

const gameDeps = <E extends AppEnv>(c: AppContext<E>): GameDeps => gameDepsOf(c.get('deps'));

function signedIn<E extends AppEnv>(c: AppContext<E>): number {
  const user = c.get('user');
  if (!user) throw new DomainError(401, 'Please login or register to place a play.');
  return user.id;
}

/** Spec section 7's game calls: influencers, plays, payments, competition, games, user plays. */
export const gamesApi = new Hono<AppEnv>()
  .get('/influencers', (c) => c.json(influencerList(c.get('deps').db, c.get('deps').metrics, c.get('deps').clock.now())))
  .post('/plays', jsonBody(playBody), (c) => {
    const userId = signedIn(c);
    return c.json(createPlay(gameDeps(c), userId, c.req.valid('json')), 201);
  })
  .post('/payments', jsonBody(entryPaymentBody), idempotent, async (c) => {
    const userId = signedIn(c);
    return c.json(await payForPlay(gameDeps(c), userId, c.req.valid('json')), 201);
  })
  .get('/products/:id/competition', idFrom('Product'), (c) => {
    const view = competitionView(gameDeps(c), pathId(c));
    if (!view) return c.json({ message: 'Product not found' }, 404);
    return c.json(view);
  })
  .get('/products/:id/plays', idFrom('Product'), (c) => {
    const view = competitionView(gameDeps(c), pathId(c));
    if (!view) return c.json({ message: 'Product not found' }, 404);
    return c.json(view.plays);
  })
  .get('/games/active', (c) => c.json(activeGames(gameDeps(c))))
  .get('/games/winners', (c) => c.json(winners(c.get('deps').db)))
  .get('/user/plays', (c) => {
    const user = c.get('user');
    if (!user) return c.json({ message: 'Please log in to continue.' }, 401);
    return c.json(userPlays(gameDeps(c), user.id));
  })
  .get('/games/:id', idFrom('Game'), (c) => {
    const game = publicGame(c.get('deps').db, c.get('deps').clock, pathId(c));
    if (!game) return c.json({ message: 'Game not found' }, 404);
    return c.json(game);
  })
  .post('/games/:id/donate', idFrom('Game'), (c) => {
    const user = c.get('user');
    if (!user) return c.json({ message: 'Please log in to continue.' }, 401);
    donatePrize(gameDeps(c), user.id, pathId(c));
    return c.json({ message: 'Thank you! Your prize will be donated to charity.' });
  })
  .post('/games/:id/claim', idFrom('Game'), (c) => {
    const user = c.get('user');
    if (!user) return c.json({ message: 'Please log in to continue.' }, 401);
    claimPrize(gameDeps(c), user.id, pathId(c));
    return c.json({ message: 'Your prize is in your cart.' });
  });

/**
 * POST /api/test/clock (CLOCK=manual only, never in production): moves the game clock by
 * `advanceMs` or to `now`, runs every due job, then answers with the new time.
 */
export const testClockApi = new Hono<AppEnv>().post('/test/clock', jsonBody(testClockBody), async (c) => {
  const clock = c.get('deps').clock;
  if (!(clock instanceof ManualClock)) return c.json({ message: 'Not found' }, 404);
  const input = c.req.valid('json');
  if ('now' in input) clock.set(input.now);
  else clock.advance(input.advanceMs);
  await c.get('deps').runJobs();
  return c.json({ now: clock.now() });
});
