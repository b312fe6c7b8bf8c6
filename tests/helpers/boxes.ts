import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { mysteryBoxes, mysteryDraws, mysterySeeds, orders, products, type ProductType, productVariants, users } from '../../src/db/schema.ts';
import type { Clock } from '../../src/domain/clock.ts';
import { setBoxPrice } from '../../src/domain/promotions/mystery-boxes.ts';
import { giveSizes, setShelf } from './variants.ts';

/*
 * Mystery box set-ups for tests: a type's box holding chosen products with chosen stock, its
 * price set by an admin, and what the store holds about its seeds and draws.
 */

type Ctx = { db: Db; clock: Clock };

/**
 * Only the first `units.length` products of `type` (by id) are in the box, with those units;
 * every other product of every type is taken out of boxes. The box costs `priceCents`, or a
 * dollar less than its cheapest item.
 */
export function boxOf(ctx: Ctx, type: ProductType, units: number[], priceCents?: number) {
  ctx.db.update(products).set({ mysteryBoxEnabled: false }).run();
  const chosen = ctx.db.select().from(products).where(eq(products.productType, type)).orderBy(products.id).limit(units.length).all();
  chosen.forEach((product, i) => {
    ctx.db.update(products).set({ mysteryBoxEnabled: true, archivedAt: null }).where(eq(products.id, product.id)).run();
    setShelf(ctx.db, product.id, units[i]!);
  });
  const cheapest = Math.min(...chosen.map((product) => product.priceCents));
  const price = priceCents ?? cheapest - 100;
  setBoxPrice(ctx, adminIdOf(ctx), type, price);
  return { products: chosen.map((product, i) => ({ ...product, quantity: units[i]! })), priceCents: price, cheapest };
}

/**
 * A tee or shoe box whose contents come in sizes: the first `sizes.length` products of `type` (by
 * id), each given those sizes with those units (a size at 0 is a sold-out variant); nothing else
 * in any box. Priced a dollar under the cheapest item. Returns each product with its variant ids by size.
 */
export function sizedBoxOf(ctx: Ctx, type: ProductType, sizes: [size: string, units: number][][]) {
  ctx.db.update(products).set({ mysteryBoxEnabled: false }).run();
  const chosen = ctx.db.select().from(products).where(eq(products.productType, type)).orderBy(products.id).limit(sizes.length).all();
  const made = chosen.map((product, i) => {
    ctx.db.update(products).set({ mysteryBoxEnabled: true, archivedAt: null }).where(eq(products.id, product.id)).run();
    return { ...product, variants: giveSizes(ctx.db, product.id, sizes[i]!) };
  });
  const priceCents = Math.min(...chosen.map((product) => product.priceCents)) - 100;
  setBoxPrice(ctx, adminIdOf(ctx), type, priceCents);
  return { products: made, priceCents };
}

/** Each variant's available units, by variant id. */
export const variantUnits = (ctx: Ctx, ids: number[]) =>
  new Map(
    ctx.db
      .select({ id: productVariants.id, quantity: productVariants.quantity })
      .from(productVariants)
      .where(inArray(productVariants.id, ids))
      .all()
      .map((row) => [row.id, row.quantity]),
  );

/** setBoxPrice records who set the price: the store's admin, made when there is none yet. */
function adminIdOf(ctx: Ctx): number {
  const admin = ctx.db.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).get();
  return (
    admin?.id ?? ctx.db.insert(users).values({ username: 'box-admin', passwordHash: 'unused', isAdmin: true, createdAt: ctx.clock.now() }).returning().get().id
  );
}

export const priceOf = (ctx: Ctx, type: ProductType) => ctx.db.select().from(mysteryBoxes).where(eq(mysteryBoxes.productType, type)).get()?.priceCents;
export const seedsOf = (ctx: Ctx, type: ProductType) =>
  ctx.db.select().from(mysterySeeds).where(eq(mysterySeeds.productType, type)).orderBy(mysterySeeds.id).all();
export const drawsOf = (ctx: Ctx, orderId?: number) =>
  orderId === undefined ? ctx.db.select().from(mysteryDraws).all() : ctx.db.select().from(mysteryDraws).where(eq(mysteryDraws.orderId, orderId)).all();
export const stocksOf = (ctx: Ctx, ids: number[]) =>
  ctx.db
    .select({ id: products.id, quantity: products.quantity })
    .from(products)
    .where(inArray(products.id, ids))
    .orderBy(products.id)
    .all()
    .map((row) => row.quantity);
export const paidOrders = (ctx: Ctx) => ctx.db.select().from(orders).where(eq(orders.status, 'processing')).all();

/** GET /api/mystery-boxes, as a shopper reads it. */
export interface BoxView {
  type: string;
  price: number;
  available: boolean;
  seedHash: string;
  /** Boxes without sizes only: the whole box's draw. */
  odds: OddsLine[];
  sizeRequired: boolean;
  /** Each draw a purchase can make: a size's (tees, shoes), or the box's ('' for the others). */
  sizes: { size: string; units: number; odds: OddsLine[] }[];
  soldOutSizes: string[];
}

export interface OddsLine {
  productId: number;
  variantId: number;
  size: string;
  units: number;
  chance: number;
  name: string;
}
