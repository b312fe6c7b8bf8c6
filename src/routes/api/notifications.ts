import { Hono } from 'hono';
import {
  latestNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationView,
  unreadNotificationCount,
} from '../../domain/accounts/notifications.ts';
import type { AppEnv } from '../../http/context.ts';
import { requireUserApi } from '../../http/guards.ts';
import { idFrom, pathId } from '../../http/request.ts';

/** /api/notifications (spec section 7): the bell's list, unread count and read marks. */
export const notificationsApi = new Hono<AppEnv>()
  .use('/notifications', requireUserApi)
  .use('/notifications/*', requireUserApi)
  .get('/notifications', (c) => {
    const userId = c.get('user').id;
    return c.json({
      notifications: latestNotifications(c.env.deps.db, userId).map(notificationView),
      unread: unreadNotificationCount(c.env.deps.db, userId),
    });
  })
  .post('/notifications/read-all', (c) => c.json({ updated: markAllNotificationsRead(c.env.deps.db, c.get('user').id) }))
  .post('/notifications/:id/read', idFrom('Notification'), (c) => {
    if (!markNotificationRead(c.env.deps.db, c.get('user').id, pathId(c))) return c.json({ message: 'Notification not found' }, 404);
    return c.json({ message: 'Marked as read' });
  });
