import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { accountTokens, cartItems, emailOutbox, games, notifications, orders, playerSettings, plays, sessions, userProfiles, users } from '../../db/schema.ts';
import type { PasswordHasher } from './passwords.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { keepExclusionWithIdentifiers } from './responsible-play.ts';

/*
 * The California rights the account page serves: deletion here, and a copy of everything the
 * store holds about the account (flows/export-account.ts, which reads orders and free entries too). A deleted account keeps its row (orders point at it and are kept
 * for the books) with every personal field erased; its orders keep amounts, items and the
 * city, state and ZIP the tax was charged for, and lose the name, e-mail, phone and street.
 * A self-exclusion still running is kept as keyed hashes of the e-mail, phone and card, with no
 * link to the account, until it ends (games/play-exclusions.ts).
 */

/**
 * The first checks of POST /api/user/delete (flows/end-account.ts): the account and its password.
 * Answers the unusable password hash the erased account gets.
 */
export async function checkAccountDeletion(deps: { db: Db; passwords: PasswordHasher }, userId: number, password: string): Promise<string> {
  const { db, passwords } = deps;
  const user = db.select().from(users).where(eq(users.id, userId)).get();
  if (!user || user.deletedAt !== null) throw new DomainError(404, 'Account not found');
  if (!(await passwords.verify(password, user.passwordHash))) {
    throw new DomainError(400, 'Your password is not right.', { password: 'Your password is not right.' });
  }
  if (user.isAdmin) throw new DomainError(409, 'Admin accounts cannot be deleted here. Ask another admin to remove the admin role first.');
  // Nobody can sign in with it again: a hash of random bytes nobody knows.
  return passwords.hash(crypto.randomUUID() + crypto.randomUUID());
}

/** Refuses while an order is on its way or a game holds $1 of the account; in the deleting transaction. */
export function refuseOpenPurchases(db: Queryable, userId: number): void {
  const openOrder = db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, ['pending', 'processing', 'shipped'])))
    .get();
  if (openOrder) {
    throw new DomainError(409, `Order #${openOrder.id} is not delivered yet. You can delete your account once it has been delivered or canceled.`);
  }
  const openPlay = db
    .select({ id: plays.id })
    .from(plays)
    .innerJoin(games, eq(plays.gameId, games.id))
    .where(and(eq(plays.userId, userId), inArray(plays.status, ['pending', 'authorizing', 'entered']), inArray(games.status, ['waiting', 'active'])))
    .get();
  if (openPlay) throw new DomainError(409, 'You have a game in progress with a $1 hold. You can delete your account once it has ended.');
}

/** Erases the account in the caller's transaction, once what was open on it has ended. */
export function eraseAccountIn(tx: Queryable, clock: Clock, userId: number, unusable: string): void {
  const now = clock.now();
  const user = tx.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)).get();
  // A second request of the same person got here first.
  if (!user || user.deletedAt !== null) throw new DomainError(404, 'Account not found');
  // A running self-exclusion outlives the account, by its e-mail, phone and card (hashed).
  keepExclusionWithIdentifiers(tx, clock, userId);
  tx.delete(sessions).where(eq(sessions.userId, userId)).run();
  tx.delete(accountTokens).where(eq(accountTokens.userId, userId)).run();
  tx.delete(cartItems).where(eq(cartItems.userId, userId)).run();
  tx.delete(notifications).where(eq(notifications.userId, userId)).run();
  tx.delete(emailOutbox).where(eq(emailOutbox.userId, userId)).run();
  tx.delete(userProfiles).where(eq(userProfiles.userId, userId)).run();
  tx.delete(playerSettings).where(eq(playerSettings.userId, userId)).run();
  tx.update(orders)
    .set({ customerName: null, customerEmail: null, customerPhone: null, shippingAddress: null, notes: null, updatedAt: now })
    .where(eq(orders.userId, userId))
    .run();
  tx.update(users)
    .set({
      username: `deleted-${userId}`,
      passwordHash: unusable,
      email: null,
      fullName: null,
      phoneNumber: null,
      address: null,
      city: null,
      state: null,
      zipCode: null,
      country: null,
      profileImage: null,
      deletedAt: now,
    })
    .where(eq(users.id, userId))
    .run();
}
