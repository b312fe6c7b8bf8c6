import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { games, orderItems } from '../../db/schema.ts';
import { productLabel } from '../catalog/catalog.ts';
import { CHECKOUT_IN_PROGRESS, DomainError } from '../errors.ts';
import { attachOrder, owners, reserve } from '../inventory/stock.ts';
import { variantById } from '../inventory/variants.ts';
import type { CartLine } from './cart.ts';

/*
 * An order's lines (orders.ts places the order): what each line buys, and writing them with
 * the order, each taking its unit through the stock ledger (a new hold, or a unit already held
 * for a prize or an auction attached to the order) and a prize its game's claim.
 */

export interface OrderLine {
  productId: number;
  /** The size bought (inventory/variants.ts chooses it); its units are the ones held. */
  variantId: number;
  /** The size as lines and receipts name it ('' for a product without sizes to tell apart). */
  sizeLabel: string;
  quantity: number;
  priceCents: number;
  /** auction: the unit was held for the auction since its set-up (stockReserved), and stays held if the charge fails. */
  purchaseType: 'buy_now' | 'play' | 'auction' | 'mystery_box';
  label: string;
  /** The cart line this came from, emptied once the order goes through. */
  cartItemId?: number;
  /** The game a prize was won in. */
  gameId?: number | null;
  /** A prize's stock was reserved when its game started. */
  stockReserved: boolean;
  /** Who holds a reserved line's unit (inventory/stock.ts owners): the order pays for that hold. */
  heldBy?: string;
}

export function linesFromCart(cart: CartLine[]): OrderLine[] {
  return cart.map((line) => ({
    productId: line.productId,
    variantId: line.variantId,
    sizeLabel: line.sizeLabel,
    quantity: line.quantity,
    priceCents: line.priceCents,
    purchaseType: line.type === 'play' ? 'play' : 'buy_now',
    label: productLabel(line.product),
    cartItemId: line.id,
    gameId: line.gameId,
    stockReserved: line.type === 'play',
    heldBy: line.type === 'play' && line.gameId ? owners.game(line.gameId) : undefined,
  }));
}

function reserveStock(tx: Queryable, line: OrderLine, orderId: number, now: number): void {
  const reason = line.purchaseType === 'mystery_box' ? 'box_draw' : 'order_line';
  if (reserve(tx, { productId: line.productId, variantId: line.variantId, quantity: line.quantity, reason, owner: owners.order(orderId), orderId, now }))
    return;
  const left = variantById(tx, line.variantId)?.quantity ?? 0;
  const named = line.sizeLabel ? `${line.label} in size ${line.sizeLabel}` : line.label;
  const message = left <= 0 ? `${named} just sold out.` : `Only ${left} of ${named} left in stock.`;
  throw new DomainError(409, message, { items: message });
}

/** A prize is bought or donated once: its game's prize moves from 'cart' to `to`, or the checkout is refused. */
function claimPrize(tx: Queryable, gameId: number, to: 'buying' | 'bought'): void {
  const claimed = tx
    .update(games)
    .set({ prizeOutcome: to })
    .where(and(eq(games.id, gameId), eq(games.prizeOutcome, 'cart')))
    .returning({ id: games.id })
    .all();
  if (claimed.length > 0) return;
  const outcome = tx.select({ outcome: games.prizeOutcome }).from(games).where(eq(games.id, gameId)).get()?.outcome;
  if (outcome === 'buying') throw new DomainError(409, CHECKOUT_IN_PROGRESS, undefined, { code: 'CHECKOUT_IN_PROGRESS' });
  throw new DomainError(409, outcome === 'donated' ? 'This prize was donated.' : 'This prize was already bought.');
}

/** The lines: stock reserved for the order, or a held unit attached to it (a failure gives back only its own: order-charge.ts), prizes claimed, items written. */
export function writeLines(tx: Queryable, orderId: number, lines: readonly OrderLine[], cashOnDelivery: boolean, now: number): void {
  for (const line of lines) {
    if (!line.stockReserved) reserveStock(tx, line, orderId, now);
    else if (line.heldBy) attachOrder(tx, line.heldBy, orderId, now);
    if (line.purchaseType === 'play' && line.gameId) claimPrize(tx, line.gameId, cashOnDelivery ? 'bought' : 'buying');
    insertOrderItem(tx).run({
      orderId,
      productId: line.productId,
      variantId: line.variantId,
      sizeLabel: line.sizeLabel,
      quantity: line.quantity,
      priceCents: line.priceCents,
      purchaseType: line.purchaseType,
      productLabel: line.label,
      cartItemId: line.cartItemId ?? null,
      gameId: line.gameId ?? null,
    });
  }
}

/* Every line of every order: built once (db/prepared.ts). */
const insertOrderItem = preparedOnce((db) =>
  db
    .insert(orderItems)
    .values({
      orderId: sql.placeholder('orderId'),
      productId: sql.placeholder('productId'),
      variantId: sql.placeholder('variantId'),
      sizeLabel: sql.placeholder('sizeLabel'),
      quantity: sql.placeholder('quantity'),
      priceCents: sql.placeholder('priceCents'),
      purchaseType: sql.placeholder('purchaseType'),
      productLabel: sql.placeholder('productLabel'),
      cartItemId: sql.placeholder('cartItemId'),
      gameId: sql.placeholder('gameId'),
    })
    .prepare(),
);
