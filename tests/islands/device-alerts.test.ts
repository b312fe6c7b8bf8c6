import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import type { NotificationView } from '../../src/shared/views/notifications.ts';
import { registerDom, unregisterDom } from '../helpers/dom.ts';

/* Game alerts on the device: new game notifications become system notifications, once each, only when allowed. */

type Shown = { title: string; body?: string; tag?: string; instance: { onclick: (() => void) | null; close: () => void } };
let shown: Shown[] = [];
let permission: NotificationPermission = 'granted';
let alerts: typeof import('../../src/islands/lib/device-alerts.ts');

class FakeNotification {
  onclick: (() => void) | null = null;
  closed = false;
  static get permission() {
    return permission;
  }
  constructor(title: string, options: NotificationOptions = {}) {
    shown.push({ title, body: options.body, tag: options.tag, instance: this });
  }
  close() {
    this.closed = true;
  }
}

const note = (id: number, type: NotificationView['type'], read = false): NotificationView => ({
  id,
  type,
  title: `Title ${id}`,
  message: `Message ${id}`,
  actionUrl: `/games/${id}`,
  actionText: 'View Game',
  productId: 1,
  gameId: id,
  timestamp: 1_000 + id,
  read,
});

beforeAll(async () => {
  registerDom({ url: 'http://localhost/scoreboard' });
  Object.assign(window, { Notification: FakeNotification });
  alerts = await import('../../src/islands/lib/device-alerts.ts');
});

afterAll(async () => {
  await unregisterDom();
});

beforeEach(() => {
  shown = [];
  permission = 'granted';
  window.localStorage.clear();
});

describe('device game alerts', () => {
  test('what the page loaded with is not new; a later game notification shows once, with its text and tag', () => {
    alerts.markAlertsSeen([note(1, 'game_started'), note(2, 'game_won')]);
    alerts.alertNewGameNotifications([note(1, 'game_started'), note(2, 'game_won')]);
    expect(shown).toEqual([]);

    const later = [note(1, 'game_started'), note(2, 'game_won'), note(3, 'game_ended'), note(4, 'payment_success'), note(5, 'game_lost', true)];
    alerts.alertNewGameNotifications(later);
    expect(shown.map((s) => [s.title, s.body, s.tag])).toEqual([['Title 3', 'Message 3', 'csa-notification-3']]);
    // The next poll, or another tab of this device, does not show it again.
    alerts.alertNewGameNotifications(later);
    expect(shown).toHaveLength(1);
  });

  test('nothing shows without permission, and nothing is marked shown either', () => {
    permission = 'default';
    alerts.alertNewGameNotifications([note(7, 'game_started')]);
    expect(shown).toEqual([]);
    permission = 'granted';
    alerts.alertNewGameNotifications([note(7, 'game_started')]);
    expect(shown.map((s) => s.title)).toEqual(['Title 7']);
  });

  test('a click on the notification brings the page forward and closes it', () => {
    alerts.alertNewGameNotifications([note(9, 'game_won')]);
    const [first] = shown;
    let focused = false;
    window.focus = () => {
      focused = true;
    };
    const assigned: string[] = [];
    Object.defineProperty(window, 'location', { value: { assign: (url: string) => assigned.push(url) }, configurable: true });
    first!.instance.onclick!();
    expect(focused).toBe(true);
    expect(assigned).toEqual(['/games/9']);
    expect((first!.instance as unknown as FakeNotification).closed).toBe(true);
  });

  test('a browser that refuses the constructor (Android) is not an error', () => {
    Object.assign(window, {
      Notification: class {
        static permission = 'granted';
        constructor() {
          throw new TypeError('Illegal constructor');
        }
      },
    });
    expect(alerts.showDeviceNotification('Game alerts are on', 'text', 'tag', null)).toBe(false);
    Object.assign(window, { Notification: FakeNotification });
  });
});
