import { and, asc, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { products, type Product } from '../../db/schema.ts';

/*
 * Whether a product has a game to join (issue 27, item 1): the one rule the cards, the product
 * page, the play page and POST /api/plays share. A game is open to join when play is enabled,
 * the product is in stock, and a waiting game has room or a new one can open (every full
 * waiting game takes a unit when it starts, so one opens only while a unit is left for it:
 * entry.ts gameWithRoom). Since issue 38 this holds per size: the product has a game to join
 * when one of its sizes does.
 */

export const GAMES_NOT_OPEN = 'Games are not open for this product.';
export const NO_GAME_SOLD_OUT = 'This product is out of stock, so no game can be played for it right now.';
export const EVERY_UNIT_PROMISED = 'Every unit of this product is already promised to a game. Try again after the next game.';
/** Issue 38: a game is for one size, so a product with several says which size has no game. */
export const sizeSoldOut = (size: string) => `Size ${size} is sold out, so no game can be played for it right now. Choose another size.`;
export const everySizeUnitPromised = (size: string) =>
  `Every unit in size ${size} is already promised to a game. Try again after the next game, or choose another size.`;

/**
 * True for a product row with a game to join (an archived product has none): some size of it has
 * a waiting game with room, or more units than waiting games (a game is for one size, issue 38).
 * One correlated test per size (games_variant_status_idx, plays_game_status_idx).
 */
const hasGameToJoin = sql`(${products.archivedAt} is null and ${products.playEnabled} = 1 and ${products.quantity} > 0 and exists (
  select 1 from product_variants v where v.product_id = ${products.id} and v.quantity > 0 and (
    exists (select 1 from games g where g.variant_id = v.id and g.status = 'waiting'
      and (select count(*) from plays p where p.game_id = g.id and p.status = 'entered') < g.required_participants)
    or v.quantity > (select count(*) from games g where g.variant_id = v.id and g.status = 'waiting'))))`;

/** Why no game of this product can be joined now, in the shop's words; null when one can. */
export function whyNoGameToJoin(db: Queryable, product: Pick<Product, 'id' | 'playEnabled' | 'quantity'>): string | null {
  if (!product.playEnabled) return GAMES_NOT_OPEN;
  if (product.quantity <= 0) return NO_GAME_SOLD_OUT;
  return joinableIds(db, [product.id]).has(product.id) ? null : EVERY_UNIT_PROMISED;
}

// Every grid asks: built once (db/prepared.ts), the ids bound as one JSON array (an IN list would be a new statement per length).
const joinableOf = preparedOnce((db) =>
  db
    .select({ id: products.id })
    .from(products)
    .where(and(sql`${products.id} in (select value from json_each(${sql.placeholder('ids')}))`, hasGameToJoin))
    .prepare(),
);

/** Of these products, the ones with a game to join (for a grid of cards: one statement). */
export function joinableIds(db: Queryable, ids: readonly number[]): Set<number> {
  if (ids.length === 0) return new Set();
  const rows = joinableOf(db).all({ ids: JSON.stringify(ids) });
  return new Set(rows.map((row) => row.id));
}

/** Products with a game to join, for a visitor who came to one without: the ones closest to starting first. */
export function productsWithOpenGames(db: Queryable, exceptId: number, limit = 4): Product[] {
  return db
    .select()
    .from(products)
    .where(and(hasGameToJoin, sql`${products.id} <> ${exceptId}`))
    .orderBy(asc(products.priceCents), asc(products.id))
    .limit(limit)
    .all();
}

/**
 * whyNoGameToJoin from a product's sizesToPlay (the play page has them already: one statement
 * fewer a visit). A product has a game to join when one of its sizes does.
 */
export function whyNoGameOfSizes(product: Pick<Product, 'playEnabled' | 'quantity'>, sizes: readonly SizeToPlay[]): string | null {
  if (!product.playEnabled) return GAMES_NOT_OPEN;
  if (product.quantity <= 0) return NO_GAME_SOLD_OUT;
  return sizes.some((size) => size.closed === null) ? null : EVERY_UNIT_PROMISED;
}

export interface SizeToPlay {
  variantId: number;
  size: string;
  /** No unit of this size is left. */
  soldOut: boolean;
  /** Why no game of this size can be joined now, naming the size; null when one can. */
  closed: string | null;
}

/**
 * A product's sizes as the play page offers them (issue 38: a game is for one size): each with
 * why its game cannot be joined, if so; the same per-size rule as entry.ts gameWithRoom.
 */
export function sizesToPlay(db: Db, productId: number): SizeToPlay[] {
  return db.$client
    .query<{ variantId: number; size: string; quantity: number; waiting: number; room: number }, [number]>(
      `select v.id as variantId, v.size, v.quantity,
         (select count(*) from games g where g.variant_id = v.id and g.status = 'waiting') as waiting,
         exists (select 1 from games g where g.variant_id = v.id and g.status = 'waiting'
           and (select count(*) from plays p where p.game_id = g.id and p.status = 'entered') < g.required_participants) as room
       from product_variants v where v.product_id = ?1 order by v.position, v.id`,
    )
    .all(productId)
    .map((row) => ({
      variantId: row.variantId,
      size: row.size,
      soldOut: row.quantity <= 0,
      closed: row.quantity <= 0 ? sizeSoldOut(row.size) : row.room || row.quantity > row.waiting ? null : everySizeUnitPromised(row.size),
    }));
}
