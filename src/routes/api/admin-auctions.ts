import { Hono } from 'hono';
import { cancelAuction, endAuctionEarly, setUpAuction } from '../../domain/auctions/admin.ts';
import { adminAuctions } from '../../domain/auctions/lists.ts';
import { liftStrike, strikesForAdmin } from '../../domain/auctions/strikes.ts';
import { adminAuctionView } from '../../domain/auctions/views.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireAdminWithPinApi } from '../../http/guards.ts';
import { idFrom, jsonBody, pathId, queryOf } from '../../http/request.ts';
import { adminAuctionsQuery, auctionCancelBody, auctionEndBody, auctionSetupBody } from '../../shared/schemas/auctions.ts';

/**
 * The admin's auction calls (issue 28, item 1), behind the PIN like every admin write:
 * PUT /api/admin/products/{id}/auction sets one up (or changes it before its first bid),
 * POST .../auction/cancel cancels one nobody has bid in, POST .../auction/end ends it early;
 * GET /api/admin/auctions?status=running|ended|unsold|awaiting_payment lists them;
 * GET /api/admin/auction-strikes and POST /api/admin/auction-strikes/{id}/lift: unpaid auctions.
 */
export const adminAuctionsApi = new Hono<AppEnv>()
  .get('/admin/auctions', requireAdminWithPinApi, queryOf(adminAuctionsQuery), (c) =>
    c.json(adminAuctions(c.env.deps.db, c.req.valid('query').status ?? 'running')),
  )
  // Unpaid auctions (issue 36): every strike, and lifting one (kept with the admin and the time).
  .get('/admin/auction-strikes', requireAdminWithPinApi, (c) => c.json(strikesForAdmin(c.env.deps.db, c.env.deps.clock.now())))
  .post('/admin/auction-strikes/:id/lift', requireAdminWithPinApi, idFrom('Strike'), (c) => {
    const { db, clock } = c.env.deps;
    const id = liftStrike(db, clock, pathId(c), c.get('user')?.id ?? null);
    return c.json(strikesForAdmin(db, clock.now(), { strikeId: id })[0]);
  })
  .use('/admin/products/:id/auction', requireAdminWithPinApi)
  .use('/admin/products/:id/auction/*', requireAdminWithPinApi)
  .put('/admin/products/:id/auction', idFrom('Product'), jsonBody(auctionSetupBody), (c) =>
    c.json(adminAuctionView(setUpAuction(c.env.deps, pathId(c), c.req.valid('json')))),
  )
  .post('/admin/products/:id/auction/cancel', idFrom('Product'), jsonBody(auctionCancelBody), (c) =>
    c.json(adminAuctionView(cancelAuction(c.env.deps, pathId(c), c.req.valid('json').reason || undefined))),
  )
  .post('/admin/products/:id/auction/end', idFrom('Product'), jsonBody(auctionEndBody), (c) =>
    c.json(adminAuctionView(endAuctionEarly(c.env.deps, pathId(c), c.req.valid('json').reason))),
  );
