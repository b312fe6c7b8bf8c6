import { desc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { mysteryDraws, mysterySeeds, orders, users } from '../../db/schema.ts';
import { csvCell } from '../../shared/csv.ts';
import { boxName } from './mystery-boxes.ts';

/*
 * The admin's view of mystery box draws (Promotions tab): every draw with its order, newest
 * first, and the same list as CSV. A declined card's draw stays listed with its failed order,
 * so the list is the whole history of every seed used.
 */

export interface BoxDrawRow {
  id: number;
  orderId: number;
  orderStatus: string;
  buyer: string;
  box: string;
  productId: number | null;
  productLabel: string;
  /** The size bought ('' for a box without sizes). */
  size: string;
  priceCents: number;
  seedHash: string;
  drawnAt: number;
}

export function listBoxDraws(db: Queryable, limit?: number): BoxDrawRow[] {
  const query = db
    .select({ draw: mysteryDraws, status: orders.status, buyer: users.username, seedHash: mysterySeeds.seedHash })
    .from(mysteryDraws)
    .innerJoin(orders, eq(orders.id, mysteryDraws.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(mysterySeeds, eq(mysterySeeds.id, mysteryDraws.seedId))
    .orderBy(desc(mysteryDraws.id));
  const rows = limit === undefined ? query.all() : query.limit(limit).all();
  return rows.map(({ draw, status, buyer, seedHash }) => ({
    id: draw.id,
    orderId: draw.orderId,
    orderStatus: status,
    buyer,
    box: boxName(draw.productType),
    productId: draw.productId,
    productLabel: draw.productLabel,
    size: draw.size,
    priceCents: draw.priceCents,
    seedHash,
    drawnAt: draw.createdAt,
  }));
}

const COLUMNS = ['Draw', 'Drawn at', 'Order', 'Order status', 'Buyer', 'Box', 'Box price', 'Product id', 'Product', 'Seed hash', 'Size'];

export function boxDrawsCsv(rows: BoxDrawRow[], formatTime: (ms: number) => string): string {
  const lines = rows.map((row) =>
    [
      row.id,
      formatTime(row.drawnAt),
      row.orderId,
      row.orderStatus,
      row.buyer,
      row.box,
      (row.priceCents / 100).toFixed(2),
      row.productId,
      row.productLabel,
      row.seedHash,
      // Last, so a sheet built on the columns before issue 38 still reads them where they were.
      row.size,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
}
