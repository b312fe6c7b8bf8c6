import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedOnce, statementOnce } from '../../db/prepared.ts';
import { mysteryBoxes, mysterySeeds, products, productVariants, type ProductType } from '../../db/schema.ts';
import { PRODUCT_TYPE_NAMES } from '../../shared/schemas/catalog.ts';
import { formatCents } from '../../shared/pricing.ts';
import { productLabel, productTypeLabels } from '../catalog/catalog.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { type BoxStock, newBoxSeed } from './mystery-draw.ts';
import { chooseASize, soldBySize } from '../inventory/variants.ts';
import { sealSeed } from '../operations/sealed-seeds.ts';

/*
 * Mystery boxes (issue 29, item 2): one box per product type holding that type's flagged
 * products in stock, at the admin's price. Tee and shoe boxes are bought in a size and draw over
 * that size's units (issue 38); the others draw over every unit of their products. The price is at most the cheapest item's, so every
 * box is worth at least what it costs; when an item's price later drops below the box's, the box
 * is not sold ('repricing') until the admin sets a price again, rather than quietly changing
 * what shoppers were shown (docs/decisions.md "Mystery boxes").
 */

export type BoxStatus = 'on_sale' | 'no_price' | 'repricing' | 'empty';

/** One size of one product in a box: a line of the draw's stock. */
export interface BoxItem {
  productId: number;
  variantId: number;
  /** The product's label; `name` adds the size where the box's table needs it to tell lines apart. */
  label: string;
  name: string;
  size: string;
  priceCents: number;
  units: number;
  /** Exactly units / all units of its draw (its size's, or the whole box's): the draw's own distribution. */
  chance: number;
}

/** What one purchase draws from: a size's units (tees, shoes), or the whole box (size ''). */
export interface BoxDraw {
  size: string;
  units: number;
  items: BoxItem[];
  stock: BoxStock;
}

export interface BoxState {
  type: ProductType;
  status: BoxStatus;
  priceCents: number | null;
  /** The cheapest item: the most the box may cost. */
  ceilingCents: number | null;
  seedHash: string | null;
  seedCommittedAt: number | null;
  /** Tees and shoes: bought in a size, drawn over that size's units. */
  bySize: boolean;
  /** Every size of every item with units, in draw order (variant id). */
  items: BoxItem[];
  /** One draw per size on offer (in size order), or the one draw of a box without sizes. */
  draws: BoxDraw[];
  /** Sizes the box's items come in with no unit left: shown disabled in the picker. */
  soldOutSizes: string[];
}

export const BOX_SOLD_OUT = 'This mystery box is sold out: nothing in it is in stock.';
export const BOX_NOT_ON_SALE = 'This mystery box is not on sale yet.';
export const BOX_REPRICING = 'This mystery box is being repriced. Please check back soon.';
export const NO_SUCH_BOX = 'There is no mystery box of that kind.';

export function isBoxType(value: string): value is ProductType {
  return (PRODUCT_TYPE_NAMES as readonly string[]).includes(value);
}

export const boxName = (type: ProductType) => `${productTypeLabels[type].singular} mystery box`;

/** Each size of a type's flagged, unarchived products with units on the shelf, by variant id (the draw's order). */
export interface ContentRow {
  variantId: number;
  productId: number;
  productType: ProductType;
  brand: string;
  name: string | null;
  model: string;
  priceCents: number;
  size: string;
  quantity: number;
}

const contentColumns = {
  variantId: productVariants.id,
  productId: products.id,
  productType: products.productType,
  brand: products.brand,
  name: products.name,
  model: products.model,
  priceCents: sql<number>`coalesce(${productVariants.priceCents}, ${products.priceCents})`,
  size: productVariants.size,
  quantity: productVariants.quantity,
};

/** Every variant (sold-out sizes too) of a type's flagged, unarchived products in stock, by variant id. */
export function boxContents(db: Queryable, type: ProductType): ContentRow[] {
  return db
    .select(contentColumns)
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(and(eq(products.productType, type), eq(products.mysteryBoxEnabled, true), isNull(products.archivedAt), gt(products.quantity, 0)))
    .orderBy(asc(productVariants.id))
    .all();
}

