import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './accounts.ts';
import { influencers, products, productVariants } from './catalog.ts';

/*
 * Games: the games played for a product, their plays, the metric snapshots they are scored on,
 * each settled game's frozen record, and each player's limits.
 */

/** Snapshots of each influencer's metrics per platform, so a settled game can be audited. */
export const influencerMetrics = sqliteTable(
  'influencer_metrics',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    influencerId: integer('influencer_id')
      .notNull()
      .references(() => influencers.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    /** Start of the minute the snapshot describes. */
    minuteAt: integer('minute_at').notNull(),
    followers: integer('followers').notNull(),
    engagement: real('engagement').notNull(),
    growth: real('growth').notNull(),
    posts: integer('posts').notNull(),
    points: real('points').notNull(),
    source: text('source').notNull(),
    takenAt: integer('taken_at').notNull(),
  },
  (t) => [uniqueIndex('influencer_metrics_unique').on(t.influencerId, t.platform, t.minuteAt), index('influencer_metrics_minute_idx').on(t.minuteAt)],
);

export const metricsSourceNames = ['simulated', 'feed'] as const;
export type MetricsSourceName = (typeof metricsSourceNames)[number];
export const gameStatuses = ['waiting', 'active', 'completed', 'canceled'] as const;
/**
 * 'unclaimed' (won, not in the cart), 'cart', 'buying' (a checkout holding it is being paid),
 * 'bought', 'donated', 'expired' (not claimed in time; the reserved unit went back to stock).
 */
export const prizeOutcomes = ['unclaimed', 'cart', 'buying', 'bought', 'donated', 'expired'] as const;
export type PrizeOutcome = (typeof prizeOutcomes)[number];
export type GameStatus = (typeof gameStatuses)[number];

export const games = sqliteTable(
  'games',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The variant (size) it is for (issue 38). */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    status: text('status', { enum: gameStatuses }).notNull().default('waiting'),
    requiredParticipants: integer('required_participants').notNull(),
    startTime: integer('start_time'),
    endTime: integer('end_time'),
    winnerPlayId: integer('winner_play_id'),
    /**
     * The prize's state: 'cart' (waiting in the winner's cart), 'buying' (a checkout holding it
     * is being paid), 'bought', or 'donated'. Each move is a conditional UPDATE, so buying and
     * donating exclude each other and each happens at most once.
     */
    prizeOutcome: text('prize_outcome', { enum: prizeOutcomes }),
    /** When the winner was reminded that an unclaimed prize is about to go back to stock. */
    prizeRemindedAt: integer('prize_reminded_at'),
    /** When the winner donated the prize from My Games (a donation chosen before playing dates from settlement). */
    prizeDonatedAt: integer('prize_donated_at'),
    /** When an admin handed a donated prize over to the charity partner (admin Promotions tab, Donations). */
    prizeHandedOverAt: integer('prize_handed_over_at'),
    createdAt: integer('created_at').notNull(),
    settledAt: integer('settled_at'),
    canceledAt: integer('canceled_at'),
    /** Why a game was canceled, in words a player reads. */
    cancelReason: text('cancel_reason'),
    /** 'simulated' or 'feed': where this game's metrics come from, fixed when it opens. */
    metricsSource: text('metrics_source', { enum: metricsSourceNames }).notNull().default('simulated'),
    /** Commit and reveal: 32 random bytes (hex) drawn when the game opens, secret until it is over. */
    seed: text('seed'),
    /** Hex SHA-256 of the seed's 32 bytes, public from the start. */
    seedHash: text('seed_hash'),
    /** Each picked influencer's platforms and engagement, frozen when the game starts. */
    calibration: text('calibration', { mode: 'json' }).$type<Record<string, InfluencerCalibration>>(),
  },
  (t) => [
    index('games_product_status_idx').on(t.productId, t.status),
    // A game is for one size: the entry path looks for the size's waiting game with room.
    index('games_variant_status_idx').on(t.variantId, t.status),
    index('games_status_idx').on(t.status, t.endTime),
    index('games_settled_idx').on(t.settledAt),
    index('games_prize_donated_idx').on(t.settledAt).where(sql`prize_outcome = 'donated'`),
  ],
);

/** What scoring needs to know of an influencer; frozen per game so later edits change nothing. */
export interface InfluencerCalibration {
  name: string;
  handle: string;
  platforms: Record<string, string>;
  engagementRate: number;
}

/**
 * The frozen scoring record of a settled game (see GameRecord in domain/games/record.ts). No
 * foreign key: it outlives its product, and no retention job touches it.
 */
export const gameRecords = sqliteTable('game_records', {
  gameId: integer('game_id').primaryKey(),
  productId: integer('product_id').notNull(),
  record: text('record', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
  createdAt: integer('created_at').notNull(),
});

/** Responsible play: 18+ and rules consent, a daily entry limit, self-exclusion. */
export const playerSettings = sqliteTable('player_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  consentedAt: integer('consented_at'),
  dailyEntryLimit: integer('daily_entry_limit'),
  excludedUntil: integer('excluded_until'),
  exclusionPeriod: text('exclusion_period'),
  /** A raised limit waits a day (a lowered one applies at once): the new limit and when it starts. */
  pendingDailyEntryLimit: integer('pending_daily_entry_limit'),
  pendingLimitFrom: integer('pending_limit_from'),
  /** The keyed hash of the saved card's gateway fingerprint (play-exclusions.ts), so an exclusion can follow the card. */
  cardFingerprintHash: text('card_fingerprint_hash'),
  updatedAt: integer('updated_at').notNull(),
});

/** pending: picked, not paid; authorizing: its $1 hold is being asked for; entered; void. */
export const playStatuses = ['pending', 'authorizing', 'entered', 'void'] as const;

export const plays = sqliteTable(
  'plays',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** JSON array of influencer ids as strings, as the spec's client sends them. */
    influencerIds: text('influencer_ids', { mode: 'json' }).$type<string[]>().notNull(),
    /** pending until its $1 authorization succeeds; void when it never did. */
    status: text('status', { enum: playStatuses }).notNull().default('pending'),
    score: real('score'),
    /** The player's answer before paying: a win goes to charity (prizes are delivered in 92651 only). */
    donateIfWon: integer('donate_if_won', { mode: 'boolean' }).notNull().default(false),
    enteredAt: integer('entered_at'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('plays_game_user_unique').on(t.gameId, t.userId),
    index('plays_user_idx').on(t.userId, t.createdAt),
    index('plays_game_status_idx').on(t.gameId, t.status),
    index('plays_status_created_idx').on(t.status, t.createdAt),
  ],
);

export type Game = typeof games.$inferSelect;
export type Play = typeof plays.$inferSelect;
