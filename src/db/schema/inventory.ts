import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { products } from './catalog.ts';

/*
 * The stock ledger (issue 34, item 3; domain/inventory/), kept the way Medusa's inventory module
 * keeps it: a stocked quantity per product and one reservation per hold, each with its reason and
 * its owner. For every product, stocked = available + held + sold, where available is
 * `products.quantity` (the denormalised count every listing already reads) and held and sold are
 * the sums of its reservations in those states.
 */

/** Every unit the store has had for sale, moved only by the admin's stock edits. */
export const stockLevels = sqliteTable('stock_levels', {
  productId: integer('product_id')
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  stocked: integer('stocked').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

export const reservationReasons = ['order_line', 'team_place', 'auction', 'prize', 'box_draw'] as const;
export type ReservationReason = (typeof reservationReasons)[number];

/** held: off the shelf, not paid yet. sold: paid for (or given away). released, returned: back on the shelf. */
export const reservationStates = ['held', 'sold', 'released', 'returned'] as const;
export type ReservationState = (typeof reservationStates)[number];

export const stockReservations = sqliteTable(
  'stock_reservations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    quantity: integer('quantity').notNull(),
    reason: text('reason', { enum: reservationReasons }).notNull(),
    /** Who holds it: 'order:{id}', 'team_member:{id}', 'auction:{id}', 'game:{id}'. */
    owner: text('owner').notNull(),
    /** The order that pays (or paid) for it, once there is one: its cancel or refund returns the units. */
    orderId: integer('order_id'),
    state: text('state', { enum: reservationStates }).notNull(),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('stock_reservations_owner_idx').on(t.owner, t.state),
    index('stock_reservations_order_idx').on(t.orderId, t.state),
    index('stock_reservations_product_idx').on(t.productId, t.state),
  ],
);
