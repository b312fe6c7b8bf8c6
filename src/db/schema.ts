/*
 * The whole data model: every entity of spec section 3 plus DESIGN section 3's additions.
 * Money is integer cents (`*Cents`), time is epoch milliseconds UTC (`*At`, `*Time`).
 *
 * The tables live by area in src/db/schema/, each file small enough to read in one sitting;
 * this file stays the one import path (the app, the tests and drizzle-kit all read it), so
 * code imports from here and never from an area file.
 */

export * from './schema/accounts.ts';
export * from './schema/aftersale.ts';
export * from './schema/auctions.ts';
export * from './schema/catalog.ts';
export * from './schema/exclusions.ts';
export * from './schema/free-entries.ts';
export * from './schema/games.ts';
export * from './schema/inventory.ts';
export * from './schema/mystery-boxes.ts';
export * from './schema/notifications.ts';
export * from './schema/operations.ts';
export * from './schema/orders.ts';
export * from './schema/payments.ts';
export * from './schema/signups.ts';
export * from './schema/teams.ts';
