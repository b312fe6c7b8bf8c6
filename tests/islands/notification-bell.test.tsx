import { registerDom, unregisterDom } from '../helpers/dom.ts';
import { afterAll, beforeAll, describe, expect, mock, spyOn, test } from 'bun:test';
import { createElement, useState, type ComponentProps } from 'react';
import type { Root } from 'react-dom/client';
import type { NotificationView } from '../../src/domain/accounts/notifications.ts';
import type { IslandComponent } from '../../src/islands/lib/hydrate.ts';
import { until } from '../helpers/until.ts';

/*
 * The NotificationBell island: server-rendered, hydrated under happy-dom by the real island
 * runtime, then driven like a user would (spec sections 2, 4, 8 and 9).
 */

type Bell = typeof import('../../src/islands/NotificationBell.tsx');
type BellProps = ComponentProps<Bell['default']>;

const errors: unknown[] = [];
const realFetch = globalThis.fetch;
const originalError = console.error;
let bell: Bell;
/** Unmounts the hydrated island (and its poll timer) while the window still exists. */
let unmountIsland: (() => void) | null = null;
const extraRoots: Root[] = [];

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * 12 notifications, ids 1..12, id 12 the newest, given oldest first. Ids 1 and 2 are read, so 10
 * are unread and the badge must cap at '9+' (with 3 read it would be 9, which shows as '9').
 */
function twelve(now: number): NotificationView[] {
  const ages = [
    40 * DAY,
    20 * DAY,
    10 * DAY,
    5 * DAY,
    2 * DAY,
    30 * HOUR,
    20 * HOUR,
    3 * HOUR + 10 * MINUTE,
    59 * MINUTE,
    5 * MINUTE + 5_000,
    2 * MINUTE,
    10_000,
  ];
  return ages.map((age, i) => {
    const id = i + 1;
    const withAction = id % 2 === 0;
    return {
      id,
      type: withAction ? 'game_won' : 'payment_success',
      title: `Title ${id}`,
      message: `Message ${id}`,
      actionUrl: withAction ? (id === 12 ? '/cart' : '/scoreboard?tab=my-games') : null,
      actionText: withAction ? (id === 12 ? 'Claim Prize' : 'View Game') : null,
      productId: 7,
      gameId: id,
      timestamp: now - age,
      read: id <= 2,
    } as NotificationView;
  });
}

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function island(): HTMLElement {
  return document.querySelector('[data-island="NotificationBell"]') as HTMLElement;
}
function bellButton(scope: ParentNode = island()): HTMLButtonElement {
  return scope.querySelector('button[aria-haspopup]') as HTMLButtonElement;
}
function badge(scope: ParentNode = island()): Element | null {
  return scope.querySelector('[data-notification-count]');
}
function panel(scope: ParentNode = island()): HTMLElement | null {
  return scope.querySelector('[role="dialog"]');
}
function item(id: number, scope: ParentNode = island()): HTMLElement {
  return scope.querySelector(`[data-notification-id="${id}"]`) as HTMLElement;
}
async function openPanel(scope: ParentNode = island()): Promise<HTMLElement> {
  if (!panel(scope)) bellButton(scope).click();
  await until(() => panel(scope) !== null, 'the panel to open');
  return panel(scope)!;
}

beforeAll(async () => {
  registerDom({ url: 'http://localhost/', width: 390, height: 844 });
  console.error = (...args: unknown[]) => {
    errors.push(args);
    originalError(...args);
  };
  bell = await import('../../src/islands/NotificationBell.tsx');
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  console.error = originalError;
  // Stop every root (and so every interval) before the window closes.
  unmountIsland?.();
  for (const root of extraRoots) root.unmount();
  await sleep(20);
  await unregisterDom();
});

