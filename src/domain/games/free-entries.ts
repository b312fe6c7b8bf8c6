import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { freeEntries, orderItems, plays, products, type FreeEntry } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { notify } from '../accounts/notifications.ts';
import { isGuestAccount } from '../accounts/guest-accounts.ts';
import { freeEntryDate } from '../../shared/free-entries.ts';

/*
 * Buy one, play free (issue 29): the free game entries a paid order of a buyOnePlayFreeEnabled
 * product gives its buyer, one per unit, for 30 days. Every move is a statement in the caller's
 * transaction, the one that moves the order or the play, so an entry is granted, used, given
 * back or withdrawn together with what caused it, and never twice:
 * - granted where an order becomes paid (order-charge.ts confirmCharge, whoever confirms it:
 *   the request, the reconciler, an admin's mark-paid; a cash order once delivered), keyed by
 *   (order line, unit);
 * - used by one play (free-entry-use.ts), with a conditional UPDATE on an available entry;
 * - given back when the game it entered is canceled (usable for at least a week more);
 * - withdrawn, while unused, when its order is canceled or refunded in full.
 * The ledger lives in the games area (an entry is a game entry) so that games, orders and
 * promotions, all above it, call it without an import against the declared order.
 */

export const FREE_ENTRY_DAYS = 30;
export const FREE_ENTRY_VALID_MS = FREE_ENTRY_DAYS * 24 * 60 * 60 * 1000;

/**
 * Lines that give free entries: a flagged product paid for (buy now, cart, an auction, a team
 * buy, a mystery box's drawn item), never a $1 prize.
 */
const GRANTING_LINES = ['buy_now', 'auction', 'team', 'mystery_box'];

/*
 * Every paid order asks for its granting lines: built once (db/prepared.ts). The order id is bound
 * as `cast(? as integer)`: compared bare in a join, each new value would make SQLite compile the
 * statement again (see accounts/sessions.ts).
 */
const grantingLines = preparedOnce((db) =>
  db
    .select({ id: orderItems.id, productId: orderItems.productId, quantity: orderItems.quantity })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(
      and(
        eq(orderItems.orderId, sql`cast(${sql.placeholder('orderId')} as integer)`),
        inArray(orderItems.purchaseType, GRANTING_LINES),
        eq(products.buyOnePlayFreeEnabled, true),
      ),
    )
    .prepare(),
);
const insertFreeEntry = preparedOnce((db) =>
  db
    .insert(freeEntries)
    .values({
      userId: sql.placeholder('userId'),
      productId: sql.placeholder('productId'),
      orderId: sql.placeholder('orderId'),
      orderItemId: sql.placeholder('orderItemId'),
      unit: sql.placeholder('unit'),
      status: 'available',
      grantedAt: sql.placeholder('grantedAt'),
      expiresAt: sql.placeholder('expiresAt'),
    })
    .onConflictDoNothing()
    .returning({ id: freeEntries.id })
    .prepare(),
);

/** Gives the order's free entries (one per unit of each flagged line), once; the number new. Runs in the caller's transaction. */
export function grantFreeEntries(tx: Queryable, clock: Clock, order: { id: number; userId: number }): number {
  // A guest cannot sign in to play: a guest order gives none (the receipt then names none either).
  if (isGuestAccount(tx, order.userId)) return 0;
  const lines = grantingLines(tx).all({ orderId: order.id });
  const now = clock.now();
  let granted = 0;
  for (const line of lines) {
    for (let unit = 1; unit <= line.quantity; unit++) {
      granted += insertFreeEntry(tx).all({
        userId: order.userId,
        productId: line.productId,
        orderId: order.id,
        orderItemId: line.id,
        unit,
        grantedAt: now,
        expiresAt: now + FREE_ENTRY_VALID_MS,
      }).length;
    }
  }
  if (granted > 0) {
    notify(tx, clock, order.userId, {
      type: 'order_status',
      eventKey: `order:${order.id}:free-entries`,
      title: granted === 1 ? 'Free game entry' : 'Free game entries',
      message: `Buy one, play free: order #${order.id} gives you ${granted} free game ${granted === 1 ? 'entry' : 'entries'}, to use by ${freeEntryDate(now + FREE_ENTRY_VALID_MS)}.`,
      actionUrl: '/play',
      actionText: 'Find a game',
    });
  }
  return granted;
}

/** The entries an order gave, oldest first. */
export function freeEntriesOfOrder(db: Queryable, orderId: number): FreeEntry[] {
  return db.select().from(freeEntries).where(eq(freeEntries.orderId, orderId)).orderBy(asc(freeEntries.id)).all();
}

/** A canceled or refunded order takes back its unused entries (a used one stays used); the number withdrawn. */
export function withdrawFreeEntries(tx: Queryable, clock: Clock, orderId: number): number {
  return tx
    .update(freeEntries)
    .set({ status: 'withdrawn', withdrawnAt: clock.now() })
    .where(and(eq(freeEntries.orderId, orderId), eq(freeEntries.status, 'available')))
    .returning({ id: freeEntries.id })
    .all().length;
}

/** A cancellation undone (the refund was refused, the order is processing again): what it withdrew is available again. */
export function reinstateFreeEntries(tx: Queryable, orderId: number): void {
  tx.update(freeEntries)
    .set({ status: 'available', withdrawnAt: null })
    .where(and(eq(freeEntries.orderId, orderId), eq(freeEntries.status, 'withdrawn')))
    .run();
}

