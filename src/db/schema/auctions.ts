import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.ts';
import { products, productVariants } from './catalog.ts';

/*
 * Auctions (issue 28): one row per auction, and each bidder's secret maximums beside the public
 * `bids` history (catalog.ts), whose `amount_cents` stays the amount shown to everyone.
 */

/**
 * scheduled/running: open for bids between starts_at and ends_at. ended: sold and paid.
 * awaiting_payment: the winner's charge was declined, they have a while to fix the card.
 * second_chance: the runner-up is offered the item at their maximum. unsold, cancelled: over.
 */
export const auctionStatuses = ['scheduled', 'running', 'ended', 'unsold', 'cancelled', 'awaiting_payment', 'second_chance'] as const;
export type AuctionStatus = (typeof auctionStatuses)[number];
/** Open: taking bids, or about to (scheduled). */
export const OPEN_STATUSES: AuctionStatus[] = ['scheduled', 'running'];
/** Not over: the partial unique index allows one such auction per product (the catalogue checks it too, so it sits here). */
export const LIVE_STATUSES: AuctionStatus[] = ['scheduled', 'running', 'awaiting_payment', 'second_chance'];

export const auctions = sqliteTable(
  'auctions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The variant (size) it is for (issue 38). */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    startingBidCents: integer('starting_bid_cents').notNull(),
    /** Null: the price ladder decides the step (increments.ts). */
    incrementCents: integer('increment_cents'),
    /** Secret; null when there is none. */
    reserveCents: integer('reserve_cents'),
    startsAt: integer('starts_at').notNull(),
    /** Moves with soft close; the admin's own end stays in scheduled_end_at. */
    endsAt: integer('ends_at').notNull(),
    scheduledEndAt: integer('scheduled_end_at').notNull(),
    keepBuyNow: integer('keep_buy_now', { mode: 'boolean' }).notNull().default(false),
    status: text('status', { enum: auctionStatuses }).notNull().default('scheduled'),
    /** Denormalised from the maximums (proxy.ts standingOf) so reads need not replay them. */
    leaderId: integer('leader_id').references(() => users.id, { onDelete: 'set null' }),
    currentPriceCents: integer('current_price_cents'),
    /** The leader's maximum (secret): with the price and the leader, all a bid needs (proxy.ts decideBid). */
    leaderMaxCents: integer('leader_max_cents'),
    bidCount: integer('bid_count').notNull().default(0),
    reserveMet: integer('reserve_met', { mode: 'boolean' }).notNull().default(false),
    /** The close job's order for the winner (or the second-chance buyer). */
    winnerId: integer('winner_id').references(() => users.id, { onDelete: 'set null' }),
    winnerOrderId: integer('winner_order_id'),
    /** Until when the winner may fix a declined card, or the runner-up may take the offer. */
    paymentDueAt: integer('payment_due_at'),
    /**
     * A second-chance offer's price: the runner-up's maximum, secret to all but them (issue 36).
     * `current_price_cents` stays the public final bid meanwhile; it becomes this once they pay.
     */
    offerCents: integer('offer_cents'),
    /** Why the admin cancelled or ended it early (bidders are told). */
    reason: text('reason'),
    /** True while the product's unit is held back from Buy Now for this auction. */
    stockReserved: integer('stock_reserved', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    // One auction per product at a time: no second one while one is open or still being paid.
    uniqueIndex('auctions_one_open_per_product').on(t.productId).where(sql`status in ('scheduled', 'running', 'awaiting_payment', 'second_chance')`),
    // The close job (due ends) and /auctions (ending soonest) read by status and end.
    index('auctions_status_end_idx').on(t.status, t.endsAt),
    index('auctions_product_idx').on(t.productId, t.id),
    // The close job serves owed auctions by due time (issue 36).
    index('auctions_status_due_idx').on(t.status, t.paymentDueAt, t.id),
  ],
);

/** Every accepted maximum, in acceptance order (id): the proxy rule replays them (proxy.ts). */
export const auctionMaximums = sqliteTable(
  'auction_maximums',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    auctionId: integer('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    maxCents: integer('max_cents').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('auction_maximums_auction_idx').on(t.auctionId, t.id), index('auction_maximums_user_idx').on(t.userId, t.auctionId)],
);

/**
 * An unpaid auction on the winner's account (issue 36, eBay's unpaid item rule): one per auction
 * and winner. Two not lifted within 12 months and bids are refused; an admin may lift one
 * (`lifted_at`, `lifted_by`: who and when, as a refund keeps its admin).
 */
export const auctionStrikes = sqliteTable(
  'auction_strikes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    auctionId: integer('auction_id')
      .notNull()
      .references(() => auctions.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
    liftedAt: integer('lifted_at'),
    liftedBy: integer('lifted_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [uniqueIndex('auction_strikes_auction_user_idx').on(t.auctionId, t.userId), index('auction_strikes_user_idx').on(t.userId, t.createdAt)],
);

export type Auction = typeof auctions.$inferSelect;
export type AuctionStrike = typeof auctionStrikes.$inferSelect;
