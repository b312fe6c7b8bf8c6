import { Hono } from 'hono';
import { cartLines, cartLineView, removeCartItem, setCartQuantity } from '../../domain/orders/cart.ts';
import { addToCart, checkCartProduct } from '../../flows/add-to-cart.ts';
import type { AppEnv } from '../../http/context.ts';
import { idFrom, jsonBody, pathId } from '../../http/request.ts';
import { cartOwnerOf, ensureVisitorOf } from '../../http/visitor-cart.ts';
import { addToCartBody, cartQuantityBody } from '../../shared/schemas/cart.ts';

const notInCart = { message: 'Cart item not found' };

/** /api/cart (spec section 7): the cart of the signed-in shopper, or of the visitor's cookie; the cart's checkout is api/checkout.ts. */
export const cartApi = new Hono<AppEnv>()
  .get('/cart', (c) => {
    const owner = cartOwnerOf(c);
    return c.json(owner === null ? [] : cartLines(c.env.deps.db, owner).map(cartLineView));
  })
  .post('/cart', jsonBody(addToCartBody), (c) => {
    const { db, clock } = c.env.deps;
    const input = c.req.valid('json');
    // The product is checked before a visitor gets a guest account: a refused add makes nothing.
    let owner = cartOwnerOf(c);
    if (owner === null) {
      checkCartProduct(db, clock, input);
      owner = ensureVisitorOf(c);
    }
    const id = addToCart(db, clock, owner, input);
    const line = cartLines(db, owner).find((l) => l.id === id)!;
    return c.json(cartLineView(line), 201);
  })
  .patch('/cart/:id', idFrom('Cart item'), jsonBody(cartQuantityBody), (c) => {
    const owner = cartOwnerOf(c);
    if (owner === null) return c.json(notInCart, 404);
    const id = pathId(c);
    setCartQuantity(c.env.deps.db, owner, id, c.req.valid('json').quantity);
    return c.json(cartLineView(cartLines(c.env.deps.db, owner).find((l) => l.id === id)!));
  })
  .delete('/cart/:id', idFrom('Cart item'), (c) => {
    const owner = cartOwnerOf(c);
    if (owner === null) return c.json(notInCart, 404);
    removeCartItem(c.env.deps.db, owner, pathId(c));
    return c.json({ message: 'Removed from cart' });
  });
