import { Hono } from 'hono';
import { bid } from '../../domain/auctions/bidding.ts';
import { payForAuction } from '../../domain/auctions/close.ts';
import { runningAuctions, userBids } from '../../domain/auctions/lists.ts';
import { auctionView } from '../../domain/auctions/views.ts';
import { findProduct } from '../../domain/catalog/catalog.ts';
import { DomainError } from '../../domain/errors.ts';
import { minutesText, RateLimiter } from '../../domain/operations/rate-limit.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idempotent, purchaseOnce } from '../../http/idempotency.ts';
import { idFrom, jsonBody, pathId } from '../../http/request.ts';
import { bidBody } from '../../shared/schemas/auctions.ts';

/** Bids one bidder may place in a minute over all auctions: enough for a bidding war, not for a script. */
export const BIDS_PER_MINUTE = 10;

function bidLimiter<E extends AppEnv>(c: AppContext<E>): RateLimiter {
  const { db, clock, config } = c.env.deps;
  return new RateLimiter(db, 'bid-user', BIDS_PER_MINUTE, 60_000, clock, config.rateLimit);
}

/**
 * A product's auction (issue 28, item 2): GET /api/products/{id}/auction for everyone (the
 * signed-in leader sees `leading: true`), POST /api/products/{id}/bids for signed-in shoppers,
 * POST /api/products/{id}/auction/pay for the buyer an ended auction is waiting on; the lists
 * GET /api/auctions (running, ending soonest first) and GET /api/user/bids (active, won, lost).
 */
export const auctionsApi = new Hono<AppEnv>()
  .get('/auctions', (c) => c.json(runningAuctions(c.env.deps.db, c.env.deps.clock.now())))
  .get('/user/bids', requireUserApi, (c) => c.json(userBids(c.env.deps.db, c.get('user').id, c.env.deps.clock.now())))
  .get('/products/:id/auction', idFrom('Product'), (c) => {
    const { db, clock } = c.env.deps;
    const view = auctionView(db, pathId(c), c.get('user')?.id ?? null, clock.now());
    if (!view) return c.json({ message: 'This product has no auction.' }, 404);
    c.header('cache-control', 'private, no-store');
    return c.json(view);
  })
  .post('/products/:id/bids', requireUserApi, idFrom('Product'), jsonBody(bidBody), idempotent, (c) => {
    const user = c.get('user');
    const id = pathId(c);
    if (!findProduct(c.env.deps.db, id)) throw new DomainError(404, 'Product not found');
    // Every attempt counts, refused ones too: a burst is refused before it reaches the auction.
    const wait = bidLimiter(c).attempt(String(user.id));
    if (wait > 0) {
      c.header('retry-after', String(Math.ceil(wait / 1000)));
      return c.json({ message: `Too many bids at once. Try again in ${minutesText(wait)}.` }, 429);
    }
    return c.json(bid(c.env.deps, { id: user.id, isAdmin: user.isAdmin }, id, c.req.valid('json').maxAmount), 201);
  })
  // The winner's Retry after a declined card, or the runner-up taking a second-chance offer.
  .post('/products/:id/auction/pay', requireUserApi, idFrom('Product'), idempotent, async (c) => {
    const buyer = c.get('user').id;
    const orderId = await purchaseOnce(c, buyer, undefined, async () => (await payForAuction(c.env.deps, buyer, pathId(c))).orderId);
    return c.json({ orderId }, 201);
  });