const APPAREL = ['XXS', 'XS', 'S', 'M', 'L', 'XL', 'XXL', '3XL', '4XL'];

/** Sizes in the order a picker lists them: shoe sizes by number, tee sizes S before M before L. */
export function compareSizes(a: string, b: string): number {
  const [x, y] = [Number(a), Number(b)];
  if (a !== '' && b !== '' && Number.isFinite(x) && Number.isFinite(y)) return x - y;
  const [i, j] = [APPAREL.indexOf(a.toUpperCase()), APPAREL.indexOf(b.toUpperCase())];
  if (i >= 0 && j >= 0) return i - j;
  if (i >= 0 || j >= 0) return i >= 0 ? -1 : 1;
  return a.localeCompare(b);
}

function drawOf(size: string, lines: ContentRow[], nameOf: (row: ContentRow) => string): BoxDraw {
  const units = lines.reduce((sum, row) => sum + row.quantity, 0);
  const items = lines.map((row) => ({
    productId: row.productId,
    variantId: row.variantId,
    label: productLabel(row),
    name: nameOf(row),
    size: row.size,
    priceCents: row.priceCents,
    units: row.quantity,
    chance: row.quantity / units,
  }));
  return { size, units, items, stock: lines.map((row) => [row.variantId, row.quantity]) };
}

export function currentSeed(db: Queryable, type: ProductType) {
  return db
    .select()
    .from(mysterySeeds)
    .where(and(eq(mysterySeeds.productType, type), isNull(mysterySeeds.usedAt)))
    .get();
}

/** Commits the box's next seed: its hash is public from now on, the seed secret until it draws. */
export function commitSeed(tx: Queryable, type: ProductType, now: number) {
  const { seed, seedHash } = newBoxSeed();
  // Sealed under SEED_KEY until it draws: a backup of the database does not tell the next draw.
  return tx
    .insert(mysterySeeds)
    .values({ productType: type, seed: sealSeed(seed), seedHash, committedAt: now })
    .returning()
    .get();
}

/** A box from its contents (pure: the property tests feed it any stock). */
export function stateOf(
  type: ProductType,
  contents: ContentRow[],
  priceCents: number | null,
  seed: { seedHash: string; committedAt: number } | undefined,
): BoxState {
  const bySize = soldBySize(type);
  const inStock = contents.filter((row) => row.quantity > 0);
  const offered = [...new Set(inStock.map((row) => row.size))].filter((size) => !bySize || size !== '').sort(compareSizes);
  // A box without sizes draws over every unit; a product with several sizes is told apart by its size.
  const perProduct = new Map<number, number>();
  for (const row of inStock) perProduct.set(row.productId, (perProduct.get(row.productId) ?? 0) + 1);
  const draws = bySize
    ? offered.map((size) =>
        drawOf(
          size,
          inStock.filter((row) => row.size === size),
          (row) => productLabel(row),
        ),
      )
    : inStock.length
      ? [drawOf('', inStock, (row) => ((perProduct.get(row.productId) ?? 0) > 1 && row.size ? `${productLabel(row)} (${row.size})` : productLabel(row)))]
      : [];
  const items = draws.flatMap((draw) => draw.items).sort((a, b) => a.variantId - b.variantId);
  const soldOutSizes = bySize
    ? [...new Set(contents.filter((row) => row.quantity === 0 && row.size !== '' && !offered.includes(row.size)).map((row) => row.size))].sort(compareSizes)
    : [];
  const ceilingCents = items.length ? Math.min(...items.map((item) => item.priceCents)) : null;
  const status: BoxStatus =
    items.length === 0 ? 'empty' : priceCents === null || !seed ? 'no_price' : priceCents > (ceilingCents ?? 0) ? 'repricing' : 'on_sale';
  return {
    type,
    status,
    priceCents,
    ceilingCents,
    seedHash: seed?.seedHash ?? null,
    seedCommittedAt: seed?.committedAt ?? null,
    bySize,
    items,
    draws,
    soldOutSizes,
  };
}

