import { safeNextPath } from '../../shared/safe-next-path.ts';
import type { NotificationView } from '../../shared/views/notifications.ts';

/*
 * Game alerts on the device: once the player allowed notifications (the games page's 'Enable
 * game alerts'), a new notification about their own games, seen by the bell's poll while a page
 * is open, also shows as a system notification. Each shows once per device: the newest id shown
 * is kept in localStorage, and the tag stops two open tabs from showing it twice.
 */

const GAME_TYPES: ReadonlySet<string> = new Set(['game_ready', 'game_started', 'game_ended', 'game_won', 'game_lost']);
export const SEEN_KEY = 'csa-device-alerts-seen';

function lastSeen(): number {
  try {
    return Number(window.localStorage.getItem(SEEN_KEY)) || 0;
  } catch {
    return 0;
  }
}

function remember(id: number): void {
  try {
    if (id > lastSeen()) window.localStorage.setItem(SEEN_KEY, String(id));
  } catch {
    // Without storage the tag still keeps one tab from repeating itself.
  }
}

const allowed = () => 'Notification' in window && Notification.permission === 'granted';

/** What the page showed when it loaded is not new: only later arrivals alert. */
export function markAlertsSeen(items: NotificationView[]): void {
  remember(Math.max(0, ...items.map((item) => item.id)));
}

/** Shows a device notification; false where the browser refuses (Android wants a service worker). */
export function showDeviceNotification(title: string, body: string, tag: string, url: string | null): boolean {
  if (!allowed()) return false;
  try {
    const shown = new Notification(title, { body, tag, icon: '/static/apple-touch-icon.png' });
    shown.onclick = () => {
      window.focus();
      if (url) window.location.assign(safeNextPath(url));
      shown.close();
    };
    return true;
  } catch {
    return false;
  }
}

/** The unread game notifications newer than any shown on this device, shown once each. */
export function alertNewGameNotifications(items: NotificationView[]): void {
  if (!allowed()) return;
  const seen = lastSeen();
  const fresh = items.filter((item) => item.id > seen && !item.read && GAME_TYPES.has(item.type)).sort((a, b) => a.id - b.id);
  for (const item of fresh) showDeviceNotification(item.title, item.message, `csa-notification-${item.id}`, item.actionUrl);
  markAlertsSeen(items);
}
