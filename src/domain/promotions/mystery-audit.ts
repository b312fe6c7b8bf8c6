import { desc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { mysteryDraws, mysterySeeds, orderItems, orders, products } from '../../db/schema.ts';
import { productLabel } from '../catalog/catalog.ts';
import { boxName } from './mystery-boxes.ts';
import { revealedSeed } from '../operations/sealed-seeds.ts';
import { type BoxStock, boxSeedHash, drawProduct, drawRoll, normalStock, oddsOf } from './mystery-draw.ts';

/*
 * A box order's draw, shown on its order page with each step worked out for the buyer to redo,
 * and checked by the operators' `bun run verify-draw ORDER`: the seed (used once, so revealing it
 * tells nothing about any later draw), the hash published before the purchase, the stock the
 * draw read, and the product it gave.
 */

const PAID = ['processing', 'shipped', 'completed', 'refunded'];

function parseStock(text: string): BoxStock {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (Array.isArray(parsed) && parsed.every((line) => Array.isArray(line) && line.length === 2 && line.every(Number.isSafeInteger)))
      return parsed as BoxStock;
  } catch {}
  return [];
}

/** The order's draw: the latest one (a declined card's earlier draw was undone, its unit put back). */
export function drawOfOrder(db: Queryable, orderId: number) {
  const row = db
    .select({ draw: mysteryDraws, seed: mysterySeeds })
    .from(mysteryDraws)
    .innerJoin(mysterySeeds, eq(mysterySeeds.id, mysteryDraws.seedId))
    .where(eq(mysteryDraws.orderId, orderId))
    .orderBy(desc(mysteryDraws.id))
    .get();
  return row ? { ...row, stock: parseStock(row.draw.stock) } : undefined;
}

export interface OrderDrawView {
  boxName: string;
  productId: number | null;
  productLabel: string;
  /** Revealed once the order's payment has ended, one way or the other. */
  seed: string | null;
  seedHash: string;
  committedAt: number;
  drawnAt: number;
  stock: { productId: number; label: string; units: number; chance: number }[];
  /** Steps 2 and 3 worked out, once the seed is revealed: the HMAC's message and value, and the ticket. */
  roll: { message: string; hmac: string; ticket: number } | null;
}

/** What the order page shows a box's buyer so they can check the draw themselves. */
export function orderDrawView(db: Queryable, orderId: number): OrderDrawView | null {
  const found = drawOfOrder(db, orderId);
  if (!found) return null;
  const status = db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).get()?.status;
  const ids = found.stock.map(([id]) => id);
  const labels = new Map(
    (ids.length ? db.select().from(products).where(inArray(products.id, ids)).all() : []).map((product) => [product.id, productLabel(product)]),
  );
  const seed = status !== 'pending' ? revealedSeed(found.seed.seed) : null;
  const total = normalStock(found.stock).reduce((sum, [, units]) => sum + units, 0);
  const roll = seed && total > 0 ? drawRoll(seed, orderId, total) : null;
  return {
    boxName: boxName(found.draw.productType),
    productId: found.draw.productId,
    productLabel: found.draw.productLabel,
    seed,
    seedHash: found.seed.seedHash,
    committedAt: found.seed.committedAt,
    drawnAt: found.draw.createdAt,
    stock: oddsOf(found.stock).map((line) => ({ ...line, label: labels.get(line.productId) ?? `Product #${line.productId}` })),
    roll: roll && { message: roll.message, hmac: roll.hmac, ticket: Number(roll.ticket) },
  };
}

export interface DrawVerification {
  /** False when the order has no draw to check. */
  found: boolean;
  ok: boolean;
  lines: string[];
}

/** Recomputes an order's draw from the database alone; every check printed, ok only when all match. */
export function verifyDraw(db: Queryable, orderId: number): DrawVerification {
  const found = drawOfOrder(db, orderId);
  if (!found) return { found: false, ok: false, lines: [`Order #${orderId} has no mystery box draw.`] };
  const { draw, seed, stock } = found;
  const lines: string[] = [];
  let ok = true;
  const check = (passed: boolean, text: string) => {
    ok &&= passed;
    lines.push(`${passed ? 'ok  ' : 'FAIL'} ${text}`);
  };
  lines.push(`Order #${orderId}: ${boxName(draw.productType)}, seed ${seed.seed}`);
  check(boxSeedHash(seed.seed) === seed.seedHash, `sha256(seed) == published seedHash (${seed.seedHash})`);
  check(
    seed.committedAt <= draw.createdAt,
    `the seedHash was published (${new Date(seed.committedAt).toISOString()}) before the draw (${new Date(draw.createdAt).toISOString()})`,
  );
  check(
    JSON.stringify(normalStock(stock)) === JSON.stringify(stock) && stock.length > 0,
    `stock drawn from: ${stock.map(([id, units]) => `#${id} x${units}`).join(', ')}`,
  );
  const recomputed = drawProduct(seed.seed, orderId, stock);
  check(
    recomputed !== undefined && recomputed === draw.productId,
    `HMAC-SHA256(seed, "${orderId}") draws product #${recomputed}; the store recorded #${draw.productId}`,
  );
  const line = db.select({ productId: orderItems.productId }).from(orderItems).where(eq(orderItems.orderId, orderId)).get();
  check(line?.productId === draw.productId, `the order's line holds product #${line?.productId ?? 'none'}`);
  const status = db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).get()?.status ?? 'missing';
  lines.push(PAID.includes(status) ? `Order status: ${status}` : `Order status: ${status} (the draw stands only for a paid order)`);
  lines.push(ok ? 'MATCH: the draw is exactly what the published commitment and the stock give.' : 'MISMATCH: the draw does not follow from the commitment.');
  return { found: true, ok, lines };
}
