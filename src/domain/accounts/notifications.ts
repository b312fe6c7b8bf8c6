import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { notifications } from '../../db/schema.ts';
import type { NotificationType, NotificationView } from '../../shared/views/notifications.ts';
import type { Clock } from '../clock.ts';

/** The spec keeps the latest 50 per user in view. */
export const NOTIFICATION_LIMIT = 50;

export type { NotificationType, NotificationView };

export interface NewNotification {
  type: NotificationType;
  /**
   * What happened ('order:12:paid'). A notification with a key is written once per user and
   * key, so a step that runs again (a retry, the reconciler after a crash) never tells twice.
   */
  eventKey?: string;
  title: string;
  message: string;
  actionUrl?: string;
  actionText?: string;
  productId?: number;
  gameId?: number;
}

/**
 * Writes one notification; every flow that tells a user something goes through here. Pass the
 * transaction of the state change it reports (`tx`), so both are written or neither (an outbox).
 */
export function notify(db: Queryable, clock: Clock, userId: number, notification: NewNotification): void {
  // A part not given is written as null, as Drizzle wrote it (these columns have no default).
  insertNotification(db).run({
    userId,
    type: notification.type,
    eventKey: notification.eventKey ?? null,
    title: notification.title,
    message: notification.message,
    actionUrl: notification.actionUrl ?? null,
    actionText: notification.actionText ?? null,
    productId: notification.productId ?? null,
    gameId: notification.gameId ?? null,
    createdAt: clock.now(),
  });
}

/* Every flow that tells a user something writes through this: built once (db/prepared.ts). */
const insertNotification = preparedOnce((db) =>
  db
    .insert(notifications)
    .values({
      userId: sql.placeholder('userId'),
      type: sql.placeholder('type'),
      eventKey: sql.placeholder('eventKey'),
      title: sql.placeholder('title'),
      message: sql.placeholder('message'),
      actionUrl: sql.placeholder('actionUrl'),
      actionText: sql.placeholder('actionText'),
      productId: sql.placeholder('productId'),
      gameId: sql.placeholder('gameId'),
      read: false,
      createdAt: sql.placeholder('createdAt'),
    })
    .onConflictDoNothing()
    .prepare(),
);

/* The bell of every signed-in page reads these: built once (db/prepared.ts). */
const latestOf = preparedOnce((db) =>
  db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, sql.placeholder('userId')))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATION_LIMIT)
    .prepare(),
);
const unreadCountOf = preparedOnce((db) =>
  db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, sql.placeholder('userId')), eq(notifications.read, false)))
    .prepare(),
);

export function latestNotifications(db: Queryable, userId: number) {
  return latestOf(db).all({ userId });
}

/** A notification as the API and the bell show it (spec section 3: timestamp, read). */
export function notificationView(n: typeof notifications.$inferSelect): NotificationView {
  return {
    id: n.id,
    type: n.type,
    title: n.title,
    message: n.message,
    actionUrl: n.actionUrl,
    actionText: n.actionText,
    productId: n.productId,
    gameId: n.gameId,
    timestamp: n.createdAt,
    read: n.read,
  };
}

export function unreadNotificationCount(db: Queryable, userId: number): number {
  const row = unreadCountOf(db).get({ userId });
  return row?.n ?? 0;
}

/** Marks one of the user's notifications read; false when it is not theirs. */
export function markNotificationRead(db: Queryable, userId: number, id: number): boolean {
  const changed = db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id })
    .all();
  return changed.length > 0;
}

export function markAllNotificationsRead(db: Queryable, userId: number): number {
  return db.update(notifications).set({ read: true }).where(eq(notifications.userId, userId)).returning({ id: notifications.id }).all().length;
}

/** Tells a user once (while unread) that their profile must be completed before buying. */
export function noticeIncompleteProfile(db: Queryable, clock: Clock, userId: number): void {
  const pending = db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.title, 'Complete Your Profile'), eq(notifications.read, false)))
    .get();
  if (pending) return;
  notify(db, clock, userId, {
    type: 'payment_failed',
    title: 'Complete Your Profile',
    message: 'Please complete your profile information before making purchases or entering games.',
    actionUrl: '/profile',
    actionText: 'Complete Profile',
  });
}

/**
 * The profile is complete: the reminder is a to-do that is done, so it leaves the bell, read or
 * not (marked read it stayed listed with its 'Complete Profile' button, issue 37 item 16). Should
 * the profile become incomplete again, the next refusal tells again.
 */
export function clearIncompleteProfileNotice(db: Queryable, userId: number): void {
  db.delete(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.title, 'Complete Your Profile')))
    .run();
}
