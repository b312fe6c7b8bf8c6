import { Hono } from 'hono';
import { checkoutCart } from '../../domain/checkout.ts';
import { clientIp, type AppEnv } from '../../http/context.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idempotent } from '../../http/idempotency.ts';
import { jsonBody } from '../../http/request.ts';
import { cartCheckoutBody } from '../../shared/schemas/cart.ts';

/** POST /api/checkout (spec section 7): the /cart page's checkout of the whole cart. The /checkout page (buy now) posts to /api/orders. */
export const checkoutApi = new Hono<AppEnv>()
  .use('/checkout', requireUserApi)
  .post('/checkout', jsonBody(cartCheckoutBody, { formAt: 'customer' }), idempotent, async (c) => {
    const { orderId } = await checkoutCart(c.env.deps, c.get('user').id, c.req.valid('json'), clientIp(c));
    return c.json({ orderId, id: orderId }, 201);
  });
