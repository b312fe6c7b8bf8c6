import { and, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { notifications } from '../db/schema.ts';

/** The spec keeps the latest 50 per user in view. */
export const NOTIFICATION_LIMIT = 50;

export function latestNotifications(db: Db, userId: number) {
  return db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATION_LIMIT)
    .all();
}

export function unreadNotificationCount(db: Db, userId: number): number {
  const row = db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
    .get();
  return row?.n ?? 0;
}
