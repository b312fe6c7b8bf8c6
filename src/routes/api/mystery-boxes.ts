import { Hono } from 'hono';
import { boxesApiView, setBoxPrice } from '../../domain/promotions/mystery-boxes.ts';
import { buyBox } from '../../domain/promotions/mystery-buy.ts';
import type { AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { requireAdminWithPinApi, requireUserApi } from '../../http/guards.ts';
import { idempotent, purchaseOnce } from '../../http/idempotency.ts';
import { jsonBody } from '../../http/request.ts';
import { boxOrderBody, boxPriceBody } from '../../shared/schemas/mystery.ts';

/**
 * Mystery boxes (issue 29, item 2): GET /api/mystery-boxes (each box on sale, its price, its
 * draw commitment and each item's exact chance), POST /api/mystery-boxes/{type}/orders (signed
 * in, Idempotency-Key; 201 with the paid order's id), PUT /api/admin/mystery-boxes/{type}
 * {price} (admin with the PIN).
 */
export const mysteryBoxesApi = new Hono<AppEnv>()
  .get('/mystery-boxes', (c) => {
    // The commitment changes with every purchase: never a cached copy.
    c.header('cache-control', 'no-store');
    return c.json(boxesApiView(c.env.deps.db));
  })
  .post('/mystery-boxes/:type/orders', requireUserApi, jsonBody(boxOrderBody), idempotent, async (c) => {
    const buyer = c.get('user').id;
    // A retry after a crash finishes the first try's order: its draw was made in that order's claim.
    const orderId = await purchaseOnce(
      c,
      buyer,
      undefined,
      async () => (await buyBox(c.env.deps, buyer, c.req.param('type'), c.req.valid('json'), clientIp(c))).orderId,
    );
    return c.json({ id: orderId, orderId }, 201);
  })
  .put('/admin/mystery-boxes/:type', requireAdminWithPinApi, jsonBody(boxPriceBody), (c) => {
    const box = setBoxPrice(c.env.deps, c.get('user')!.id, c.req.param('type'), Math.round(c.req.valid('json').price * 100));
    return c.json({ type: box.type, price: (box.priceCents ?? 0) / 100, seedHash: box.seedHash, status: box.status });
  });
