import { Hono } from 'hono';
import { changeOrderStatus, isOrderStatus, listOrdersForAdmin } from '../../domain/admin-orders.ts';
import { DomainError } from '../../domain/errors.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireAdminWithPinApi } from '../../http/guards.ts';
import { readJson } from '../../http/json.ts';

/**
 * Order management for admins whose session passed the PIN (401 signed out, 403 otherwise):
 * GET /api/admin/orders[?status=], POST /api/admin/orders/{id}/status {status}.
 */
export const adminOrdersApi = new Hono<AppEnv>()
  .use('/admin/orders', requireAdminWithPinApi)
  .use('/admin/orders/*', requireAdminWithPinApi)
  .get('/admin/orders', (c) => {
    const status = c.req.query('status') || null;
    if (status !== null && !isOrderStatus(status)) {
      throw new DomainError(400, 'Unknown order status.', { status: 'Use pending, processing, completed, failed or canceled.' });
    }
    return c.json(listOrdersForAdmin(c.var.deps.db, { status }));
  })
  .post('/admin/orders/:id/status', async (c) => {
    const body = (await readJson(c)) as { status?: unknown } | null;
    const { db, clock, gateway } = c.var.deps;
    const result = await changeOrderStatus({ db, clock, gateway }, c.req.param('id'), body?.status);
    return c.json({ message: result.message, refunded: result.refundedCents / 100, order: result.order });
  });
