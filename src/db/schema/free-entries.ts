import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.ts';
import { products } from './catalog.ts';
import { plays } from './games.ts';
import { orderItems, orders } from './orders.ts';

/*
 * Buy one, play free (issue 29): each unit of a paid order of a buyOnePlayFreeEnabled product
 * gives its buyer one free game entry for 30 days. A free entry is a credit used instead of the
 * $1 hold (DESIGN section 5): no payment row, no gateway call.
 */

/** available (usable until expiresAt; shown as expired after it), used (by playId), withdrawn (its order was refunded or canceled). */
export const freeEntryStatuses = ['available', 'used', 'withdrawn'] as const;
export type FreeEntryStatus = (typeof freeEntryStatuses)[number];

export const freeEntries = sqliteTable(
  'free_entries',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The product bought (kept when it is deleted: the label stays on the order line). */
    productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    orderItemId: integer('order_item_id')
      .notNull()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    /** Which unit of the line (1..quantity): with the line, the key that grants each entry once whoever confirms the order. */
    unit: integer('unit').notNull(),
    status: text('status', { enum: freeEntryStatuses }).notNull().default('available'),
    grantedAt: integer('granted_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    /** The play it entered; cleared when that game was canceled and the entry given back. */
    playId: integer('play_id').references(() => plays.id, { onDelete: 'set null' }),
    usedAt: integer('used_at'),
    withdrawnAt: integer('withdrawn_at'),
  },
  (t) => [
    uniqueIndex('free_entries_line_unit_unique').on(t.orderItemId, t.unit),
    index('free_entries_user_idx').on(t.userId, t.status, t.expiresAt),
    index('free_entries_order_idx').on(t.orderId),
    index('free_entries_play_idx').on(t.playId),
  ],
);

export type FreeEntry = typeof freeEntries.$inferSelect;
