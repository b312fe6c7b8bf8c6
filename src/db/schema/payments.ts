import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.ts';
import { plays } from './games.ts';
import { orders } from './orders.ts';

/*
 * Payments: every call to the card gateway (a play's $1 hold, an order's charge, a refund) and
 * where it stands.
 */

export const paymentKinds = ['play_authorization', 'order_charge', 'refund', 'team_authorization'] as const;
/**
 * In-between states are written with the idempotency key before the gateway is called, and
 * left in place when the answer is unknown; the reconciler asks the gateway for the truth.
 * Terminal: captured, voided, failed, refunded, and capture_failed / void_failed / expired for
 * holds the gateway would no longer move (an admin sees them).
 */
export const inBetweenPaymentStatuses = ['charging', 'authorizing', 'capturing', 'voiding', 'refunding'] as const;
export const paymentStatuses = [
  ...inBetweenPaymentStatuses,
  'authorized',
  'captured',
  'voided',
  'failed',
  'refunded',
  'capture_failed',
  'void_failed',
  'expired',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const payments = sqliteTable(
  'payments',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: paymentKinds }).notNull(),
    status: text('status', { enum: paymentStatuses }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    playId: integer('play_id').references(() => plays.id, { onDelete: 'set null' }),
    gateway: text('gateway').notNull(),
    /** The gateway's payment (a refund row: its refund). One gateway payment pays one row: unique where set. */
    gatewayPaymentId: text('gateway_payment_id'),
    /** `{installation prefix}-{kind}-{row id}` (domain/payments/keys.ts), so a retried call never charges twice. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    errorCode: text('error_code'),
    /** The gateway's words for the last failure, for the admin. */
    errorDetail: text('error_detail'),
    /** Gateway calls made for the in-between state; bounded for captures and voids. */
    attempts: integer('attempts').notNull().default(0),
    /** The reconciler leaves the row alone until then (a lease while a call is made, then backoff). */
    nextAttemptAt: integer('next_attempt_at'),
    /** When an admin looked at a payment that needed attention and settled it. */
    reviewedAt: integer('reviewed_at'),
    /** What an admin decided and why (a payment marked paid against another reference), shown with the order. */
    reviewNote: text('review_note'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('payments_play_idx').on(t.playId),
    index('payments_order_idx').on(t.orderId),
    index('payments_status_idx').on(t.status, t.nextAttemptAt),
    uniqueIndex('payments_gateway_payment_unique').on(t.gatewayPaymentId),
  ],
);
