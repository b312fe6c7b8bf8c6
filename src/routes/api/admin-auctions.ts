import { Hono } from 'hono';
import { cancelAuction, endAuctionEarly, setUpAuction } from '../../domain/auctions/admin.ts';
import { adminAuctions } from '../../domain/auctions/lists.ts';
import { adminAuctionView } from '../../domain/auctions/views.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireAdminWithPinApi } from '../../http/guards.ts';
import { idFrom, jsonBody, pathId, queryOf } from '../../http/request.ts';
import { adminAuctionsQuery, auctionCancelBody, auctionEndBody, auctionSetupBody } from '../../shared/schemas/auctions.ts';

/**
 * The admin's auction calls (issue 28, item 1), behind the PIN like every admin write:
 * PUT /api/admin/products/{id}/auction sets one up (or changes it before its first bid),
 * POST .../auction/cancel cancels one nobody has bid in, POST .../auction/end ends it early;
 * GET /api/admin/auctions?status=running|ended|unsold|awaiting_payment lists them.
 */
export const adminAuctionsApi = new Hono<AppEnv>()
  .get('/admin/auctions', requireAdminWithPinApi, queryOf(adminAuctionsQuery), (c) =>
    c.json(adminAuctions(c.env.deps.db, c.req.valid('query').status ?? 'running')),
  )
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
