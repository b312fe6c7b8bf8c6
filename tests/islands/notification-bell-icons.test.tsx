import { registerDom, unregisterDom } from '../helpers/dom.ts';
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createElement } from 'react';
import { NOTIFICATION_TYPES } from '../../src/shared/views/notifications.ts';
import { parseHtml } from '../helpers/html.ts';

/** The bell's icons by notification type: the auction's two types have their own, beside the title. */

let bell: typeof import('../../src/islands/NotificationBell.tsx');
let render: typeof import('react-dom/server')['renderToString'];

beforeAll(async () => {
  registerDom({ url: 'http://localhost/', width: 390, height: 844 });
  bell = await import('../../src/islands/NotificationBell.tsx');
  render = (await import('react-dom/server')).renderToString;
});

afterAll(async () => {
  await unregisterDom();
});

const iconOf = (type: (typeof NOTIFICATION_TYPES)[number]) => {
  const html = parseHtml(render(createElement(bell.TypeIcon, { type })));
  return html.querySelector('[data-notification-icon]');
};

describe('notification icons', () => {
  test('outbid: a rising price in coral; auction ended: a gavel in sea blue; both hidden from screen readers', () => {
    const outbid = iconOf('auction_outbid');
    const ended = iconOf('auction_ended');
    expect(outbid?.className).toContain('text-coral');
    expect(ended?.className).toContain('text-sea');
    for (const icon of [outbid, ended]) {
      expect(icon?.querySelector('svg')?.getAttribute('aria-hidden')).toBe('true');
    }
    expect(outbid?.innerHTML).not.toBe(ended?.innerHTML);
  });

  test('the other types keep their plain item (no icon)', () => {
    for (const type of NOTIFICATION_TYPES.filter((t) => !t.startsWith('auction_'))) expect(iconOf(type)).toBeNull();
  });
});
