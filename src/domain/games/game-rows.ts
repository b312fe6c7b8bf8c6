import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { plays, products, productVariants, type Game, type Product } from '../../db/schema.ts';
import { variantById, variantsOf } from '../inventory/variants.ts';
import type { Clock } from '../clock.ts';
import { notify, type NewNotification } from '../accounts/notifications.ts';

/* What every game step reads (the entered plays, the product) and how it tells the players. */

/** Games started, settled or expired at most between two turns for the requests. */
export const GAMES_PER_SLICE = 5;

export function enteredPlays(db: Queryable, gameId: number) {
  return db
    .select()
    .from(plays)
    .where(and(eq(plays.gameId, gameId), eq(plays.status, 'entered')))
    .orderBy(asc(plays.enteredAt), asc(plays.id))
    .all();
}

export function productOf(db: Queryable, productId: number): Product {
  return db.select().from(products).where(eq(products.id, productId)).get()!;
}

/** Tells every entered player of a game, once per game and event. Runs in the caller's transaction. */
export function tellPlayers(
  tx: Queryable,
  clock: Clock,
  gameId: number,
  productId: number,
  event: string,
  message: Omit<NewNotification, 'eventKey' | 'productId' | 'gameId'>,
): void {
  for (const play of enteredPlays(tx, gameId)) {
    notify(tx, clock, play.userId, { ...message, eventKey: `game:${gameId}:${event}`, productId, gameId });
  }
}

/**
 * The size a game is for, as its texts name it (issue 38): only for a product sold in several
 * sizes ('M'); '' otherwise, so a one-size product's messages read as before.
 */
export function gameSizeOf(db: Queryable, game: Pick<Game, 'productId' | 'variantId'>): string {
  if (game.variantId === null) return '';
  const variant = variantById(db, game.variantId);
  if (!variant || variantsOf(db, game.productId).length < 2) return '';
  return variant.size;
}

/**
 * gameSizeOf for many games in one statement (the scoreboard, winners, My Games): game id -> size,
 * only for games of products sold in several sizes.
 */
export function gameSizes(db: Queryable, list: readonly Pick<Game, 'id' | 'variantId'>[]): Map<number, string> {
  const variantIds = [...new Set(list.map((game) => game.variantId).filter((id): id is number => id !== null))];
  if (variantIds.length === 0) return new Map();
  const sized = new Map(
    db
      .select({ id: productVariants.id, size: productVariants.size })
      .from(productVariants)
      .where(and(inArray(productVariants.id, variantIds), sql`(select count(*) from product_variants w where w.product_id = ${productVariants.productId}) > 1`))
      .all()
      .map((row) => [row.id, row.size]),
  );
  const sizes = new Map<number, string>();
  for (const game of list) {
    const size = game.variantId === null ? undefined : sized.get(game.variantId);
    if (size) sizes.set(game.id, size);
  }
  return sizes;
}

/** ' in size M' after a product's name in a game's messages; '' for a product with one size. */
export const inSize = (size: string) => (size ? ` in size ${size}` : '');
