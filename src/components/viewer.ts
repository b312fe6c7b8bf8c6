import type { PublicUser } from '../domain/accounts.ts';

export interface HeaderNotification {
  id: number;
  title: string;
  message: string;
  actionUrl: string | null;
  actionText: string | null;
  read: boolean;
  createdAt: number;
}

/** Who is looking at the page, and what the shared navigation shows them. */
export interface Viewer {
  user: PublicUser | null;
  profileComplete: boolean;
  cartCount: number;
  unreadNotifications: number;
  notifications: HeaderNotification[];
}

export const anonymousViewer: Viewer = {
  user: null,
  profileComplete: false,
  cartCount: 0,
  unreadNotifications: 0,
  notifications: [],
};
