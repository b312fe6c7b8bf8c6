import { and, asc, eq, sql, sum } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { cartItems, type Product, products, productVariants } from '../../db/schema.ts';
import { findProduct, requireStillSold, resolveImageUrl } from '../catalog/catalog.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { centsToDollars } from '../../shared/money.ts';
import { returnPrizeFromCart } from '../games/prizes.ts';
import { chooseSize, sizeLabelFor, variantById } from '../inventory/variants.ts';

/*
 * The cart (spec sections 3, 4, 7). Regular items cost the product's current price; a won
 * prize is a `play` item at $1, one unit, whose stock was reserved when its game started.
 */

export { PRIZE_PRICE_CENTS } from '../games/prizes.ts';

/* The badges of every signed-in page read it: built once (db/prepared.ts). */
const unitsInCart = preparedOnce((db) =>
  db
    .select({ n: sum(cartItems.quantity) })
    .from(cartItems)
    .where(eq(cartItems.userId, sql.placeholder('userId')))
    .prepare(),
);

/** Number of units in the user's cart, for the header and bottom bar badges. */
export function cartCount(db: Queryable, userId: number): number {
  const row = unitsInCart(db).get({ userId });
  return Number(row?.n ?? 0);
}

export interface CartLine {
  id: number;
  productId: number;
  /** The size in the cart; its stock is the line's `product.stock`. */
  variantId: number;
  sizeLabel: string;
  quantity: number;
  /** What one unit costs now, in cents. */
  priceCents: number;
  type: 'regular' | 'play';
  gameId: number | null;
  addedAt: number;
  product: { id: number; name: string | null; brand: string; model: string; imageUrl: string; productType: string; stock: number };
}

/*
 * The cart page, the cart API and every checkout read the lines: built once (db/prepared.ts).
 * The user id is bound as `cast(? as integer)`: compared bare in a join, each new value would
 * make SQLite compile the statement again (see accounts/sessions.ts).
 */
const linesOfUser = preparedOnce((db) =>
  db
    .select({ item: cartItems, product: products, variant: productVariants })
    .from(cartItems)
    .innerJoin(products, eq(cartItems.productId, products.id))
    .innerJoin(productVariants, eq(cartItems.variantId, productVariants.id))
    .where(eq(cartItems.userId, sql`cast(${sql.placeholder('userId')} as integer)`))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.id))
    .prepare(),
);

export function cartLines(db: Queryable, userId: number): CartLine[] {
  return linesOfUser(db)
    .all({ userId })
    .map(({ item, product, variant }) => ({
      id: item.id,
      productId: item.productId,
      variantId: variant.id,
      sizeLabel: sizeLabelFor(db, product.productType, variant.id),
      quantity: item.quantity,
      priceCents: item.type === 'play' ? item.priceCents : (variant.priceCents ?? product.priceCents),
      type: item.type,
      gameId: item.gameId,
      addedAt: item.addedAt,
      product: {
        id: product.id,
        name: product.name,
        brand: product.brand,
        model: product.model,
        imageUrl: resolveImageUrl(product.imageUrl, product.productType),
        productType: product.productType,
        stock: variant.quantity,
      },
    }));
}

/** A cart line as GET /api/cart shows it (spec section 3: price in dollars, product brand, model, image). */
export function cartLineView(line: CartLine) {
  return {
    id: line.id,
    productId: line.productId,
    variantId: line.variantId,
    size: line.sizeLabel,
    quantity: line.quantity,
    price: centsToDollars(line.priceCents),
    type: line.type,
    addedAt: line.addedAt,
    product: { ...line.product },
  };
}

/** A refusal for want of stock; for a product sold in sizes, it names the size whose count it is. */
function stockMessage(stock: number, sizeLabel: string | null): string {
  if (sizeLabel) return stock <= 0 ? `Size ${sizeLabel} is out of stock.` : `Only ${stock} left in size ${sizeLabel}.`;
  return stock <= 0 ? 'This product is out of stock.' : `Only ${stock} left in stock.`;
}

/** What else may hold a product back from a cart, checked before its stock (flows/add-to-cart.ts: an auction). */
export type HeldBack = (product: Product) => void;

/**
 * The product, when it can go in a cart at all: for sale, not `heldBack` (callers without one
 * leave that to the add), and in stock for that many.
 */
