import { Hono } from 'hono';
import { addToCart, cartLines, cartLineView, removeCartItem, setCartQuantity } from '../../domain/cart.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idFrom, jsonBody, pathId } from '../../http/request.ts';
import { addToCartBody, cartQuantityBody } from '../../shared/schemas/cart.ts';

/** /api/cart (spec section 7): the signed-in shopper's cart lines; the cart's checkout is api/checkout.ts. */
export const cartApi = new Hono<AppEnv>()
  .use('/cart', requireUserApi)
  .use('/cart/*', requireUserApi)
  .get('/cart', (c) => c.json(cartLines(c.env.deps.db, c.get('user').id).map(cartLineView)))
  .post('/cart', jsonBody(addToCartBody), (c) => {
    const id = addToCart(c.env.deps.db, c.env.deps.clock, c.get('user').id, c.req.valid('json'));
    const line = cartLines(c.env.deps.db, c.get('user').id).find((l) => l.id === id)!;
    return c.json(cartLineView(line), 201);
  })
  .patch('/cart/:id', idFrom('Cart item'), jsonBody(cartQuantityBody), (c) => {
    const id = pathId(c);
    setCartQuantity(c.env.deps.db, c.get('user').id, id, c.req.valid('json').quantity);
    return c.json(cartLineView(cartLines(c.env.deps.db, c.get('user').id).find((l) => l.id === id)!));
  })
  .delete('/cart/:id', idFrom('Cart item'), (c) => {
    removeCartItem(c.env.deps.db, c.get('user').id, pathId(c));
    return c.json({ message: 'Removed from cart' });
  });
