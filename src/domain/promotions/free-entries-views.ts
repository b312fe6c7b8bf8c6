import { desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { freeEntries, orderItems, plays, users, type FreeEntry } from '../../db/schema.ts';
import { csvCell } from '../../shared/csv.ts';

/*
 * Free entries as the shopper (GET /api/user/free-entries, the order page, the Play tab, the play
 * page) and the admin (Promotions tab, CSV) read them. 'expired' is not stored: an available entry
 * past its date shows as expired and can no longer be used.
 */

export type FreeEntryState = 'available' | 'used' | 'expired' | 'withdrawn';

export interface FreeEntryView {
  id: number;
  status: FreeEntryState;
  product: { id: number | null; name: string };
  orderId: number;
  grantedAt: number;
  expiresAt: number;
  usedAt: number | null;
  playId: number | null;
  gameId: number | null;
  withdrawnAt: number | null;
}

export function stateOf(entry: Pick<FreeEntry, 'status' | 'expiresAt'>, now: number): FreeEntryState {
  return entry.status === 'available' && entry.expiresAt <= now ? 'expired' : entry.status;
}

const columns = {
  entry: freeEntries,
  label: orderItems.productLabel,
  gameId: plays.gameId,
};

function view(row: { entry: FreeEntry; label: string | null; gameId: number | null }, now: number): FreeEntryView {
  const { entry } = row;
  return {
    id: entry.id,
    status: stateOf(entry, now),
    product: { id: entry.productId, name: row.label ?? 'A product' },
    orderId: entry.orderId,
    grantedAt: entry.grantedAt,
    expiresAt: entry.expiresAt,
    usedAt: entry.usedAt,
    playId: entry.playId,
    gameId: row.gameId ?? null,
    withdrawnAt: entry.withdrawnAt,
  };
}

/** The shopper's entries: usable ones first (soonest to expire first), then the rest, newest first. */
export function userFreeEntries(db: Queryable, userId: number, now: number): FreeEntryView[] {
  const rows = db
    .select(columns)
    .from(freeEntries)
    .leftJoin(orderItems, eq(orderItems.id, freeEntries.orderItemId))
    .leftJoin(plays, eq(plays.id, freeEntries.playId))
    .where(eq(freeEntries.userId, userId))
    .orderBy(desc(freeEntries.id))
    .limit(200)
    .all()
    .map((row) => view(row, now));
  const usable = rows.filter((e) => e.status === 'available').sort((a, b) => a.expiresAt - b.expiresAt || a.id - b.id);
  return [...usable, ...rows.filter((e) => e.status !== 'available')];
}

/** An order's entries (the order page, the receipt). */
export function orderFreeEntries(db: Queryable, orderId: number, now: number): FreeEntryView[] {
  return db
    .select(columns)
    .from(freeEntries)
    .leftJoin(orderItems, eq(orderItems.id, freeEntries.orderItemId))
    .leftJoin(plays, eq(plays.id, freeEntries.playId))
    .where(eq(freeEntries.orderId, orderId))
    .orderBy(freeEntries.id)
    .all()
    .map((row) => view(row, now));
}

export interface AdminFreeEntry extends FreeEntryView {
  username: string;
}

export interface AdminFreeEntries {
  counts: Record<FreeEntryState, number>;
  entries: AdminFreeEntry[];
}

export const ADMIN_FREE_ENTRY_LIMIT = 500;

/** The Promotions tab: how many were issued in each state, and the latest entries (one state, or all). */
export function adminFreeEntries(db: Queryable, now: number, state?: FreeEntryState, limit = ADMIN_FREE_ENTRY_LIMIT): AdminFreeEntries {
  const counts: Record<FreeEntryState, number> = { available: 0, used: 0, expired: 0, withdrawn: 0 };
  const stateSql = sql<FreeEntryState>`case when ${freeEntries.status} = 'available' and ${freeEntries.expiresAt} <= ${now} then 'expired' else ${freeEntries.status} end`;
  for (const row of db.select({ state: stateSql, n: sql<number>`count(*)` }).from(freeEntries).groupBy(stateSql).all()) counts[row.state] = row.n;
  const entries = db
    .select({ ...columns, username: users.username })
    .from(freeEntries)
    .innerJoin(users, eq(users.id, freeEntries.userId))
    .leftJoin(orderItems, eq(orderItems.id, freeEntries.orderItemId))
    .leftJoin(plays, eq(plays.id, freeEntries.playId))
    .where(state ? sql`${stateSql} = ${state}` : undefined)
    .orderBy(desc(freeEntries.id))
    .limit(limit)
    .all()
    .map((row) => ({ ...view(row, now), username: row.username }));
  return { counts, entries };
}

const CSV_COLUMNS = ['Entry', 'Shopper', 'Product', 'Order', 'Granted', 'Expires', 'Status', 'Used', 'Game', 'Withdrawn'];

/** The Promotions tab's free entries as CSV. */
export function freeEntriesCsv(entries: AdminFreeEntry[], formatTime: (ms: number) => string): string {
  const time = (ms: number | null) => (ms === null ? '' : formatTime(ms));
  const rows = entries.map((e) =>
    [e.id, e.username, e.product.name, e.orderId, time(e.grantedAt), time(e.expiresAt), e.status, time(e.usedAt), e.gameId, time(e.withdrawnAt)]
      .map(csvCell)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