export function productForCart(db: Queryable, input: { productId: number; variantId?: number; quantity?: number }, heldBack?: HeldBack) {
  const product = findProduct(db, input.productId);
  if (!product) throw new DomainError(404, 'Product not found');
  requireStillSold(product);
  // Anyone may fill a cart (a visitor too): checkout asks for what the chosen payment needs.
  if (!product.buyNowEnabled) throw new DomainError(409, 'This product is not for sale right now.');
  heldBack?.(product);
  const size = chooseSize(db, product, input.variantId);
  if ((input.quantity ?? 1) > size.available) {
    const message = stockMessage(size.available, size.sizeLabel);
    throw new DomainError(409, message, { quantity: message });
  }
  return { ...product, size };
}

/** Adds units of a product, or more of it when it is already in the cart (flows/add-to-cart.ts says what holds it back). */
export function addCartLine(
  db: Queryable,
  clock: Clock,
  userId: number,
  input: { productId: number; variantId?: number; quantity?: number },
  heldBack: HeldBack,
) {
  const { productId, quantity = 1 } = input;
  const { size } = productForCart(db, input, heldBack);
  const existing = regularLineOf(db).get({ userId, productId, variantId: size.variantId });
  const wanted = (existing?.quantity ?? 0) + quantity;
  if (wanted > size.available) {
    const message =
      existing && size.available > 0
        ? `${stockMessage(size.available, size.sizeLabel).slice(0, -1)}, and ${existing.quantity} already in your cart.`
        : stockMessage(size.available, size.sizeLabel);
    throw new DomainError(409, message, { quantity: message });
  }
  if (existing) {
    db.update(cartItems).set({ quantity: wanted, priceCents: size.priceCents }).where(eq(cartItems.id, existing.id)).run();
    return existing.id;
  }
  return insertRegularLine(db).get({ userId, productId, variantId: size.variantId, quantity, priceCents: size.priceCents, addedAt: clock.now() })!.id;
}

/* Every add to cart runs these: built once (db/prepared.ts). */
const regularLineOf = preparedOnce((db) =>
  db
    .select()
    .from(cartItems)
    .where(
      and(
        eq(cartItems.userId, sql.placeholder('userId')),
        eq(cartItems.productId, sql.placeholder('productId')),
        eq(cartItems.variantId, sql.placeholder('variantId')),
        eq(cartItems.type, 'regular'),
      ),
    )
    .prepare(),
);
const insertRegularLine = preparedOnce((db) =>
  db
    .insert(cartItems)
    .values({
      userId: sql.placeholder('userId'),
      productId: sql.placeholder('productId'),
      variantId: sql.placeholder('variantId'),
      quantity: sql.placeholder('quantity'),
      priceCents: sql.placeholder('priceCents'),
      type: 'regular',
      addedAt: sql.placeholder('addedAt'),
    })
    .returning({ id: cartItems.id })
    .prepare(),
);

function ownLine(db: Queryable, userId: number, id: number) {
  const line = Number.isSafeInteger(id)
    ? db
        .select()
        .from(cartItems)
        .where(and(eq(cartItems.id, id), eq(cartItems.userId, userId)))
        .get()
    : undefined;
  // Someone else's item answers exactly like a missing one.
  if (!line) throw new DomainError(404, 'Cart item not found');
  return line;
}

/** PATCH /api/cart/{id}: at least 1, never above stock; a prize stays one unit. */
export function setCartQuantity(db: Queryable, userId: number, id: number, quantity: number): void {
  const line = ownLine(db, userId, id);
  if (line.type === 'play' && quantity !== 1) throw new DomainError(409, 'A prize is one item.', { quantity: 'A prize is one item.' });
  // The line's own size: another size of the product having units left does not fill this one.
  const available = line.variantId === null ? 0 : (variantById(db, line.variantId)?.quantity ?? 0);
  if (line.type === 'regular' && quantity > available) {
    const productType = findProduct(db, line.productId)?.productType ?? '';
    const message = stockMessage(available, sizeLabelFor(db, productType, line.variantId));
    throw new DomainError(409, message, { quantity: message });
  }
  db.update(cartItems).set({ quantity }).where(eq(cartItems.id, line.id)).run();
}

/** Removes a line; a prize's line returns the prize to 'to claim' on My Games, never destroys it. */
export function removeCartItem(db: Queryable, userId: number, id: number): void {
  const line = ownLine(db, userId, id);
  if (line.type === 'play' && line.gameId !== null) {
    const gameId = line.gameId;
    db.transaction((tx) => returnPrizeFromCart(tx, userId, gameId));
    return;
  }
  db.delete(cartItems).where(eq(cartItems.id, line.id)).run();
}
