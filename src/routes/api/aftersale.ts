import { Hono } from 'hono';
import { findOrderForAdmin } from '../../domain/orders/admin-orders.ts';
import { requestReturn, shipOrder } from '../../domain/orders/aftersale.ts';
import { refundOrder } from '../../domain/orders/aftersale-refund.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireAdminWithPinApi } from '../../http/guards.ts';
import { orderViewerOf } from '../../http/visitor-cart.ts';
import { idempotent } from '../../http/idempotency.ts';
import { idFrom, jsonBody, pathId } from '../../http/request.ts';
import { refundBody, returnRequestBody, shipBody } from '../../shared/schemas/aftersale.ts';

/**
 * After the sale: POST /api/admin/orders/{id}/refund {amountCents?, reason} (a money path, so
 * under Idempotency-Key), POST /api/admin/orders/{id}/ship {carrier, trackingNumber}, and the
 * shopper's POST /api/orders/{id}/return-request {reason} (a guest's with its link's ?key=).
 */
export const afterSaleApi = new Hono<AppEnv>()
  .post('/admin/orders/:id/refund', requireAdminWithPinApi, idFrom('Order'), jsonBody(refundBody), idempotent, async (c) => {
    const { amountCents, reason } = c.req.valid('json');
    const result = await refundOrder(c.env.deps, pathId(c), { amountCents, reason, adminId: c.get('user')?.id ?? null });
    return c.json(
      { message: result.message, refund: result.refund, refunded: result.refundedCents / 100, order: findOrderForAdmin(c.env.deps.db, pathId(c)) },
      result.status,
    );
  })
  .post('/admin/orders/:id/ship', requireAdminWithPinApi, idFrom('Order'), jsonBody(shipBody), (c) => {
    const shipped = shipOrder(c.env.deps, pathId(c), c.req.valid('json'));
    return c.json({
      message: `Order #${shipped.id} shipped with ${shipped.carrier}, tracking number ${shipped.trackingNumber}. The customer was told.`,
      order: findOrderForAdmin(c.env.deps.db, shipped.id),
    });
  })
  .post('/orders/:id/return-request', idFrom('Order'), jsonBody(returnRequestBody), (c) => {
    // As the order page: the owner (signed in or by the guest cookie), or the holder of its link's ?key=.
    const { db, clock, config } = c.env.deps;
    const viewer = orderViewerOf(c, pathId(c), c.req.query('key'));
    if (viewer === 'wrong-key')
      return c.json({ message: 'This link does not open an order. Open the link in your receipt e-mail exactly as it was sent.' }, 404);
    if (viewer === 'nobody') return c.json({ message: 'Please log in to continue.' }, 401);
    const order = requestReturn({ db, clock, supportEmail: config.supportEmail }, viewer, pathId(c), c.req.valid('json').reason);
    return c.json(
      {
        message: `We got your return request for order #${order.id}. We will e-mail you within one business day.`,
        returnRequestedAt: order.returnRequestedAt,
      },
      201,
    );
  });