/* Every box page and draw reads its box's price: built once (db/prepared.ts). */
const boxOfType = preparedOnce((db) =>
  db
    .select()
    .from(mysteryBoxes)
    .where(eq(mysteryBoxes.productType, sql.placeholder('type')))
    .prepare(),
);

/** One box as it stands, read in the caller's transaction (the draw's claim reads it this way). */
export function boxState(db: Queryable, type: ProductType): BoxState {
  const priceCents = boxOfType(db).get({ type })?.priceCents ?? null;
  return stateOf(type, boxContents(db, type), priceCents, priceCents === null ? undefined : currentSeed(db, type));
}

/**
 * The list's read of every box's contents, prepared once: plain rows skip Drizzle's per-column
 * mapping, which cost ten times the query itself here (docs/decisions.md, "Mystery boxes").
 */
const flaggedVariants = statementOnce<[], ContentRow>(
  () =>
    `select v.id as variantId, p.id as productId, p.product_type as productType, p.brand, p.name, p.model,
       coalesce(v.price_cents, p.price_cents) as priceCents, v.size, v.quantity
     from product_variants v join products p on p.id = v.product_id
     where p.mystery_box_enabled = 1 and p.archived_at is null and p.quantity > 0 order by v.id`,
);

/** Every type's box, in three reads whatever the number of types. */
export function allBoxStates(db: Db): BoxState[] {
  const contents = flaggedVariants(db).all();
  const prices = new Map(
    db
      .select()
      .from(mysteryBoxes)
      .all()
      .map((box) => [box.productType, box.priceCents]),
  );
  const seeds = new Map(
    db
      .select()
      .from(mysterySeeds)
      .where(isNull(mysterySeeds.usedAt))
      .all()
      .map((seed) => [seed.productType, seed]),
  );
  return PRODUCT_TYPE_NAMES.map((type) =>
    stateOf(
      type,
      contents.filter((product) => product.productType === type),
      prices.get(type) ?? null,
      prices.has(type) ? seeds.get(type) : undefined,
    ),
  );
}

/** What a shopper may buy or see being repriced: boxes with a price and something in stock. */
export function shopBoxes(db: Db): BoxState[] {
  return allBoxStates(db).filter((box) => box.status === 'on_sale' || box.status === 'repricing');
}

const oddsLine = (item: BoxItem) => ({
  productId: item.productId,
  variantId: item.variantId,
  name: item.name,
  size: item.size,
  units: item.units,
  chance: item.chance,
});

/**
 * GET /api/mystery-boxes: dollars, and each item's exact chance in each draw a purchase can make:
 * per size for tees and shoes (`sizes`, bought with `size`); a box without sizes keeps today's
 * `odds` too (no single list is right for a box drawn by size, so it has none).
 */
export function boxesApiView(db: Db) {
  return shopBoxes(db).map((box) => ({
    type: box.type,
    name: boxName(box.type),
    price: (box.priceCents ?? 0) / 100,
    available: box.status === 'on_sale',
    ...(box.status === 'repricing' ? { message: BOX_REPRICING } : {}),
    seedHash: box.seedHash,
    seedCommittedAt: box.seedCommittedAt,
    sizeRequired: box.bySize,
    ...(box.bySize ? {} : { odds: (box.draws[0]?.items ?? []).map(oddsLine) }),
    sizes: box.draws.map((draw) => ({ size: draw.size, units: draw.units, odds: draw.items.map(oddsLine) })),
    soldOutSizes: box.soldOutSizes,
  }));
}

/** The draw a purchase in `size` makes: the size's for tees and shoes (400 naming the sizes on offer), the box's otherwise. */
export function drawFor(box: BoxState, size: string | undefined): BoxDraw {
  const wanted = size?.trim() ?? '';
  if (!box.bySize) {
    if (wanted !== '') {
      const message = `The ${boxName(box.type)} comes in no sizes: buy it without one.`;
      throw new DomainError(400, message, { size: message });
    }
    return box.draws[0]!;
  }
  const draw = box.draws.find((candidate) => candidate.size.toLowerCase() === wanted.toLowerCase());
  if (draw && wanted !== '') return draw;
  const message = chooseASize(box.draws);
  throw new DomainError(400, message, { size: message });
}

