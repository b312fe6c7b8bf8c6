import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.ts';
import { orders } from './orders.ts';
import { payments } from './payments.ts';

/*
 * After the sale: a refund an admin gives on a delivered or shipped order (full or part),
 * with the reason the shopper is shown. The money itself moves through its `payments` row
 * (kind 'refund', the same claim -> call -> confirm states as every refund); this row says why
 * and who, and is what tells the reconciler the refund is not a cancellation.
 */

export const orderRefunds = sqliteTable(
  'order_refunds',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    reason: text('reason').notNull(),
    adminId: integer('admin_id').references(() => users.id, { onDelete: 'set null' }),
    /** The admin form's one-time key: the same form sent twice gives one refund. */
    requestKey: text('request_key'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    index('order_refunds_order_idx').on(t.orderId),
    uniqueIndex('order_refunds_payment_unique').on(t.paymentId),
    uniqueIndex('order_refunds_request_key_unique').on(t.orderId, t.requestKey),
  ],
);
