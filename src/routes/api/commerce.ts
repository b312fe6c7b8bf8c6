import { Hono } from 'hono';
import { carryOutCartIntent } from '../../http/cart-intent.ts';
import { addToCart, cartLines, cartLineView, removeCartItem, setCartQuantity } from '../../domain/cart.ts';
import { buyNow, checkoutCart } from '../../domain/checkout.ts';
import { markAllNotificationsRead, markNotificationRead, latestNotifications, notificationView, unreadNotificationCount } from '../../domain/notifications.ts';
import { findOwnOrder, userOrders } from '../../domain/order-views.ts';
import { connectApplePay, findProfile, profileStatus, profileView, updateProfile } from '../../domain/profile.ts';
import { cardConfig } from '../../http/card-config.ts';
import type { AppContext, AppEnv } from '../../http/context.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idempotent } from '../../http/idempotency.ts';
import { idFrom, jsonBody, pathId } from '../../http/request.ts';
import { addToCartBody, buyNowBody, cartCheckoutBody, cartQuantityBody } from '../../shared/schemas/cart.ts';
import { profilePatchBody } from '../../shared/schemas/profile.ts';

const deps = (c: AppContext) => ({ db: c.get('deps').db, clock: c.get('deps').clock, gateway: c.get('deps').gateway, limits: c.get('deps').limits });

/** Spec section 7: profile, cart, checkout, orders and notifications; all for signed-in users. */
export const commerceApi = new Hono<AppEnv>()
  .use('/user/*', requireUserApi)
  .use('/cart', requireUserApi)
  .use('/cart/*', requireUserApi)
  .use('/checkout', requireUserApi)
  .use('/orders', requireUserApi)
  .use('/orders/*', requireUserApi)
  .use('/notifications', requireUserApi)
  .use('/notifications/*', requireUserApi)
  .get('/user/profile', (c) => c.json(profileView(findProfile(c.get('deps').db, c.get('user')!.id))))
  .patch('/user/profile', jsonBody(profilePatchBody), async (c) => {
    const profile = await updateProfile(deps(c), c.get('user')!.id, c.req.valid('json'));
    // A visitor's Add to Cart waiting for this profile to be complete goes in now.
    const intent = carryOutCartIntent(c, c.get('user')!.id, { quietWhileIncomplete: true });
    return c.json(intent ? { ...profile, notice: intent.toast } : profile);
  })
  .post('/user/profile/apple-pay', (c) => c.json(connectApplePay(c.get('deps').db, c.get('deps').clock, c.get('user')!.id)))
  .get('/user/profile-status', (c) => c.json(profileStatus(c.get('deps').db, c.get('user')!.id)))
  .get('/user/orders', (c) => c.json(userOrders(c.get('deps').db, c.get('user')!.id, c.get('deps').clock.now())))
  .get('/cart', (c) => c.json(cartLines(c.get('deps').db, c.get('user')!.id).map(cartLineView)))
  .post('/cart', jsonBody(addToCartBody), (c) => {
    const id = addToCart(c.get('deps').db, c.get('deps').clock, c.get('user')!.id, c.req.valid('json'));
    const line = cartLines(c.get('deps').db, c.get('user')!.id).find((l) => l.id === id)!;
    return c.json(cartLineView(line), 201);
  })
  .patch('/cart/:id', idFrom('Cart item'), jsonBody(cartQuantityBody), (c) => {
    const id = pathId(c);
    setCartQuantity(c.get('deps').db, c.get('user')!.id, id, c.req.valid('json').quantity);
    return c.json(cartLineView(cartLines(c.get('deps').db, c.get('user')!.id).find((l) => l.id === id)!));
  })
  .delete('/cart/:id', idFrom('Cart item'), (c) => {
    removeCartItem(c.get('deps').db, c.get('user')!.id, pathId(c));
    return c.json({ message: 'Removed from cart' });
  })
  .post('/checkout', jsonBody(cartCheckoutBody, { formAt: 'customer' }), idempotent, async (c) => {
    const { orderId } = await checkoutCart(deps(c), c.get('user')!.id, c.req.valid('json'));
    return c.json({ orderId, id: orderId }, 201);
  })
  .post('/orders', jsonBody(buyNowBody, { formAt: 'customerInfo' }), idempotent, async (c) => {
    const { id } = await buyNow(deps(c), c.get('user')!.id, c.req.valid('json'));
    return c.json({ id, orderId: id }, 201);
  })
  .get('/orders/:id', idFrom('Order'), (c) => {
    const order = findOwnOrder(c.get('deps').db, c.get('user')!.id, pathId(c));
    if (!order) return c.json({ message: 'Order not found' }, 404);
    return c.json(order);
  })
  .get('/notifications', (c) => {
    const userId = c.get('user')!.id;
    return c.json({
      notifications: latestNotifications(c.get('deps').db, userId).map(notificationView),
      unread: unreadNotificationCount(c.get('deps').db, userId),
    });
  })
  .post('/notifications/read-all', (c) => c.json({ updated: markAllNotificationsRead(c.get('deps').db, c.get('user')!.id) }))
  .post('/notifications/:id/read', idFrom('Notification'), (c) => {
    if (!markNotificationRead(c.get('deps').db, c.get('user')!.id, pathId(c))) return c.json({ message: 'Notification not found' }, 404);
    return c.json({ message: 'Marked as read' });
  })
  .get('/square/config', (c) => c.json(cardConfig(c.get('deps').config)));