describe('NotificationBell island', () => {
  let serverButton: HTMLButtonElement;

  test('hydrates over its server HTML with the real runtime, without a mismatch', async () => {
    const { renderToString } = await import('react-dom/server');
    const { startIslands } = await import('../../src/islands/lib/hydrate.ts');
    const { serializeProps } = await import('../../src/components/Island.tsx');
    const props: BellProps = { initial: twelve(Date.now()), unread: 10 };
    const prefix = 'i0-';
    const html = renderToString(createElement(bell.default, props), { identifierPrefix: prefix });
    // Nothing clock-dependent is on the server's first render.
    expect(html).not.toMatch(/ago|just now/);
    document.body.innerHTML =
      `<main id="elsewhere"><button type="button" id="outside">Outside</button></main>` +
      `<div data-island="NotificationBell" data-mode="load" data-src="/assets/NotificationBell.js" data-prefix="${prefix}" style="display:contents">` +
      `<script type="application/json">${serializeProps(props)}</script>` +
      `<div data-island-root="" style="display:contents">${html}</div></div>`;
    serverButton = bellButton();

    // The loader hands the runtime the island behind a switch, so the test can unmount it at the
    // end (its first render is exactly the island's, so hydration sees the same tree).
    function Harness(islandProps: BellProps) {
      const [alive, setAlive] = useState(true);
      unmountIsland = () => setAlive(false);
      return alive ? createElement(bell.default, islandProps) : null;
    }
    startIslands(async () => Harness as unknown as IslandComponent);
    await until(() => island().dataset.hydrated === 'true', 'the island to hydrate');
    await sleep(20);
    expect(errors).toEqual([]);
    // Hydration kept the server's nodes (a mismatch would have re-created them).
    expect(bellButton()).toBe(serverButton);
  });

  test("the bell shows '9+' for more than 9 unread and says the count in its label", () => {
    const button = bellButton();
    expect(badge()!.textContent).toBe('9+');
    expect(badge()!.getAttribute('aria-hidden')).toBe('true');
    expect(button.getAttribute('aria-label')).toBe('Notifications, 10 unread');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    expect(panel()).toBeNull();
  });

  test('opening shows the panel, newest first, unread highlighted, with short times; focus moves in', async () => {
    const p = await openPanel();
    expect(bellButton().getAttribute('aria-expanded')).toBe('true');
    expect(bellButton().getAttribute('aria-controls')).toBe(p.id);
    expect(p.querySelector('h2')!.textContent).toBe('Notifications');
    expect(p.getAttribute('aria-labelledby')).toBe(p.querySelector('h2')!.id);
    expect(document.activeElement).toBe(p);

    const list = p.querySelector('ul')!;
    expect(list.className).toContain('max-h-[400px]');
    expect(list.className).toContain('overflow-y-auto');
    const ids = [...list.querySelectorAll('[data-notification-id]')].map((el) => Number(el.getAttribute('data-notification-id')));
    expect(ids).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expect(list.querySelectorAll('.bg-sky-50').length).toBe(10);
    expect(item(1).className).not.toContain('bg-sky-50');
    expect(item(12).className).toContain('bg-sky-50');
    expect(item(12).textContent).toContain('Unread: ');

    // Every item is a link or a button, so it is in the tab order.
    expect(item(12).tagName).toBe('A');
    expect(item(12).getAttribute('href')).toBe('/cart');
    expect(item(12).textContent).toContain('Claim Prize');
    expect(item(11).tagName).toBe('BUTTON');

    const time = (id: number) => item(id).querySelector('time')!.textContent;
    await until(() => time(12) === 'just now', 'relative times after mount');
    expect(time(10)).toBe('5 min ago');
    expect(time(9)).toBe('59 min ago');
    expect(time(8)).toBe('3 h ago');
    expect(time(7)).toBe('20 h ago');
    expect(time(6)).toMatch(/^[A-Z][a-z]{2} \d{1,2}(, \d{4})?$/);
    expect(item(6).querySelector('time')!.getAttribute('dateTime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test('Escape closes the panel and returns focus to the bell', async () => {
    const p = await openPanel();
    p.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await until(() => panel() === null, 'the panel to close');
    expect(bellButton().getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(bellButton());
  });

  test('a press outside closes the panel; a press inside does not', async () => {
    const p = await openPanel();
    p.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    await sleep(20);
    expect(panel()).not.toBeNull();
    document.getElementById('outside')!.dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    await until(() => panel() === null, 'the panel to close');
    expect(bellButton().getAttribute('aria-expanded')).toBe('false');
  });

  test('clicking an item with an action marks it read, then goes to its action URL', async () => {
    const order: string[] = [];
    const fetchMock = mock(async (url: string, init?: RequestInit) => {
      order.push(`fetch ${init?.method} ${url}`);
      await sleep(30);
      return jsonResponse({ message: 'Marked as read' });
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation((url: string | URL) => {
      order.push(`assign ${String(url)}`);
    });
    try {
      await openPanel();
      item(12).click();
      await until(() => assign.mock.calls.length === 1, 'the navigation');
      expect(fetchMock).toHaveBeenCalledTimes(1);
      const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
      expect(url).toBe('/api/notifications/12/read');
      expect(init.method).toBe('POST');
      expect(init.credentials).toBe('include');
      expect(order).toEqual(['fetch POST /api/notifications/12/read', 'assign /cart']);
      expect(window.location.href).toBe('http://localhost/');
      expect(item(12).className).not.toContain('bg-sky-50');
      expect(badge()!.textContent).toBe('9');
      expect(bellButton().getAttribute('aria-label')).toBe('Notifications, 9 unread');
    } finally {
      assign.mockRestore();
    }
  });

  test('the navigation still happens when marking read fails', async () => {
    const fetchMock = mock(async () => jsonResponse({ message: 'Server error' }, 500));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      await openPanel();
      item(10).click();
      await until(() => assign.mock.calls.length === 1, 'the navigation');
      expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/api/notifications/10/read');
      expect(assign.mock.calls[0]![0]).toBe('/scoreboard?tab=my-games');
    } finally {
      assign.mockRestore();
    }
  });

  test('an item without an action is only marked read', async () => {
    const fetchMock = mock(async () => jsonResponse({ message: 'Marked as read' }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      await openPanel();
      item(11).click();
      await until(() => fetchMock.mock.calls.length === 1, 'the mark-read call');
      expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/api/notifications/11/read');
      await until(() => badge()?.textContent === '7', 'the badge to count down');
      expect(assign).not.toHaveBeenCalled();
      expect(panel()).not.toBeNull();
      // A read item without an action calls nothing more.
      item(1).click();
      await sleep(20);
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      assign.mockRestore();
    }
  });

  test("'Mark all as read' calls the API, then everything shows read and the badge goes away", async () => {
    const fetchMock = mock(async () => jsonResponse({ updated: 7 }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const p = await openPanel();
    const markAll = [...p.querySelectorAll('button')].find((b) => b.textContent === 'Mark all as read')!;
    expect(markAll.disabled).toBe(false);
    markAll.click();
    await until(() => badge() === null, 'the badge to go');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/notifications/read-all');
    expect(init.method).toBe('POST');
    expect(bellButton().getAttribute('aria-label')).toBe('Notifications');
    expect(p.querySelectorAll('.bg-sky-50').length).toBe(0);
    expect(p.textContent).not.toContain('Unread: ');
    expect(markAll.disabled).toBe(true);
  });

  test('re-reads GET /api/notifications when the interval fires, skips while hidden, keeps data on failure', async () => {
    expect(bell.POLL_MS).toBe(30_000);
    const { createRoot } = await import('react-dom/client');
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    extraRoots.push(root);
    const now = Date.now();
    const start = twelve(now).slice(0, 4);

    let answer: () => Response = () => jsonResponse({ message: 'nope' }, 500);
    const fetchMock = mock(async () => answer());
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    root.render(createElement(bell.default, { initial: start, unread: 1, pollMs: 25 }));
    await until(() => badge(container)?.textContent === '1', 'the first render');

    // A failed read is ignored: the last data stays.
    await until(() => fetchMock.mock.calls.length >= 1, 'the first poll');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/notifications');
    expect(init.method).toBe('GET');
    await sleep(30);
    expect(badge(container)!.textContent).toBe('1');

    // While the page is hidden nothing is fetched.
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    await sleep(30);
    const whileHidden = fetchMock.mock.calls.length;
    await sleep(100);
    expect(fetchMock.mock.calls.length).toBe(whileHidden);
    delete (document as unknown as { hidden?: boolean }).hidden;
    expect(document.hidden).toBe(false);

    // The next answer replaces the list and the count.
    const fresh = [...twelve(now).slice(4, 7), { ...twelve(now)[11]!, id: 99, title: 'Game Ready' }];
    answer = () => jsonResponse({ notifications: fresh, unread: 12 });
    await until(() => badge(container)?.textContent === '9+', 'the polled count');
    const p = await openPanel(container);
    const ids = [...p.querySelectorAll('[data-notification-id]')].map((el) => Number(el.getAttribute('data-notification-id')));
    expect(ids).toEqual([99, 7, 6, 5]);
    expect(bellButton(container).getAttribute('aria-label')).toBe('Notifications, 12 unread');

    // Unmounting clears the interval.
    root.unmount();
    extraRoots.splice(extraRoots.indexOf(root), 1);
    const afterUnmount = fetchMock.mock.calls.length;
    await sleep(80);
    expect(fetchMock.mock.calls.length).toBe(afterUnmount);
    container.remove();
  });

  test("with nothing to show: no badge, plain label and 'No notifications yet'", async () => {
    const { createRoot } = await import('react-dom/client');
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    extraRoots.push(root);
    root.render(createElement(bell.default, { initial: [], unread: 0 }));
    await until(() => bellButton(container) !== null, 'the render');
    expect(badge(container)).toBeNull();
    expect(bellButton(container).getAttribute('aria-label')).toBe('Notifications');
    const p = await openPanel(container);
    expect(p.textContent).toContain('No notifications yet');
    expect(p.querySelector('ul')).toBeNull();
    root.unmount();
    extraRoots.splice(extraRoots.indexOf(root), 1);
    container.remove();
  });

  test('short times: just now, minutes, hours, then the date in Los Angeles', () => {
    const now = Date.UTC(2025, 5, 15, 12, 0, 0);
    expect(bell.shortTime(now - 30_000, now)).toBe('just now');
    expect(bell.shortTime(now - 5 * MINUTE, now)).toBe('5 min ago');
    expect(bell.shortTime(now - 3 * HOUR - 59 * MINUTE, now)).toBe('3 h ago');
    // 2025-06-13 03:00 UTC is still 12 June in Los Angeles.
    expect(bell.shortTime(Date.UTC(2025, 5, 13, 3, 0, 0), now)).toBe('Jun 12');
    expect(bell.shortTime(Date.UTC(2024, 11, 1, 20, 0, 0), now)).toBe('Dec 1, 2024');
    // Before mount there is no clock: always the full date.
    expect(bell.shortTime(now - 30_000, null)).toBe('Jun 15, 2025');
    expect(bell.badgeText(9)).toBe('9');
    expect(bell.badgeText(10)).toBe('9+');
  });

  test('no console errors from the whole run', () => {
    expect(errors).toEqual([]);
  });
});
