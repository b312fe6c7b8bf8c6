import { Hono } from 'hono';
import { checkoutCart } from '../../flows/checkout-cart.ts';
import type { AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { idempotent, purchaseOnce } from '../../http/idempotency.ts';
import { jsonBody } from '../../http/request.ts';
import { cartOwnerOf } from '../../http/visitor-cart.ts';
import { cartCheckoutBody } from '../../shared/schemas/cart.ts';

/**
 * POST /api/checkout (spec section 7): the /cart page's checkout of the whole cart, signed in or
 * as a guest (the visitor's cart, with `customer.email`). The /checkout page (buy now) posts to /api/orders.
 */
export const checkoutApi = new Hono<AppEnv>().post('/checkout', jsonBody(cartCheckoutBody, { formAt: 'customer' }), idempotent, async (c) => {
  const owner = cartOwnerOf(c);
  if (owner === null) return c.json({ message: 'Your cart is empty.' }, 400);
  const body = c.req.valid('json');
  const orderId = await purchaseOnce(c, owner, body.paymentToken, async () => (await checkoutCart(c.env.deps, owner, body, clientIp(c))).orderId);
  return c.json({ orderId, id: orderId }, 201);
});
