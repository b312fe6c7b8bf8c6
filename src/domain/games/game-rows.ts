import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { games, plays, products, type Game, type Product } from '../../db/schema.ts';
import { gameSizeColumn } from './queries.ts';
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
  const ids = [...new Set(list.filter((game) => game.variantId !== null).map((game) => game.id))];
  if (ids.length === 0) return new Map();
  const sizes = new Map<number, string>();
  for (const row of db.select({ id: games.id, size: gameSizeColumn }).from(games).where(inArray(games.id, ids)).all())
    if (row.size) sizes.set(row.id, row.size);
  return sizes;
}

/** ' in size M' after a product's name in a game's messages; '' for a product with one size. */
export const inSize = (size: string) => (size ? ` in size ${size}` : '');
