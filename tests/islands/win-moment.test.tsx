import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { NotificationView } from '../../src/shared/views/notifications.ts';
import { registerDom, unregisterDom } from '../helpers/dom.ts';

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
  await unregisterDom();
});

describe('the win moment', () => {
  test('the newest unread win counts; read wins, other news and wins celebrated on an earlier page do not', () => {
    // An earlier page celebrated win 3: this page opens knowing it.
    window.localStorage.setItem(moment.CELEBRATED_KEY, JSON.stringify([3]));
    expect(moment.freshWin([note(1, 'game_ended'), note(2, 'game_won', true), note(3, 'game_won')])).toBeNull();
    expect(moment.freshWin([note(3, 'game_won'), note(5, 'game_won'), note(4, 'game_won'), note(6, 'game_lost')])?.id).toBe(5);
  });
});
