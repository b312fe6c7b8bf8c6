import { Hono } from 'hono';
import { buyNow } from '../../domain/checkout.ts';
import { findOwnOrder, userOrders } from '../../domain/order-views.ts';
import { clientIp, type AppEnv } from '../../http/context.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idempotent } from '../../http/idempotency.ts';
import { idFrom, jsonBody, pathId } from '../../http/request.ts';
import { buyNowBody } from '../../shared/schemas/cart.ts';

/** /api/orders and /api/user/orders (spec section 7): buy now (the /checkout page), one order, the shopper's orders. */
export const ordersApi = new Hono<AppEnv>()
  .use('/orders', requireUserApi)
  .use('/orders/*', requireUserApi)
  .use('/user/orders', requireUserApi)
  .get('/user/orders', (c) => c.json(userOrders(c.env.deps.db, c.get('user').id, c.env.deps.clock.now())))
  .post('/orders', jsonBody(buyNowBody, { formAt: 'customerInfo' }), idempotent, async (c) => {
    const { id } = await buyNow(c.env.deps, c.get('user').id, c.req.valid('json'), clientIp(c));
    return c.json({ id, orderId: id }, 201);
  })
  .get('/orders/:id', idFrom('Order'), (c) => {
    const order = findOwnOrder(c.env.deps.db, c.get('user').id, pathId(c));
    if (!order) return c.json({ message: 'Order not found' }, 404);
    return c.json(order);
  });
