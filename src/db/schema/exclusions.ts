import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

/*
 * Self-exclusion that follows the person (domain/accounts/play-exclusions.ts): the e-mail, phone
 * and card of a player who excluded themselves, as keyed hashes only, with no link to the
 * account, so the record outlives a deleted account and says nothing readable about anyone.
 */

export const exclusionIdentifierKinds = ['email', 'phone', 'card'] as const;

export const playExclusions = sqliteTable(
  'play_exclusions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    kind: text('kind', { enum: exclusionIdentifierKinds }).notNull(),
    /** HMAC-SHA256 of the normalized identifier under the store's own key (app_settings). */
    identifierHash: text('identifier_hash').notNull(),
    excludedUntil: integer('excluded_until').notNull(),
    exclusionPeriod: text('exclusion_period').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [uniqueIndex('play_exclusions_identifier_idx').on(t.kind, t.identifierHash), index('play_exclusions_until_idx').on(t.excludedUntil)],
);
