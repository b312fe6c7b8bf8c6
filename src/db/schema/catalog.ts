import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { PRODUCT_TYPE_NAMES } from '../../shared/schemas/catalog.ts';
import { users } from './accounts.ts';

/*
 * The catalog: products (and the bids on them) and the influencers a game's players pick from.
 */

export const productTypes = PRODUCT_TYPE_NAMES;
export type ProductType = (typeof productTypes)[number];

export const products = sqliteTable(
  'products',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productType: text('product_type', { enum: productTypes }).notNull().default('sunglasses'),
    /** The shop's name for it ('Wayfarer Classic'); the title when present, else brand and SKU. */
    name: text('name'),
    /** For books: the book's name. */
    brand: text('brand').notNull(),
    /** The SKU. */
    model: text('model').notNull(),
    /** For books: the page count. */
    size: text('size').notNull().default(''),
    quantity: integer('quantity').notNull().default(0),
    priceCents: integer('price_cents').notNull(),
    imageUrl: text('image_url').notNull().default(''),
    /** May carry the 'BADGE:{text};;' or 'AUTHOR:{author};;' marker. */
    description: text('description'),
    buyNowEnabled: integer('buy_now_enabled', { mode: 'boolean' }).notNull().default(true),
    bidEnabled: integer('bid_enabled', { mode: 'boolean' }).notNull().default(false),
    playEnabled: integer('play_enabled', { mode: 'boolean' }).notNull().default(false),
    halfPriceEnabled: integer('half_price_enabled', { mode: 'boolean' }).notNull().default(false),
    mysteryBoxEnabled: integer('mystery_box_enabled', { mode: 'boolean' }).notNull().default(false),
    buyOnePlayFreeEnabled: integer('buy_one_play_free_enabled', { mode: 'boolean' }).notNull().default(false),
    donateEnabled: integer('donate_enabled', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    /** Archived instead of deleted once it has orders or games: out of the shop, its history kept. */
    archivedAt: integer('archived_at'),
  },
  (t) => [
    index('products_type_idx').on(t.productType, t.id),
    // The home galleries and the 'Newest' sort read a type newest first without sorting.
    index('products_type_newest_idx').on(t.productType, t.createdAt, t.id),
    // The mystery boxes' contents, read on every /mystery visit and in each draw: only the flagged few.
    index('products_mystery_idx').on(t.productType, t.id).where(sql`mystery_box_enabled = 1 and archived_at is null`),
  ],
);

/**
 * What is sold: each product has one variant or more (a size, optionally a colour and its own
 * price), and stock belongs to the variant (issue 38). `quantity` is the available count and
 * `stocked` every unit the store has had, both written only by domain/inventory/; the product's
 * `quantity` is their sum and its `size` the sizes joined, kept beside them for the listings.
 * A product gets its first variant when it is inserted (trigger in migration 0027).
 */
export const productVariants = sqliteTable(
  'product_variants',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    sku: text('sku').notNull(),
    /** 'M', '10.5', or for books the page count (what `products.size` held before variants). */
    size: text('size').notNull().default(''),
    colour: text('colour'),
    /** Null: the product's price. */
    priceCents: integer('price_cents'),
    quantity: integer('quantity').notNull().default(0),
    stocked: integer('stocked').notNull().default(0),
    /** The picker's order (S before M before L). */
    position: integer('position').notNull().default(0),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('product_variants_product_idx').on(t.productId, t.position, t.id)],
);

/** The public bid history: each row a bid shown at an amount (the secret maximums are in auction_maximums). */
export const bids = sqliteTable(
  'bids',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    createdAt: integer('created_at').notNull(),
    /** The auction it belongs to (no foreign key: auctions.ts imports this file). */
    auctionId: integer('auction_id'),
    /** Placed by the store for its bidder up to their maximum (proxy bidding). */
    proxy: integer('proxy', { mode: 'boolean' }).notNull().default(false),
  },
  (t) => [index('bids_auction_idx').on(t.auctionId, t.id), index('bids_user_idx').on(t.userId, t.auctionId)],
);

export const influencers = sqliteTable('influencers', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
  handle: text('handle').notNull().unique(),
  avatar: text('avatar').notNull().default(''),
  /** JSON map of platform to followers text ('2.4M'). */
  platforms: text('platforms', { mode: 'json' }).$type<Record<string, string>>().notNull(),
  /** Percent; calibrates the simulated metrics. */
  engagementRate: real('engagement_rate').notNull().default(2),
  category: text('category').notNull().default(''),
  /** Last computed overall score, for listing. */
  score: real('score').notNull().default(0),
  createdAt: integer('created_at').notNull(),
  /** A retired influencer can no longer be picked; past games keep it. */
  retiredAt: integer('retired_at'),
});

export type Product = typeof products.$inferSelect;
export type Influencer = typeof influencers.$inferSelect;
