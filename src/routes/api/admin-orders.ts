import { Hono } from 'hono';
import { changeOrderStatus, isOrderStatus, listOrdersForAdmin } from '../../domain/admin-orders.ts';
import { DomainError } from '../../domain/errors.ts';
import { gatewayViews, paymentsNeedingAttention, resolvePayment } from '../../domain/payment-review.ts';
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
  .use('/admin/payments/*', requireAdminWithPinApi)
  .get('/admin/payments/attention', async (c) => {
    const items = paymentsNeedingAttention(c.var.deps.db, c.var.deps.clock.now());
    const views = await gatewayViews(c.var.deps, items, 3000);
    return c.json(items.map((item) => ({ ...item, gateway: views.get(item.paymentId) })));
  })
  .post('/admin/payments/:id/resolve', async (c) => {
    const raw = c.req.param('id');
    if (!/^\d{1,12}$/.test(raw)) throw new DomainError(404, 'Payment not found.');
    const body = (await readJson(c)) as { action?: unknown; gatewayPaymentId?: unknown } | null;
    const message = await resolvePayment(c.var.deps, Number(raw), body?.action, { gatewayPaymentId: body?.gatewayPaymentId });
    return c.json({ message });
  })
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