/** Whether the user holds a usable entry now. */
export function hasFreeEntry(db: Queryable, userId: number, now: number): boolean {
  return !!usableEntry(db, userId, now);
}

/** How many usable entries the user holds now. */
export function usableFreeEntries(db: Queryable, userId: number, now: number): number {
  return (
    db
      .select({ n: sql<number>`count(*)` })
      .from(freeEntries)
      .where(and(eq(freeEntries.userId, userId), eq(freeEntries.status, 'available'), gt(freeEntries.expiresAt, now)))
      .get()?.n ?? 0
  );
}

/** The entry a join uses: the one that expires first. */
function usableEntry(db: Queryable, userId: number, now: number) {
  return db
    .select({ id: freeEntries.id })
    .from(freeEntries)
    .where(and(eq(freeEntries.userId, userId), eq(freeEntries.status, 'available'), gt(freeEntries.expiresAt, now)))
    .orderBy(asc(freeEntries.expiresAt), asc(freeEntries.id))
    .get();
}

/**
 * Claims the user's soonest-expiring entry for a play: a conditional UPDATE (status still
 * available, not expired), so one entry enters one play however many joins race for it. The
 * entry's id, or null when none is left. Runs in the caller's (IMMEDIATE) transaction.
 */
export function claimFreeEntry(tx: Queryable, userId: number, playId: number, now: number): number | null {
  const entry = usableEntry(tx, userId, now);
  if (!entry) return null;
  const claimed = tx
    .update(freeEntries)
    .set({ status: 'used', playId, usedAt: now })
    .where(and(eq(freeEntries.id, entry.id), eq(freeEntries.status, 'available'), gt(freeEntries.expiresAt, now)))
    .returning({ id: freeEntries.id })
    .get();
  return claimed?.id ?? null;
}

/** A given-back entry is usable for at least this long, however close its own expiry was. */
export const GIVEN_BACK_MIN_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * A game that will not be played (canceled, sold out before its start, an entry too late for it)
 * gives its free entries back instead of releasing a hold: available again, with its expiry kept
 * or moved to a week from now when sooner (a game may wait 6 days before it is canceled, and the
 * shopper should not lose an entry to that wait). Runs in the caller's transaction.
 */
export function giveBackFreeEntries(tx: Queryable, clock: Clock, gameId: number, playIds?: number[]): number {
  const ofGame = tx
    .select({ id: plays.id })
    .from(plays)
    .where(playIds ? and(eq(plays.gameId, gameId), inArray(plays.id, playIds)) : eq(plays.gameId, gameId));
  const now = clock.now();
  // An entry whose order was canceled or refunded in full meanwhile (it stayed used then) comes back withdrawn.
  const orderGone = sql`(exists (select 1 from orders o where o.id = ${freeEntries.orderId} and o.status = 'canceled')
    or exists (select 1 from payments p where p.order_id = ${freeEntries.orderId} and p.kind = 'order_charge' and p.status = 'refunded'))`;
  const back = tx
    .update(freeEntries)
    .set({
      status: sql`case when ${orderGone} then 'withdrawn' else 'available' end`,
      withdrawnAt: sql`case when ${orderGone} then ${now} else null end`,
      playId: null,
      usedAt: null,
      expiresAt: sql`max(${freeEntries.expiresAt}, ${now + GIVEN_BACK_MIN_MS})`,
    })
    .where(and(eq(freeEntries.status, 'used'), inArray(freeEntries.playId, ofGame)))
    .returning()
    .all();
  for (const entry of back) {
    if (entry.status !== 'available') continue;
    // Beside the game's own 'canceled' message, which speaks of $1 holds: this player held none.
    notify(tx, clock, entry.userId, {
      type: 'game_ended',
      eventKey: `free-entry:${entry.id}:back:${gameId}`,
      title: 'Free entry given back',
      message: `Your game did not go ahead, so your free game entry is yours again: use it by ${freeEntryDate(entry.expiresAt)}.`,
      actionUrl: '/profile?tab=play',
      actionText: 'My free entries',
      gameId,
    });
  }
  return back.length;
}

/** The play page's offer: how many the user may use now, and the soonest expiry among them. */
export function freeEntriesToUse(db: Queryable, userId: number, now: number): { count: number; expiresAt: number | null } {
  const row = db
    .select({ n: sql<number>`count(*)`, first: sql<number | null>`min(${freeEntries.expiresAt})` })
    .from(freeEntries)
    .where(and(eq(freeEntries.userId, userId), eq(freeEntries.status, 'available'), gt(freeEntries.expiresAt, now)))
    .get();
  return { count: row?.n ?? 0, expiresAt: row?.first ?? null };
}

/** Used free entries per game, for the admin's Games tab. */
export function freeEntriesByGame(db: Queryable, gameIds: number[]): Map<number, number> {
  if (gameIds.length === 0) return new Map();
  const rows = db
    .select({ gameId: plays.gameId, n: sql<number>`count(*)` })
    .from(freeEntries)
    .innerJoin(plays, eq(plays.id, freeEntries.playId))
    .where(and(inArray(plays.gameId, gameIds), eq(freeEntries.status, 'used')))
    .groupBy(plays.gameId)
    .all();
  return new Map(rows.map((row) => [row.gameId, row.n]));
}
