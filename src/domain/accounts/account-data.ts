import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db, Queryable } from '../../db/client.ts';
import { accountTokens, cartItems, emailOutbox, games, notifications, orders, playerSettings, plays, sessions, userProfiles, users } from '../../db/schema.ts';
import type { PasswordHasher } from './passwords.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { notificationView } from './notifications.ts';
import { orderView } from '../orders/order-views.ts';
import { findProfile, profileView } from './profile.ts';
import { keepExclusionWithIdentifiers } from './responsible-play.ts';
import { userFreeEntries } from '../promotions/free-entries-views.ts';

/*
 * The California rights the account page serves: a copy of everything the store holds about
 * the account, and deletion. A deleted account keeps its row (orders point at it and are kept
 * for the books) with every personal field erased; its orders keep amounts, items and the
 * city, state and ZIP the tax was charged for, and lose the name, e-mail, phone and street.
 * A self-exclusion still running is kept as keyed hashes of the e-mail, phone and card, with no
 * link to the account, until it ends (games/play-exclusions.ts).
 */

/** GET /api/user/export: profile, orders with items, plays, free game entries, notifications and cart; no secrets. */
export function exportAccountData(db: Queryable, userId: number, now: number) {
  const user = db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw new DomainError(404, 'Account not found');
  const profile = profileView(findProfile(db, userId));
  return {
    exportedAt: new Date(now).toISOString(),
    account: { id: user.id, username: user.username, email: user.email, createdAt: new Date(user.createdAt).toISOString(), isAdmin: user.isAdmin },
    profile: { ...profile, paymentMethod: profile.paymentMethod ? { ...profile.paymentMethod, sourceId: undefined, token: undefined } : profile.paymentMethod },
    orders: db
      .select()
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(desc(orders.orderDate))
      .all()
      .map((order) => {
        const { paymentId: _gatewayId, ...view } = orderView(db, order);
        return { ...view, customerEmail: order.customerEmail, customerPhone: order.customerPhone };
      }),
    plays: db
      .select({ play: plays, gameStatus: games.status })
      .from(plays)
      .leftJoin(games, eq(plays.gameId, games.id))
      .where(eq(plays.userId, userId))
      .orderBy(desc(plays.createdAt))
      .all()
      .map(({ play, gameStatus }) => ({
        id: play.id,
        productId: play.productId,
        gameId: play.gameId,
        gameStatus,
        influencerIds: play.influencerIds,
        status: play.status,
        score: play.score,
        createdAt: new Date(play.createdAt).toISOString(),
      })),
    freeEntries: userFreeEntries(db, userId, now),
    notifications: db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(desc(notifications.createdAt)).all().map(notificationView),
    cart: db
      .select()
      .from(cartItems)
      .where(eq(cartItems.userId, userId))
      .all()
      .map((line) => ({ productId: line.productId, quantity: line.quantity, type: line.type })),
  };
}

/** POST /api/user/delete: with the password, once nothing is in flight (an order to deliver, a game with a hold). */
export async function deleteAccount(deps: { db: Db; clock: Clock; passwords: PasswordHasher }, userId: number, password: string): Promise<void> {
  const { db, clock, passwords } = deps;
  const user = db.select().from(users).where(eq(users.id, userId)).get();
  if (!user || user.deletedAt !== null) throw new DomainError(404, 'Account not found');
  if (!(await passwords.verify(password, user.passwordHash))) {
    throw new DomainError(400, 'Your password is not right.', { password: 'Your password is not right.' });
  }
  if (user.isAdmin) throw new DomainError(409, 'Admin accounts cannot be deleted here. Ask another admin to remove the admin role first.');
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
  // Nobody can sign in with it again: a hash of random bytes nobody knows.
  const unusable = await passwords.hash(crypto.randomUUID() + crypto.randomUUID());
  const now = clock.now();
  db.transaction((tx) => {
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
  });
}
