import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { NotificationView } from '../../src/shared/views/notifications.ts';
import { registerDom, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';

/* Which win the 'You won!' moment celebrates: the newest unread one, not one celebrated on an earlier page. */

let moment: typeof import('../../src/islands/WinMoment.tsx');

const note = (id: number, type: NotificationView['type'], read = false): NotificationView => ({
  id,
  type,
  title: type === 'game_won' ? 'You won!' : 'Game ended',
  message: `Message ${id}`,
  actionUrl: '/cart',
  actionText: 'Claim Prize',
  productId: 1,
  gameId: id,
  timestamp: 1_700_000_000_000 + id,
  read,
});

beforeAll(async () => {
  registerDom({ url: 'http://localhost/products' });
  moment = await import('../../src/islands/WinMoment.tsx');
});

afterAll(async () => {
  // The stream's fallback watchdog and React's last work end before the window closes.
  (await import('../../src/islands/lib/live.ts')).resetLive();
  await Bun.sleep(20);
  await unregisterDom();
});

describe('the win moment', () => {
  test('the newest unread win counts; read wins, other news and wins celebrated on an earlier page do not', () => {
    // An earlier page celebrated win 3: this page opens knowing it.
    window.localStorage.setItem(moment.CELEBRATED_KEY, JSON.stringify([3]));
    expect(moment.freshWin([note(1, 'game_ended'), note(2, 'game_won', true), note(3, 'game_won')])).toBeNull();
    expect(moment.freshWin([note(3, 'game_won'), note(5, 'game_won'), note(4, 'game_won'), note(6, 'game_lost')])?.id).toBe(5);
  });

  test("without the live stream, the bell's fallback poll brings the win: the banner shows", async () => {
    const { createRoot } = await import('react-dom/client');
    const { createElement } = await import('react');
    const { NOTIFICATIONS_POLLED } = await import('../../src/islands/lib/events.ts');
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    root.render(createElement(moment.default, { initial: [] }));
    await until(() => container.isConnected, 'the island mounted');
    const poll = () => window.dispatchEvent(new CustomEvent(NOTIFICATIONS_POLLED, { detail: [note(9, 'game_won')] }));
    poll();
    await until(() => {
      if (container.querySelector('[data-win-banner="9"]')) return true;
      poll();
      return false;
    }, 'the banner for win 9');
    expect(container.querySelector('h2')?.textContent).toBe('You won!');
    root.unmount();
    container.remove();
  });
});
