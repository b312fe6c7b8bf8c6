import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { PRODUCT_TYPE_NAMES } from '../../shared/schemas/catalog.ts';
import { users } from './accounts.ts';
import { products, productVariants } from './catalog.ts';
import { orders } from './orders.ts';

/*
 * Mystery boxes (issue 29, item 2): one box per product type, the admin's price, the box's secret
 * seeds (commit and reveal: each seed's SHA-256 is public before it draws, and it draws once) and
 * the draws themselves with the stock they were drawn from, so anyone can recompute them.
 */

/** The admin's price of a type's box; no row: the box is not on sale yet. */
export const mysteryBoxes = sqliteTable('mystery_boxes', {
  productType: text('product_type', { enum: PRODUCT_TYPE_NAMES }).primaryKey(),
  priceCents: integer('price_cents').notNull(),
  updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * A box's seeds: the current one (used_at null, at most one per type) is committed by its hash;
 * a draw uses it and, in the same transaction, retires it and commits the next.
 */
export const mysterySeeds = sqliteTable(
  'mystery_seeds',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    productType: text('product_type', { enum: PRODUCT_TYPE_NAMES }).notNull(),
    /** 32 random bytes, hex: secret until the draw that uses it. */
    seed: text('seed').notNull(),
    seedHash: text('seed_hash').notNull(),
    committedAt: integer('committed_at').notNull(),
    usedAt: integer('used_at'),
  },
  (t) => [uniqueIndex('mystery_seeds_current').on(t.productType).where(sql`used_at is null`)],
);

/** One draw per box purchase attempt; a failed charge's draw stays as history, its unit back on the shelf. */
export const mysteryDraws = sqliteTable(
  'mystery_draws',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productType: text('product_type', { enum: PRODUCT_TYPE_NAMES }).notNull(),
    seedId: integer('seed_id')
      .notNull()
      .references(() => mysterySeeds.id),
    /** The product drawn (its label kept for history). */
    productId: integer('product_id').references(() => products.id, { onDelete: 'set null' }),
    productLabel: text('product_label').notNull(),
    /** The size the box was bought in (tees and shoes; '' for boxes without sizes): the draw is over that size's units. */
    size: text('size').notNull().default(''),
    /** The variant (size) it is for (issue 38). */
    variantId: integer('variant_id').references(() => productVariants.id, { onDelete: 'set null' }),
    priceCents: integer('price_cents').notNull(),
    /** The stock drawn from, JSON [[productId, units], ...] by product id: the draw's whole input besides the seed. */
    stock: text('stock').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('mystery_draws_order_idx').on(t.orderId), index('mystery_draws_type_idx').on(t.productType, t.id)],
);

export type MysteryDraw = typeof mysteryDraws.$inferSelect;
export type MysterySeed = typeof mysterySeeds.$inferSelect;
