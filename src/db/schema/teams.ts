import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.ts';
import { products, productVariants } from './catalog.ts';
import { orders } from './orders.ts';
import { payments } from './payments.ts';

/*
 * Team buys ('Half price with a friend', issue 29 item 1): a team of two shoppers who each pay
 * half the price (plus tax) for their own unit. Each member's card is held (authorized) when
 * they take their place; both holds are captured once the team is full, or the starter's is
 * voided when nobody joined within 24 hours (domain/promotions/teams*.ts).
 */

/**
 * starting: the starter's hold is being asked for. open: waiting for a friend (listed, joinable).
 * joining: a second shopper's hold is being asked for (one at a time: the place is claimed).
 * capturing: full, both holds are being captured. filled: both paid, each has their order.
 * expired: nobody joined in time, the hold was voided. cancelled: the starter's hold was refused.
 */
export const teamStatuses = ['starting', 'open', 'joining', 'capturing', 'filled', 'expired', 'cancelled'] as const;
export type TeamStatus = (typeof teamStatuses)[number];
/** A shopper has at most one team per product in these states. */
export const OPEN_TEAM_STATUSES = ['starting', 'open', 'joining'] as const;

export const teams = sqliteTable(
  'teams',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** The share link's code (/team/{code}): random, not guessable from ids. */
    code: text('code').notNull().unique(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The variant (size) it is for (issue 38). */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    starterId: integer('starter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: teamStatuses }).notNull(),
    /** Each member's share: half the price (half cents rounded up), its 8% tax, and the hold (both). */
    priceCents: integer('price_cents').notNull(),
    taxCents: integer('tax_cents').notNull(),
    holdCents: integer('hold_cents').notNull(),
    /** How many members a full team has (2). */
    size: integer('size').notNull().default(2),
    expiresAt: integer('expires_at').notNull(),
    filledAt: integer('filled_at'),
    endedAt: integer('ended_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('teams_one_open_per_starter').on(t.productId, t.starterId).where(sql`status in ('starting', 'open', 'joining')`),
    index('teams_status_expires_idx').on(t.status, t.expiresAt),
    index('teams_product_status_idx').on(t.productId, t.status),
  ],
);

/**
 * holding: their hold is being asked for (their unit is taken). held: authorized. paid: captured,
 * their order made. released: the hold failed or was voided, their unit is back on the shelf.
 */
export const teamMemberStatuses = ['holding', 'held', 'paid', 'released'] as const;

export const teamMembers = sqliteTable(
  'team_members',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    teamId: integer('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['starter', 'joiner'] }).notNull(),
    status: text('status', { enum: teamMemberStatuses }).notNull(),
    /** The hold (payments kind 'team_authorization'; the order's charge once captured). */
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('team_members_team_idx').on(t.teamId, t.status),
    index('team_members_payment_idx').on(t.paymentId),
    index('team_members_user_idx').on(t.userId),
  ],
);

export type Team = typeof teams.$inferSelect;
export type TeamMember = typeof teamMembers.$inferSelect;
