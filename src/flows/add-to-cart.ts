import type { Db, Queryable } from '../db/client.ts';
import type { Product } from '../db/schema.ts';
import { requireShelfSale } from '../domain/auctions/buy-now.ts';
import type { Clock } from '../domain/clock.ts';
import { addCartLine, productForCart } from '../domain/orders/cart.ts';

/*
 * Putting a product in the cart: the cart (orders) and, beside it, an auction that may hold the
 * product's unit back (auctions/buy-now.ts), refused in Buy Now's words before the stock check.
 */

function notAuctioned(db: Queryable, now: number) {
  return (product: Product) => requireShelfSale(db, product.id, product.quantity, now);
}

/** Checks the product alone, before a visitor gets a guest account: a refused add makes nothing. */
export function checkCartProduct(db: Queryable, clock: Clock, input: { productId: number; variantId?: number; quantity?: number }) {
  return productForCart(db, input, notAuctioned(db, clock.now()));
}

/**
 * POST /api/cart and the cart page's add: adds units of a product, or more of it when it is
 * already in the cart. The line is read and written in one IMMEDIATE transaction: two tabs adding
 * at once both count.
 */
export function addToCart(db: Db, clock: Clock, userId: number, input: { productId: number; variantId?: number; quantity?: number }) {
  return db.transaction((tx) => addCartLine(tx, clock, userId, input, notAuctioned(tx, clock.now())));
}
