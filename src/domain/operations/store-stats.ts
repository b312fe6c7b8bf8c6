import { count, inArray } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { games, gameStatuses, inBetweenPaymentStatuses, orderStatuses, orders, payments } from '../../db/schema.ts';

/** What /metrics reports about the store's rows: how many orders, payments and games are in each state. */
export interface StoreCounts {
  ordersByStatus: { status: string; count: number }[];
  paymentsByKindAndStatus: { kind: string; status: string; count: number }[];
  gamesByStatus: { status: string; count: number }[];
  /** Payments in an in-between state: calls in flight, or outcomes the reconciler still has to find out. */
  reconcilerBacklog: number;
}

export function storeCounts(db: Queryable): StoreCounts {
  const ordersByStatus = db.select({ status: orders.status, count: count() }).from(orders).groupBy(orders.status).all();
  const paymentsByKindAndStatus = db
    .select({ kind: payments.kind, status: payments.status, count: count() })
    .from(payments)
    .groupBy(payments.kind, payments.status)
    .all();
  const gamesByStatus = db.select({ status: games.status, count: count() }).from(games).groupBy(games.status).all();
  const backlog = db
    .select({ count: count() })
    .from(payments)
    .where(inArray(payments.status, [...inBetweenPaymentStatuses]))
    .get();
  return {
    ordersByStatus: everyState(orderStatuses, ordersByStatus),
    paymentsByKindAndStatus,
    gamesByStatus: everyState(gameStatuses, gamesByStatus),
    reconcilerBacklog: backlog?.count ?? 0,
  };
}

/** Every known state, 0 when no row has it: a series that appears only once it is non-zero breaks alerts. */
function everyState(states: readonly string[], rows: { status: string; count: number }[]): { status: string; count: number }[] {
  const counted = new Map(rows.map((row) => [row.status, row.count]));
  return states.map((status) => ({ status, count: counted.get(status) ?? 0 }));
}