/** Why a box cannot be sold now, or nothing. */
export function refusalOf(box: BoxState): DomainError | null {
  if (box.status === 'empty') return new DomainError(409, BOX_SOLD_OUT, undefined, { code: 'BOX_SOLD_OUT' });
  if (box.status === 'no_price') return new DomainError(409, BOX_NOT_ON_SALE);
  if (box.status === 'repricing') return new DomainError(409, BOX_REPRICING, undefined, { code: 'BOX_REPRICING' });
  return null;
}

/** The most a box may cost, in the admin's words. */
export function priceCeilingMessage(box: BoxState): string {
  const cheapest = box.items.find((item) => item.priceCents === box.ceilingCents);
  return `A box may cost at most ${formatCents(box.ceilingCents ?? 0)}, the price of its cheapest item (${cheapest?.label ?? 'none'}), so every box is worth what it costs.`;
}

/** PUT /api/admin/mystery-boxes/{type}: the admin's price, at most the cheapest item's; the box's first seed is committed with it. */
export function setBoxPrice(deps: { db: Db; clock: Clock }, adminId: number, type: string, priceCents: number): BoxState {
  const { db, clock } = deps;
  if (!isBoxType(type)) throw new DomainError(404, NO_SUCH_BOX);
  return db.transaction((tx) => {
    const box = boxState(tx, type);
    if (box.items.length === 0) {
      const message = `Tick Mystery box on ${productTypeLabels[type].plural.toLowerCase()} in stock first: this box has nothing in it.`;
      throw new DomainError(409, message, { price: message });
    }
    if (priceCents > (box.ceilingCents ?? 0)) {
      const message = priceCeilingMessage(box);
      throw new DomainError(400, message, { price: message });
    }
    const now = clock.now();
    tx.insert(mysteryBoxes)
      .values({ productType: type, priceCents, updatedBy: adminId, updatedAt: now })
      .onConflictDoUpdate({ target: mysteryBoxes.productType, set: { priceCents, updatedBy: adminId, updatedAt: now } })
      .run();
    if (!currentSeed(tx, type)) commitSeed(tx, type, now);
    return boxState(tx, type);
  });
}

/** Current box seeds still stored plain (from before seeds were sealed): sealed now, the same seed and commitment. */
export function sealCurrentBoxSeeds(tx: Queryable): number {
  const plain = tx
    .select({ id: mysterySeeds.id, seed: mysterySeeds.seed })
    .from(mysterySeeds)
    .where(and(isNull(mysterySeeds.usedAt), sql`${mysterySeeds.seed} not like 'sealed%'`))
    .all();
  for (const row of plain)
    tx.update(mysterySeeds)
      .set({ seed: sealSeed(row.seed) })
      .where(eq(mysterySeeds.id, row.id))
      .run();
  return plain.length;
}

/**
 * After a restore: each box's committed seed is withdrawn and a new one committed before the next
 * sale. The backup's seed may have drawn after the backup was taken and been revealed on that
 * order's page; it never drew in this store (a current seed has no draw), so its row goes.
 */
export function recommitBoxes(tx: Queryable, now: number): ProductType[] {
  const withdrawn = tx.delete(mysterySeeds).where(isNull(mysterySeeds.usedAt)).returning({ productType: mysterySeeds.productType }).all();
  for (const { productType } of withdrawn) commitSeed(tx, productType, now);
  return withdrawn.map((row) => row.productType);
}

/** One sealed current box seed, to check at start-up that the key opens it. */
export function someSealedBoxSeed(tx: Queryable): string | undefined {
  return tx
    .select({ seed: mysterySeeds.seed })
    .from(mysterySeeds)
    .where(and(isNull(mysterySeeds.usedAt), sql`${mysterySeeds.seed} like 'sealed%'`))
    .limit(1)
    .get()?.seed;
}
