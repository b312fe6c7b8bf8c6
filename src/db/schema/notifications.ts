import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { NOTIFICATION_TYPES } from '../../shared/views/notifications.ts';
import { users } from './accounts.ts';

/*
 * What a user is told: the notifications shown on the site and the e-mail outbox.
 */

export const notificationTypes = NOTIFICATION_TYPES;

export const notifications = sqliteTable(
  'notifications',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: notificationTypes }).notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    actionUrl: text('action_url'),
    actionText: text('action_text'),
    productId: integer('product_id'),
    gameId: integer('game_id'),
    read: integer('read', { mode: 'boolean' }).notNull().default(false),
    /** What happened ('order:12:paid'): one notification per event and user, however often it is told. */
    eventKey: text('event_key'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('notifications_user_idx').on(t.userId, t.createdAt), uniqueIndex('notifications_event_unique').on(t.userId, t.eventKey)],
);

export const emailKinds = [
  'order_confirmation',
  'order_refund',
  'order_delivered',
  'game_won',
  'prize_reminder',
  'prize_returned',
  'password_reset',
  'email_change',
  'account_unlock',
  'business_application',
  'auction_outbid',
  'auction_result',
  'team_update',
] as const;
export type EmailKind = (typeof emailKinds)[number];
/**
 * pending: waiting to be sent (the backlog). sent. failed: given up after retries. skipped: the
 * profile turned such messages off. mail_off: queued while MAIL=off, never sent. expired: its
 * link stopped working before it could be sent.
 */
export const emailStatuses = ['pending', 'sent', 'failed', 'skipped', 'mail_off', 'expired'] as const;
export type EmailStatus = (typeof emailStatuses)[number];

/**
 * The e-mail outbox: a message is written in the transaction of the change it reports and
 * sent (and retried) by the mail job (domain/mail/). Links in the bodies are relative to
 * PUBLIC_URL until they are sent. A message is kept RETENTION_MAIL_DAYS, a single-use link no
 * longer than it works (domain/mail/retention.ts).
 */
export const emailOutbox = sqliteTable(
  'email_outbox',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    toAddress: text('to_address').notNull(),
    kind: text('kind', { enum: emailKinds }).notNull(),
    /** What happened ('order:12:paid'): one message per event, however often a step runs. */
    eventKey: text('event_key').notNull().unique(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    status: text('status', { enum: emailStatuses }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at'),
    lastError: text('last_error'),
    /** The SMTP message id, or the .eml file name. */
    messageId: text('message_id'),
    createdAt: integer('created_at').notNull(),
    sentAt: integer('sent_at'),
    /**
     * When the single-use link in the body stops working (reset, unlock, e-mail confirmation);
     * null once the body no longer holds one (sent, given up, expired).
     */
    linkExpiresAt: integer('link_expires_at'),
  },
  (t) => [
    index('email_outbox_status_idx').on(t.status, t.nextAttemptAt),
    index('email_outbox_user_idx').on(t.userId),
    // The retention job's next batch, without reading old rows: by age, and the few live links.
    index('email_outbox_created_idx').on(t.createdAt),
    index('email_outbox_link_idx').on(t.linkExpiresAt).where(sql`link_expires_at is not null`),
  ],
);
