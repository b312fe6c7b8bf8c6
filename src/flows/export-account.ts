import { desc, eq } from 'drizzle-orm';
import type { Queryable } from '../db/client.ts';
import { cartItems, games, notifications, orders, plays, users } from '../db/schema.ts';
import { notificationView } from '../domain/accounts/notifications.ts';
import { findProfile, profileView } from '../domain/accounts/profile.ts';
import { DomainError } from '../domain/errors.ts';
import { orderView } from '../domain/orders/order-views.ts';
import { userFreeEntries } from '../domain/promotions/free-entries-views.ts';

/*
 * The California right to a copy (account page): everything the store holds about the account,
 * read from the areas that own it (accounts, orders, games, promotions), so it lives above them.
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
