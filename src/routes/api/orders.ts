import { Hono, type MiddlewareHandler } from 'hono';
import { chooseVariant } from '../../domain/inventory/variants.ts';
import { buyNow } from '../../flows/buy-now.ts';
import { donateNow } from '../../flows/donate.ts';
import { findOwnOrder, userOrders } from '../../domain/orders/order-views.ts';
import { orderLinkOpens } from '../../domain/orders/visitor-cart.ts';
import type { AppEnv } from '../../http/context.ts';
import { clientIp } from '../../http/client-address.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idempotentAsGuest, purchaseOnce } from '../../http/idempotency.ts';
import { idFrom, jsonBody, pathId } from '../../http/request.ts';
import { cartOwnerOf } from '../../http/visitor-cart.ts';
import { buyNowBody, type BuyNowBody } from '../../shared/schemas/cart.ts';

const notFound = { message: 'Order not found' };

/**
 * The size is checked before a visitor gets a guest account (idempotentAsGuest makes one): a
 * product with several sizes and none named, or a size of another product, makes nothing.
 */
const sizeNamed: MiddlewareHandler<AppEnv, string, { out: { json: BuyNowBody } }> = async (c, next) => {
  const { productId, variantId } = c.req.valid('json');
  chooseVariant(c.env.deps.db, productId, variantId);
  await next();
};

/**
 * /api/orders and /api/user/orders (spec section 7): buy now (the /checkout page, signed in or as
 * a guest with `customerInfo.email`), one order (its owner's, or anyone's holding its e-mailed
 * link's `key`), the shopper's orders.
 */
export const ordersApi = new Hono<AppEnv>()
  .use('/user/orders', requireUserApi)
  .get('/user/orders', (c) => c.json(userOrders(c.env.deps.db, c.get('user')!.id, c.env.deps.clock.now())))
  .post('/orders', jsonBody(buyNowBody, { formAt: 'customerInfo' }), sizeNamed, idempotentAsGuest, async (c) => {
    const body = c.req.valid('json');
    const buyer = cartOwnerOf(c)!;
    const id = await purchaseOnce(c, buyer, body.paymentToken, async () =>
      body.donate
        ? (await donateNow(c.env.deps, buyer, body, clientIp(c), c.env.deps.config.charity)).id
        : (await buyNow(c.env.deps, buyer, body, clientIp(c))).id,
    );
    return c.json({ id, orderId: id }, 201);
  })
  .get('/orders/:id', idFrom('Order'), (c) => {
    const { db } = c.env.deps;
    const id = pathId(c);
    const byLink = orderLinkOpens(db, id, c.req.query('key'));
    const owner = cartOwnerOf(c);
    if (!byLink && owner === null) return c.json({ message: 'Please log in to continue.' }, 401);
    const order = findOwnOrder(db, byLink ? 'anyOwner' : owner!, id);
    if (!order) return c.json(notFound, 404);
    return c.json(order);
  });
