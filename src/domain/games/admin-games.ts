import { desc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { games, payments, plays, products, type GameStatus } from '../../db/schema.ts';
import { freeEntriesByGame } from './free-entries.ts';
import { gameSizeColumn } from './queries.ts';
import { timesOf } from './schedule.ts';
import { withSize } from '../../shared/size-label.ts';

/*
 * The admin's Games tab: every game by state with its entries, times and $1 holds. Open games
 * come OPEN_SHOWN of each state a page; finished and canceled ones are the latest FINISHED_SHOWN of each.
 */

export type { GameStatus };

export const FINISHED_SHOWN = 50;

export interface AdminGame {
  id: number;
  status: GameStatus;
  /** `name` carries the size the game is for, for a product sold in several ('Classic Tee · Size M'). */
  product: { id: number; name: string };
  entries: number;
  requiredParticipants: number;
  createdAt: number;
  startTime: number | null;
  endTime: number | null;
  settledAt: number | null;
  canceledAt: number | null;
  cancelReason: string | null;
  /** The entries' $1 holds, counted by payment status. */
  holds: Record<string, number>;
}

/** Open games of each state shown on a page of the tab. */
export const OPEN_SHOWN = 50;

/** The tab's games: page `page` of the live and of the waiting games (OPEN_SHOWN each), the latest FINISHED_SHOWN finished and canceled, and how many are open. */
export function listGamesForAdmin(db: Queryable, page = 1): Record<GameStatus, AdminGame[]> & { openCounts: { active: number; waiting: number } } {
  const rows = (status: GameStatus, limit: number, offset = 0) =>
    db
      .select({ game: games, brand: products.brand, model: products.model, size: gameSizeColumn })
      .from(games)
      .innerJoin(products, eq(games.productId, products.id))
      // Completed games are most of the table: newest first along the primary key, not sorted from the status index.
      .where(status === 'completed' ? sql`+${games.status} = 'completed'` : eq(games.status, status))
      .orderBy(desc(games.id))
      .limit(limit)
      .offset(offset)
      .all();
  const chosen = {
    waiting: rows('waiting', OPEN_SHOWN, (page - 1) * OPEN_SHOWN),
    active: rows('active', OPEN_SHOWN, (page - 1) * OPEN_SHOWN),
    completed: rows('completed', FINISHED_SHOWN),
    canceled: rows('canceled', FINISHED_SHOWN),
  };
  const openCounts = { active: 0, waiting: 0 };
  for (const row of db
    .select({ status: games.status, n: sql<number>`count(*)` })
    .from(games)
    .where(inArray(games.status, ['waiting', 'active']))
    .groupBy(games.status)
    .all())
    openCounts[row.status as 'active' | 'waiting'] = row.n;
  const ids = Object.values(chosen).flatMap((list) => list.map((r) => r.game.id));
  const entries = new Map<number, number>();
  const holds = new Map<number, Record<string, number>>();
  if (ids.length) {
    for (const row of db
      .select({ gameId: plays.gameId, n: sql<number>`count(*)` })
      .from(plays)
      .where(sql`${inArray(plays.gameId, ids)} and (${plays.status} = 'entered' or ${plays.enteredAt} is not null)`)
      .groupBy(plays.gameId)
      .all())
      entries.set(row.gameId, row.n);
    for (const row of db
      .select({ gameId: plays.gameId, status: payments.status, n: sql<number>`count(*)` })
      .from(payments)
      .innerJoin(plays, eq(payments.playId, plays.id))
      .where(sql`${inArray(plays.gameId, ids)} and ${payments.kind} = 'play_authorization'`)
      .groupBy(plays.gameId, payments.status)
      .all())
      holds.set(row.gameId, { ...holds.get(row.gameId), [row.status]: row.n });
    // Buy one, play free: an entry on a free entry has no hold; the admin sees it counted beside the holds.
    for (const [gameId, n] of freeEntriesByGame(db, ids)) holds.set(gameId, { ...holds.get(gameId), 'free entry': n });
  }
  const view = ({ game, brand, model, size }: (typeof chosen.waiting)[number]): AdminGame => ({
    id: game.id,
    status: game.status,
    product: { id: game.productId, name: withSize(`${brand} ${model}`, size) },
    entries: entries.get(game.id) ?? 0,
    requiredParticipants: game.requiredParticipants,
    ...timesOf(game),
    holds: holds.get(game.id) ?? {},
  });
  return {
    openCounts,
    waiting: chosen.waiting.map(view),
    active: chosen.active.map(view),
    completed: chosen.completed.map(view),
    canceled: chosen.canceled.map(view),
  };
}

/** The cancel page's game: its state and its product's name (with the game's size, as on the tab); null when there is no such game. */
export function gameForCancel(db: Queryable, id: number): { id: number; status: GameStatus; productName: string | null } | null {
  const row = db
    .select({ id: games.id, status: games.status, brand: products.brand, model: products.model, size: gameSizeColumn })
    .from(games)
    .leftJoin(products, eq(games.productId, products.id))
    .where(eq(games.id, id))
    .get();
  if (!row) return null;
  return { id: row.id, status: row.status, productName: row.brand === null ? null : withSize(`${row.brand} ${row.model}`, row.size) };
}
