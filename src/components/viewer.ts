import type { PublicUser } from '../domain/accounts/accounts.ts';
import type { NotificationView } from '../domain/accounts/notifications.ts';

/** Who is looking at the page, and what the shared navigation shows them. */
export interface Viewer {
  user: PublicUser | null;
  profileComplete: boolean;
  cartCount: number;
  unreadNotifications: number;
  notifications: NotificationView[];
}

export const anonymousViewer: Viewer = {
  user: null,
  profileComplete: false,
  cartCount: 0,
  unreadNotifications: 0,
  notifications: [],
};
