import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { products, productVariants } from './catalog.ts';

/*
 * The stock ledger (issue 34, item 3; domain/inventory/), kept the way Medusa's inventory module
 * keeps it: a stocked quantity per variant (product_variants.stocked) and one reservation per
 * hold, each with its reason and its owner. For every variant, stocked = available + held + sold,
 * where available is `product_variants.quantity` and held and sold are the sums of its
 * reservations in those states; `products.quantity` is the sum of its variants' available counts.
 */

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
    /** Always written (every product has a variant); null only once a removed variant's history is kept. */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
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
    index('stock_reservations_variant_idx').on(t.variantId, t.state),
  ],
);
