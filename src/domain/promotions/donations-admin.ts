import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { games, orderItems, orders, plays, products, users } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { productLabel } from '../catalog/catalog.ts';
import { centsToDollars } from '../../shared/money.ts';
import { csvCell } from '../../shared/csv.ts';

/*
 * The admin's donation list (Promotions tab, Donations): every paid 'Buy to donate' order and
 * every prize a winner gave to charity (games.prize_outcome = 'donated'), newest first, with
 * whether it was handed over. A purchase is handed over when its order is marked delivered on
 * the Orders tab ('Mark handed over'); a prize has no order, so its hand-over is kept on the game.
 */

/** The tab shows the newest few (a page of 200 rows cost the admin page 20 ms to render: bench/donations.ts)... */
export const DONATIONS_SHOWN = 50;
/** ...the CSV the rest, up to this many. */
export const DONATIONS_EXPORTED = 5_000;

export interface DonationRow {
  kind: 'purchase' | 'prize';
  /** The order's id for a purchase, the game's for a prize. */
  id: number;
  at: number;
  product: string;
  donor: string;
  /** A purchase: what the donor paid (total with tax). A prize: the product's price, its value. */
  amount: number;
  /** The charity named on the order; a prize goes to today's partner. */
  charity: string | null;
  handedOverAt: number | null;
}

const PAID = ['processing', 'shipped', 'completed'] as const;

function purchaseDonations(db: Queryable, limit: number): DonationRow[] {
  const rows = db
    .select({ order: orders, username: users.username })
    .from(orders)
    .innerJoin(users, eq(orders.userId, users.id))
    // `+status`: the partial index of donations walks them newest first; the status index would sort every paid order.
    .where(and(isNotNull(orders.donationTo), inArray(sql`+${orders.status}`, [...PAID])))
    .orderBy(desc(orders.orderDate), desc(orders.id))
    .limit(limit)
    .all();
  if (rows.length === 0) return [];
  const items = db
    .select({ orderId: orderItems.orderId, label: orderItems.productLabel, sizeLabel: orderItems.sizeLabel, quantity: orderItems.quantity })
    .from(orderItems)
    .where(
      inArray(
        orderItems.orderId,
        rows.map((row) => row.order.id),
      ),
    )
    .all();
  const labels = new Map<number, string[]>();
  for (const item of items) {
    const list = labels.get(item.orderId) ?? [];
    // The size donated (issue 38), as the order line kept it at the time of sale.
    const label = item.sizeLabel ? `${item.label} in size ${item.sizeLabel}` : item.label;
    list.push(item.quantity > 1 ? `${item.quantity} x ${label}` : label);
    labels.set(item.orderId, list);
  }
  return rows.map(({ order, username }) => ({
    kind: 'purchase',
    id: order.id,
    at: order.orderDate,
    product: (labels.get(order.id) ?? []).join('; '),
    donor: order.customerName || username,
    amount: centsToDollars(order.totalCents),
    charity: order.donationTo,
    handedOverAt: order.deliveredAt,
  }));
}

function prizeDonations(db: Queryable, charity: string | null, limit: number): DonationRow[] {
  return db
    .select({ game: games, product: products, username: users.username, fullName: users.fullName })
    .from(games)
    .innerJoin(products, eq(games.productId, products.id))
    .leftJoin(plays, eq(plays.id, games.winnerPlayId))
    .leftJoin(users, eq(users.id, plays.userId))
    .where(eq(games.prizeOutcome, 'donated'))
    .orderBy(desc(games.settledAt), desc(games.id))
    .limit(limit)
    .all()
    .map(({ game, product, username, fullName }) => ({
      kind: 'prize',
      id: game.id,
      at: game.prizeDonatedAt ?? game.settledAt ?? game.createdAt,
      product: `${productLabel(product)} (prize of game #${game.id})`,
      donor: fullName || username || 'A former player',
      amount: centsToDollars(product.priceCents),
      charity,
      handedOverAt: game.prizeHandedOverAt,
    }));
}

/** Purchases and prizes in one list, newest first (at most `limit`). */
export function listDonations(db: Queryable, charity: string | null, limit = DONATIONS_SHOWN): DonationRow[] {
  return [...purchaseDonations(db, limit), ...prizeDonations(db, charity, limit)].sort((a, b) => b.at - a.at || b.id - a.id).slice(0, limit);
}

/** A donated prize handed over to the charity: once (a second click, or another admin, changes nothing). */
export function markPrizeHandedOver(deps: { db: Db; clock: Clock }, gameId: number): void {
  const moved = deps.db
    .update(games)
    .set({ prizeHandedOverAt: deps.clock.now() })
    .where(and(eq(games.id, gameId), eq(games.prizeOutcome, 'donated'), isNull(games.prizeHandedOverAt)))
    .returning({ id: games.id })
    .get();
  if (moved) return;
  const game = deps.db.select({ outcome: games.prizeOutcome, at: games.prizeHandedOverAt }).from(games).where(eq(games.id, gameId)).get();
  if (game?.outcome !== 'donated') throw new DomainError(404, 'No donated prize was found for this game.');
  throw new DomainError(409, `The prize of game #${gameId} was already handed over.`);
}

const CSV_COLUMNS = ['Kind', 'Order or game', 'Date', 'Product', 'Donor', 'Amount', 'Charity', 'Handed over'];

/** The donation list as CSV, for the books and for the charity's receipts. */
export function donationsCsv(list: DonationRow[], formatTime: (ms: number) => string): string {
  const rows = list.map((row) =>
    [
      row.kind === 'purchase' ? 'Purchase' : 'Prize',
      row.kind === 'purchase' ? `Order #${row.id}` : `Game #${row.id}`,
      formatTime(row.at),
      row.product,
      row.donor,
      row.amount.toFixed(2),
      row.charity,
      row.handedOverAt === null ? 'No' : formatTime(row.handedOverAt),
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
