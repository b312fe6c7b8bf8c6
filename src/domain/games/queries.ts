import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { games, plays, type Game } from '../../db/schema.ts';
import { DEFAULT_REQUIRED_PARTICIPANTS } from '../../shared/views/games.ts';

export { DEFAULT_REQUIRED_PARTICIPANTS };

/**
 * The size a game is for, as a column of a query over games (issue 38): its variant's size only
 * for a product sold in several sizes, else null, as gameSizeOf says it. A page reads it with the
 * game it already reads, not in a statement of its own.
 */
export const gameSizeColumn = sql<string | null>`(select nullif(v.size, '') from product_variants v where v.id = ${games.variantId}
  and (select count(*) from product_variants w where w.product_id = v.product_id) > 1)`;

export interface GameSummary {
  id: number;
  /** The game's row, so a view built on it reads it once. */
  row: Game;
  /** The size the game is for ('M'), or '' for a product with one size (gameSizeColumn). */
  size: string;
  status: 'waiting' | 'active' | 'completed' | 'canceled';
  requiredParticipants: number;
  entries: number;
  startTime: number | null;
  endTime: number | null;
}

/**
 * The product's current game: the live one, else the oldest waiting one (a full game waiting for
 * its hour comes before the next one filling), else the last completed.
 */
export function currentGame(db: Queryable, productId: number): GameSummary | null {
  // Two indexed lookups with LIMIT 1 (Drizzle's get() alone would read every game of the product).
  const found =
    db
      .select({ game: games, size: gameSizeColumn })
      .from(games)
      .where(and(eq(games.productId, productId), inArray(games.status, ['active', 'waiting'])))
      .orderBy(sql`case ${games.status} when 'active' then 0 else 1 end`, asc(games.id))
      .limit(1)
      .get() ??
    db
      .select({ game: games, size: gameSizeColumn })
      .from(games)
      .where(and(eq(games.productId, productId), eq(games.status, 'completed')))
      .orderBy(desc(games.id))
      .limit(1)
      .get();
  if (!found) return null;
  const { game } = found;
  const entries = db
    .select({ n: count() })
    .from(plays)
    .where(and(eq(plays.gameId, game.id), eq(plays.status, 'entered')))
    .get();
  return {
    id: game.id,
    row: game,
    size: found.size ?? '',
    status: game.status,
    requiredParticipants: game.requiredParticipants || DEFAULT_REQUIRED_PARTICIPANTS,
    entries: entries?.n ?? 0,
    startTime: game.startTime,
    endTime: game.endTime,
  };
}

/**
 * The games a product's pages may show, for `$product`: every open game (a full game and the
 * next one filling) and the last one to finish.
 */
const SHOWN_GAME_IDS = `select id from games where product_id = $product and status in ('waiting', 'active')
  union all
  select * from (select id from games where product_id = $product and status = 'completed' order by id desc limit 1)`;

/**
 * A short text that changes whenever what the product page shows of its games changes (state,
 * entries), ending in ':live' while one is live. Every change it sees is a write to games or
 * plays, which moves the storefront version, so the page cache keeps it until then.
 */
export function shownGamesKey(db: Db, productId: number | null): string {
  if (productId === null) return '';
  const rows = db.$client
    .query<{ id: number; status: string; entries: number }, { product: number }>(
      `select g.id, g.status, (select count(*) from plays p where p.game_id = g.id and p.status = 'entered') as entries
       from games g where g.id in (${SHOWN_GAME_IDS}) order by g.id`,
    )
    .all({ product: productId });
  if (rows.length === 0) return 'none';
  const live = rows.some((row) => row.status === 'active');
  return rows.map((row) => `${row.id}:${row.status}:${row.entries}`).join(',') + (live ? ':live' : '');
}

/**
 * Whether a user has an entry in a game the product's pages may show (`SHOWN_GAME_IDS`): only then does the competition panel mark a line 'You', so only then is
 * the page theirs alone; everyone else shares one cached copy.
 */
export function hasEntryInShownGames(db: Db, productId: number, userId: number): boolean {
  const row = db.$client
    .query<{ found: number }, { product: number; user: number }>(
      `select 1 as found from plays where user_id = $user and game_id in (${SHOWN_GAME_IDS}) limit 1`,
    )
    .get({ product: productId, user: userId });
  return row !== null;
}

/**
 * The game the next entry joins: the product's (or, named, the size's) oldest waiting game with
 * room (a full one waits for its hour and takes nobody). `afterFull` when a full game comes
 * before it; null when a new game would open.
 */
export function gameTakingEntries(db: Db, productId: number, variantId?: number): { entries: number; requiredParticipants: number; afterFull: boolean } | null {
  const open = firstWaitingWithRoom(db, productId, 0, variantId);
  if (open) return { entries: open.entries, requiredParticipants: open.requiredParticipants, afterFull: open.fullBefore > 0 };
  const waiting = db.$client
    .query<{ found: number }, [number, number | null]>(
      "select 1 as found from games where product_id = ?1 and status = 'waiting' and (?2 is null or variant_id = ?2) limit 1",
    )
    .get(productId, variantId ?? null);
  return waiting ? { entries: 0, requiredParticipants: 0, afterFull: true } : null;
}

const ENTERED = "(select count(*) from plays p where p.game_id = g.id and p.status = 'entered')";

/**
 * The product's oldest waiting game with room (other than `except`; of one size when `variantId`
 * is given, as a game is for one size), its entries, and how many waiting games of that size come
 * before it: one statement however many full games wait for their hour.
 */
export function firstWaitingWithRoom(
  db: Db,
  productId: number,
  except = 0,
  variantId?: number | null,
): { id: number; entries: number; requiredParticipants: number; fullBefore: number } | null {
  return db.$client
    .query<{ id: number; entries: number; requiredParticipants: number; fullBefore: number }, [number, number, number | null]>(
      `select g.id, ${ENTERED} as entries, g.required_participants as requiredParticipants,
         (select count(*) from games b where b.product_id = g.product_id and b.status = 'waiting' and b.id < g.id
           and (?3 is null or b.variant_id = ?3)) as fullBefore
       from games g where g.product_id = ?1 and g.status = 'waiting' and g.id != ?2 and (?3 is null or g.variant_id = ?3)
         and ${ENTERED} < g.required_participants
       order by g.id limit 1`,
    )
    .get(productId, except, variantId ?? null);
}
