import { desc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type MysteryDraw, mysteryDraws, mysterySeeds, orderItems, orders, products, productVariants } from '../../db/schema.ts';
import { variantById } from '../inventory/variants.ts';
import { productLabel } from '../catalog/catalog.ts';
import { boxName } from './mystery-boxes.ts';
import { revealedSeed } from '../operations/sealed-seeds.ts';
import { type BoxStock, boxSeedHash, drawProduct, drawRoll, normalStock, oddsOf } from './mystery-draw.ts';

/*
 * A box order's draw, shown on its order page with each step worked out for the buyer to redo,
 * and checked by the operators' `bun run verify-draw ORDER`: the seed (used once, so revealing it
 * tells nothing about any later draw), the hash published before the purchase, the stock the
 * draw read (a size's units, for tees and shoes), and the unit it gave.
 */

const PAID = ['processing', 'shipped', 'completed', 'refunded'];

/**
 * The stock a draw read. Since issue 38 it is `{"variants": [[variantId, units], ...]}` and the
 * draw picks a variant (a size of a product); a draw from before is a bare array of
 * `[productId, units]` and picked a product. Both are checked by the same steps over their ids.
 */
export interface DrawStock {
  by: 'variant' | 'product';
  lines: BoxStock;
}

const isLines = (value: unknown): value is BoxStock =>
  Array.isArray(value) && value.every((line) => Array.isArray(line) && line.length === 2 && line.every(Number.isSafeInteger));

export function parseDrawStock(text: string): DrawStock {
  try {
    const parsed = JSON.parse(text) as unknown;
    if (isLines(parsed)) return { by: 'product', lines: parsed };
    const variants = (parsed as { variants?: unknown } | null)?.variants;
    if (isLines(variants)) return { by: 'variant', lines: variants };
  } catch {}
  return { by: 'variant', lines: [] };
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
  return row ? { ...row, stock: parseDrawStock(row.draw.stock) } : undefined;
}

/** The id the draw recorded in its stock's terms: the variant drawn, or for an old draw the product. */
const drawnId = (draw: MysteryDraw, stock: DrawStock) => (stock.by === 'variant' ? draw.variantId : draw.productId);

/** Each stock line's label: the product and, for a variant, its size. */
function stockLabels(db: Queryable, stock: DrawStock): Map<number, string> {
  const ids = stock.lines.map(([id]) => id);
  if (ids.length === 0) return new Map();
  if (stock.by === 'product')
    return new Map(
      db
        .select()
        .from(products)
        .where(inArray(products.id, ids))
        .all()
        .map((product) => [product.id, productLabel(product)]),
    );
  const rows = db
    .select({ id: productVariants.id, size: productVariants.size, product: products })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(inArray(productVariants.id, ids))
    .all();
  return new Map(rows.map((row) => [row.id, row.size ? `${productLabel(row.product)}, size ${row.size}` : productLabel(row.product)]));
}

export interface OrderDrawView {
  boxName: string;
  productId: number | null;
  productLabel: string;
  /** The size the box was bought in ('' for a box without sizes, and for draws from before sizes). */
  size: string;
  /** What the stock's ids are: variants (a product's size) since issue 38, products before. */
  stockBy: 'variant' | 'product';
  /** The stock line drawn (a variant id, or a product id for an old draw). */
  drawnId: number | null;
  /** Revealed once the order's payment has ended, one way or the other. */
  seed: string | null;
  seedHash: string;
  committedAt: number;
  drawnAt: number;
  stock: { id: number; label: string; units: number; chance: number }[];
  /** Steps 2 and 3 worked out, once the seed is revealed: the HMAC's message and value, and the ticket. */
  roll: { message: string; hmac: string; ticket: number } | null;
}

/** What the order page shows a box's buyer so they can check the draw themselves. */
export function orderDrawView(db: Queryable, orderId: number): OrderDrawView | null {
  const found = drawOfOrder(db, orderId);
  if (!found) return null;
  const status = db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).get()?.status;
  const labels = stockLabels(db, found.stock);
  const seed = status !== 'pending' ? revealedSeed(found.seed.seed) : null;
  const total = normalStock(found.stock.lines).reduce((sum, [, units]) => sum + units, 0);
  const roll = seed && total > 0 ? drawRoll(seed, orderId, total) : null;
  const noun = found.stock.by === 'variant' ? 'Size' : 'Product';
  return {
    boxName: boxName(found.draw.productType),
    productId: found.draw.productId,
    productLabel: found.draw.productLabel,
    size: found.draw.size,
    stockBy: found.stock.by,
    drawnId: drawnId(found.draw, found.stock),
    seed,
    seedHash: found.seed.seedHash,
    committedAt: found.seed.committedAt,
    drawnAt: found.draw.createdAt,
    stock: oddsOf(found.stock.lines).map((line) => ({
      id: line.productId,
      units: line.units,
      chance: line.chance,
      label: labels.get(line.productId) ?? `${noun} #${line.productId}`,
    })),
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
  const { draw, seed } = found;
  const { by, lines: stock } = found.stock;
  const lines: string[] = [];
  let ok = true;
  const check = (passed: boolean, text: string) => {
    ok &&= passed;
    lines.push(`${passed ? 'ok  ' : 'FAIL'} ${text}`);
  };
  lines.push(`Order #${orderId}: ${boxName(draw.productType)}${draw.size ? ` in size ${draw.size}` : ''}, seed ${seed.seed}`);
  check(boxSeedHash(seed.seed) === seed.seedHash, `sha256(seed) == published seedHash (${seed.seedHash})`);
  check(
    seed.committedAt <= draw.createdAt,
    `the seedHash was published (${new Date(seed.committedAt).toISOString()}) before the draw (${new Date(draw.createdAt).toISOString()})`,
  );
  check(
    JSON.stringify(normalStock(stock)) === JSON.stringify(stock) && stock.length > 0,
    `stock drawn from (${by} id x units): ${stock.map(([id, units]) => `#${id} x${units}`).join(', ')}`,
  );
  const recomputed = drawProduct(seed.seed, orderId, stock);
  const recorded = drawnId(draw, found.stock);
  check(recomputed !== undefined && recomputed === recorded, `HMAC-SHA256(seed, "${orderId}") draws ${by} #${recomputed}; the store recorded #${recorded}`);
  const line = db.select({ productId: orderItems.productId, variantId: orderItems.variantId }).from(orderItems).where(eq(orderItems.orderId, orderId)).get();
  if (by === 'variant') {
    const variant = recorded === null ? undefined : variantById(db, recorded);
    check(variant?.productId === draw.productId, `${by} #${recorded} is a size of product #${draw.productId}`);
    check(line?.variantId === recorded, `the order's line holds ${by} #${line?.variantId ?? 'none'}`);
  } else check(line?.productId === draw.productId, `the order's line holds product #${line?.productId ?? 'none'}`);
  const status = db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)).get()?.status ?? 'missing';
  lines.push(PAID.includes(status) ? `Order status: ${status}` : `Order status: ${status} (the draw stands only for a paid order)`);
  lines.push(ok ? 'MATCH: the draw is exactly what the published commitment and the stock give.' : 'MISMATCH: the draw does not follow from the commitment.');
  return { found: true, ok, lines };
}
