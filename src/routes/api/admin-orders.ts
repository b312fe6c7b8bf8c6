import { Hono } from 'hono';
import { changeOrderStatus, listOrdersForAdmin } from '../../domain/orders/admin-orders.ts';
import { gatewayViews, paymentsNeedingAttention, resolvePayment } from '../../domain/payments/payment-review.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireAdminWithPinApi } from '../../http/guards.ts';
import { idFrom, jsonBody, pathId, queryOf } from '../../http/request.ts';
import { adminOrdersQuery, orderStatusBody, paymentResolveBody } from '../../shared/schemas/admin.ts';

/**
 * Order management for admins whose session passed the PIN (401 signed out, 403 otherwise):
 * GET /api/admin/orders[?status=], POST /api/admin/orders/{id}/status {status}.
 */
export const adminOrdersApi = new Hono<AppEnv>()
  .use('/admin/orders', requireAdminWithPinApi)
  .use('/admin/orders/*', requireAdminWithPinApi)
  .use('/admin/payments/*', requireAdminWithPinApi)
  .get('/admin/payments/attention', async (c) => {
    const items = paymentsNeedingAttention(c.env.deps.db, c.env.deps.clock.now());
    const views = await gatewayViews(c.env.deps, items, 3000);
    return c.json(items.map((item) => ({ ...item, gateway: views.get(item.paymentId) })));
  })
  .post('/admin/payments/:id/resolve', idFrom('Payment'), jsonBody(paymentResolveBody), async (c) => {
    const { action, gatewayPaymentId, overrideReason } = c.req.valid('json');
    const message = await resolvePayment(c.env.deps, pathId(c), action, { gatewayPaymentId, overrideReason, actor: c.get('user')?.username });
    return c.json({ message });
  })
  .get('/admin/orders', queryOf(adminOrdersQuery), (c) => {
    return c.json(listOrdersForAdmin(c.env.deps.db, { status: c.req.valid('query').status ?? null }));
  })
  .post('/admin/orders/:id/status', idFrom('Order'), jsonBody(orderStatusBody), async (c) => {
    const { db, clock, gateway } = c.env.deps;
    const result = await changeOrderStatus({ db, clock, gateway }, pathId(c), c.req.valid('json').status);
    return c.json({ message: result.message, refunded: result.refundedCents / 100, order: result.order });
  });
