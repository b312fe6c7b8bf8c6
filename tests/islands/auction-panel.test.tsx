import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createElement } from 'react';
import type { Root } from 'react-dom/client';
import type { AuctionView } from '../../src/shared/views/auctions.ts';
import { registerDom, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';

/*
 * The product page's auction panel (issue 28) in happy-dom: every state it shows, the refusals
 * of a bid (the card dialog, the server's message by the field, the sign-in link), one request
 * for a double click, and the live stream moving the price and the end. The stream is a fake
 * EventSource the test speaks through; fetch is the test's.
 */

type Panel = typeof import('../../src/islands/AuctionPanel.tsx');
type Props = import('../../src/islands/AuctionPanel.tsx').AuctionPanelProps;

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const MINUTE = 60_000;
const realFetch = globalThis.fetch;
const originalError = console.error;
const errors: unknown[] = [];
const roots: Root[] = [];
let panel: Panel;

interface Call {
  method: string;
  url: string;
  body: unknown;
  key: string | null;
}
let calls: Call[] = [];
/** The test's server: answers each request; GET of the auction answers `current` unless told otherwise. */
let answer: (call: Call) => Response | Promise<Response> = () => json({ message: 'unexpected' }, 500);

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The fake stream: the panel's subscription opens one; the test sends it events. */
class FakeEventSource {
  static OPEN = 1;
  static CLOSED = 2;
  static last: FakeEventSource | null = null;
  readyState = 1;
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  readonly listeners = new Map<string, ((message: { data: string; lastEventId: string }) => void)[]>();
  constructor(readonly url: string) {
    // Open at once (readyState 1): the test calls onopen / onerror itself when it needs them.
    FakeEventSource.last = this;
  }
  addEventListener(type: string, listener: (message: { data: string; lastEventId: string }) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = 2;
  }
  send(type: string, data: unknown, id = '1') {
    for (const listener of this.listeners.get(type) ?? []) listener({ data: JSON.stringify(data), lastEventId: id });
  }
}

function view(overrides: Partial<AuctionView> = {}): AuctionView {
  return {
    status: 'running',
    currentPrice: null,
    minimumBid: 10,
    bidCount: 0,
    size: '',
    startsAt: new Date(NOW - 60 * MINUTE).toISOString(),
    endsAt: new Date(NOW + 90 * MINUTE).toISOString(),
    hasReserve: false,
    reserveMet: true,
    leading: false,
    buyNowOffered: false,
    bids: [],
    now: new Date(NOW).toISOString(),
    ...overrides,
  };
}

const withBids = (overrides: Partial<AuctionView> = {}) =>
  view({
    currentPrice: 21,
    minimumBid: 22,
    bidCount: 3,
    bids: [
      { bidder: 'a***1', amount: 21, at: new Date(NOW - MINUTE).toISOString() },
      { bidder: 'b***2', amount: 20, at: new Date(NOW - MINUTE).toISOString() },
      { bidder: 'a***1', amount: 10, at: new Date(NOW - 2 * MINUTE).toISOString() },
    ],
    ...overrides,
  });

/** Put back after the file: test files share one process (`--no-isolate`), and the others expect no stream. */
const originalEventSource = (globalThis as { EventSource?: unknown }).EventSource;

beforeAll(async () => {
  registerDom({ url: 'http://localhost/product/3', width: 390, height: 844 });
  (globalThis as unknown as { EventSource: unknown }).EventSource = FakeEventSource;
  (window as unknown as { EventSource: unknown }).EventSource = FakeEventSource;
  globalThis.fetch = (async (input: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    const call = {
      method: init.method ?? 'GET',
      url: String(input),
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      key: headers.get('Idempotency-Key'),
    };
    calls.push(call);
    return answer(call);
  }) as typeof fetch;
  console.error = (...args: unknown[]) => {
    errors.push(args);
    originalError(...args);
  };
  panel = await import('../../src/islands/AuctionPanel.tsx');
});

afterAll(async () => {
  for (const root of roots) root.unmount();
  (await import('../../src/islands/lib/live.ts')).resetLive();
  // The toasts are one signal for the whole process: this file's must not show in the next file's page.
  (await import('../../src/islands/lib/toast.ts')).toasts.value = [];
  if (originalEventSource === undefined) delete (globalThis as { EventSource?: unknown }).EventSource;
  else (globalThis as { EventSource?: unknown }).EventSource = originalEventSource;
  globalThis.fetch = realFetch;
  console.error = originalError;
  await Bun.sleep(20);
  await unregisterDom();
});

/** Renders the panel; the GET it makes on load answers `loaded` (the same view by default). */
async function render(props: Props, loaded: AuctionView = props.initial): Promise<HTMLElement> {
  calls = [];
  answer = (call) => (call.method === 'GET' ? json(loaded) : json({ message: 'unexpected' }, 500));
  const { createRoot } = await import('react-dom/client');
  const container = document.createElement('div');
  document.body.append(container);
  const root = createRoot(container);
  roots.push(root);
  root.render(createElement(panel.default, props));
  const own = `/api/products/${props.productId}/auction`;
  await until(() => calls.some((call) => call.method === 'GET' && call.url === own), 'the panel to read the view on load');
  await until(() => container.querySelector('[data-auction-status]')?.getAttribute('data-auction-status') === loaded.status, 'the loaded view');
  return container;
}

const text = (element: Element) => element.textContent ?? '';

async function bid(container: HTMLElement, amount: string, clicks = 1) {
  const input = container.querySelector<HTMLInputElement>('input[name="maxAmount"]')!;
  input.value = amount;
  const button = [...container.querySelectorAll('button')].find((b) => b.textContent === 'Place Bid')!;
  for (let i = 0; i < clicks; i++) button.click();
}

describe('AuctionPanel', () => {
  test('hydrates over its server HTML without a mismatch (times in UTC first, then local)', async () => {
    const { renderToString } = await import('react-dom/server');
    const { startIslands } = await import('../../src/islands/lib/hydrate.ts');
    const { serializeProps } = await import('../../src/components/Island.tsx');
    const props: Props = { productId: 3, initial: withBids({ hasReserve: true, reserveMet: false }) };
    calls = [];
    answer = () => json(props.initial);
    const html = renderToString(createElement(panel.default, props), { identifierPrefix: 'i0-' });
    expect(html).toContain('01:30:00');
    const host = document.createElement('div');
    host.innerHTML =
      `<div data-island="AuctionPanel" data-mode="load" data-src="/assets/AuctionPanel.js" data-prefix="i0-" style="display:contents">` +
      `<script type="application/json">${serializeProps(props)}</script><div data-island-root="" style="display:contents">${html}</div></div>`;
    document.body.append(host);
    const serverNode = host.querySelector('[data-auction-status]');
    startIslands(async () => panel.default as never);
    await until(() => host.querySelector<HTMLElement>('[data-island]')!.dataset.hydrated === 'true', 'the island to hydrate');
    await until(() => calls.length > 0, 'the read on load');
    expect(errors).toEqual([]);
    expect(host.querySelector('[data-auction-status]')).toBe(serverNode);
    (await import('../../src/islands/lib/hydrate.ts')).stopIslands();
    host.remove();
  });

  test("running before any bid: 'Starting bid', 0 bids, the time left, the form with the least allowed and how proxy bidding works", async () => {
    const container = await render({ productId: 4, initial: view() });
    const all = text(container);
    expect(all).toContain('Starting bid$10.00');
    expect(text(container.querySelector('[data-bid-count]')!)).toBe('0 bids');
    // Counted by the server's clock (the view's `now`), not the device's.
    await until(() => /^01:(30:00|29:5\d)$/.test(container.querySelector('[role="timer"]')!.textContent ?? ''), 'the time left by the server clock');
    expect(container.querySelector('label')!.textContent).toBe('Your maximum bid');
    expect(all).toContain('Enter $10.00 or more');
    expect(all).toContain('We bid for you by the increment, up to your maximum');
    expect(all).toContain('No bids yet. Be the first!');
    expect(container.querySelector('[data-reserve]')).toBeNull();
  });

  test("with bids: the current price, the count, 'Reserve not met' without its amount, the masked history", async () => {
    const container = await render({ productId: 5, initial: withBids({ hasReserve: true, reserveMet: false }) });
    expect(text(container.querySelector('[data-current-price]')!)).toBe('$21.00');
    expect(text(container.querySelector('[data-bid-count]')!)).toBe('3 bids');
    expect(text(container.querySelector('[data-reserve]')!)).toBe('Reserve not met');
    expect([...container.querySelectorAll('[data-bid]')].map((row) => row.firstElementChild!.textContent + row.children[1]!.textContent)).toEqual([
      'a***1$21.00',
      'b***2$20.00',
      'a***1$10.00',
    ]);
    const met = await render({ productId: 6, initial: withBids({ hasReserve: true, reserveMet: true }) });
    expect(text(met.querySelector('[data-reserve]')!)).toBe('Reserve met');
  });

  test("the viewer's standing comes with the read on load: the leader, and a bidder who was outbid, each with their own maximum", async () => {
    const leader = await render({ productId: 7, initial: withBids() }, withBids({ leading: true, youBid: true, yourMaximum: 30, payment: null }));
    await until(() => leader.querySelector('[data-standing]') !== null, 'the standing');
    expect(text(leader.querySelector('[data-standing]')!)).toBe("You're the highest bidder. Your maximum: $30.00.");
    // The leader may only raise their own maximum.
    expect(text(leader)).toContain('Enter $30.01 or more');
    const outbid = await render({ productId: 8, initial: withBids() }, withBids({ leading: false, youBid: true, yourMaximum: 20, payment: null }));
    await until(() => outbid.querySelector('[data-standing]') !== null, 'the standing');
    expect(text(outbid.querySelector('[data-standing]')!)).toBe("You've been outbid. Your maximum: $20.00.");
  });

  test("scheduled: 'Bidding opens' and the starting bid; over: sold, unsold, cancelled, with the history", async () => {
    const scheduled = await render({ productId: 9, initial: view({ status: 'scheduled', startsAt: new Date(NOW + 60 * MINUTE).toISOString() }) });
    expect(text(scheduled)).toContain('Bidding opens Nov 26');
    expect(text(scheduled)).toContain('$10.00');
    expect(scheduled.querySelector('input[name="maxAmount"]')).toBeNull();
    const sold = await render({ productId: 10, initial: withBids({ status: 'ended' }) });
    expect(text(sold.querySelector('[data-outcome]')!)).toContain('Sold for $21.00');
    expect(sold.querySelectorAll('[data-bid]')).toHaveLength(3);
    expect(sold.querySelector('input[name="maxAmount"]')).toBeNull();
    const reserveNotMet = await render({ productId: 22, initial: withBids({ status: 'ended', hasReserve: true, reserveMet: false }) });
    expect(text(reserveNotMet.querySelector('[data-outcome]')!)).toContain('Auction ended3 bids; the reserve price was not met.');
    expect(text(reserveNotMet)).not.toContain('Sold for');
    const unsold = await render({ productId: 11, initial: withBids({ status: 'unsold' }) });
    expect(text(unsold.querySelector('[data-outcome]')!)).toContain('Ended without a sale');
    const cancelled = await render({ productId: 12, initial: view({ status: 'cancelled' }) });
    expect(text(cancelled.querySelector('[data-outcome]')!)).toContain('Auction cancelled');
  });

  test('a double click sends one bid, with an Idempotency-Key; the placed bid shows the new standing', async () => {
    const container = await render({ productId: 13, initial: view() });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    answer = async (call) => {
      if (call.method === 'POST') {
        await held;
        return json({ leading: true, currentPrice: 10, bidCount: 1 }, 201);
      }
      return json(view({ currentPrice: 10, minimumBid: 11, bidCount: 1, leading: true, youBid: true, yourMaximum: 25, payment: null }));
    };
    calls = [];
    await bid(container, '25', 2);
    await until(() => calls.length > 0, 'the bid sent');
    release();
    await until(() => container.querySelector('[data-standing="leading"]') !== null, 'the leader told');
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ url: '/api/products/13/bids', body: { maxAmount: 25 } });
    expect(posts[0]!.key).toMatch(/^[0-9a-f-]{32,36}$/);
  });

  test('402 PAYMENT_METHOD_REQUIRED opens the payment-method-required dialog: Cancel, or Add Payment Method and back', async () => {
    const container = await render({ productId: 14, initial: view() });
    answer = (call) =>
      call.method === 'POST' ? json({ message: 'Add a payment card to your profile to bid.', code: 'PAYMENT_METHOD_REQUIRED' }, 402) : json(view());
    await bid(container, '12');
    await until(() => container.querySelector('dialog')?.open === true, 'the dialog');
    const dialog = container.querySelector('dialog')!;
    expect(text(dialog)).toContain('Payment method required');
    expect([...dialog.querySelectorAll('button')].map((b) => b.textContent)).toContain('Cancel');
    expect(dialog.querySelector('a')!.textContent).toBe('Add Payment Method');
    expect(dialog.querySelector('a')!.getAttribute('href')).toBe('/profile?tab=payment&next=%2Fproduct%2F14%3Fbid%3D12.00&from=auction');
  });

  test("400 and 409: the server's message by the field; 401: a sign-in link back to the page", async () => {
    const container = await render({ productId: 15, initial: view() });
    answer = (call) =>
      call.method === 'POST'
        ? json({ message: 'Enter an amount in whole cents.', fields: { maxAmount: 'Enter an amount in whole cents.' } }, 400)
        : json(view());
    await bid(container, '12');
    await until(() => container.querySelector('[data-field-error="maxAmount"]') !== null, 'the field message');
    expect(text(container.querySelector('[data-field-error="maxAmount"]')!)).toBe('Enter an amount in whole cents.');
    answer = (call) => (call.method === 'POST' ? json({ message: 'Bid at least $11.00', fields: { maxAmount: 'Bid at least $11.00' } }, 409) : json(view()));
    await bid(container, '10.5');
    await until(() => container.querySelector('[data-field-error="maxAmount"]')?.textContent === 'Bid at least $11.00', 'the 409 message');
    answer = (call) => (call.method === 'POST' ? json({ message: 'Please sign in' }, 401) : json(view()));
    await bid(container, '12');
    await until(() => container.querySelector('[data-sign-in] a') !== null, 'the sign-in link');
    expect(container.querySelector('[data-sign-in] a')!.getAttribute('href')).toBe('/auth?next=%2Fproduct%2F15%3Fbid%3D12.00');
  });

  test('403 PROFILE_INCOMPLETE: the profile dialog lists what is missing, with the way back', async () => {
    const container = await render({ productId: 20, initial: view() });
    answer = (call) =>
      call.method === 'POST' ? json({ message: 'Complete your profile first.', code: 'PROFILE_INCOMPLETE', missing: ['phone', 'address'] }, 403) : json(view());
    await bid(container, '12');
    await until(() => container.querySelector('dialog')?.open === true, 'the dialog');
    const dialog = container.querySelector('dialog')!;
    expect(text(dialog)).toContain('Complete your profile');
    expect([...dialog.querySelectorAll('[data-missing] li')].map(text)).toEqual(['Phone', 'Address']);
    expect(dialog.querySelector('a')!.getAttribute('href')).toBe('/profile?next=%2Fproduct%2F20%3Fbid%3D12.00&from=auction');
  });

  test("403 for unpaid auctions (issue 36): the server's words under the field, no dialog", async () => {
    const container = await render({ productId: 22, initial: view() });
    const words = 'You cannot bid while you have unpaid auctions';
    answer = (call) => (call.method === 'POST' ? json({ message: words, code: 'UNPAID_AUCTIONS' }, 403) : json(view()));
    await bid(container, '12');
    await until(() => container.querySelector('[data-field-error="maxAmount"]')?.textContent === words, 'the refusal', 5000);
    expect(container.querySelector('dialog')?.open ?? false).toBe(false);
  });

  test('without the live stream the panel polls the view', async () => {
    const container = await render({ productId: 21, initial: view(), pollMs: 30 });
    await until(() => FakeEventSource.last?.url.includes('product=21') === true, 'the stream for product 21');
    const stream = FakeEventSource.last!;
    answer = () => json(withBids());
    // The browser gave up on the stream: live.ts tells its subscribers to poll.
    stream.readyState = FakeEventSource.CLOSED;
    stream.onerror?.();
    await until(() => container.querySelector('[data-current-price]')?.textContent === '$21.00', 'the polled price');
    stream.readyState = FakeEventSource.OPEN;
    stream.onopen?.();
    // Its fast poll must not reach the next tests' fetch.
    const root = roots.pop()!;
    root.unmount();
    container.remove();
  });

  test('an amount under the least allowed is said by the field and never sent', async () => {
    const container = await render({ productId: 16, initial: withBids() });
    calls = [];
    await bid(container, '21.5');
    await until(() => container.querySelector('[data-field-error="maxAmount"]') !== null, 'the field message');
    expect(text(container.querySelector('[data-field-error="maxAmount"]')!)).toBe('Enter $22.00 or more');
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([]);
  });

  test('a live event moves the price, the count and the end (soft close); a bidder re-reads their standing once', async () => {
    const container = await render({ productId: 17, initial: withBids() }, withBids({ leading: true, youBid: true, yourMaximum: 30, payment: null }));
    await until(() => FakeEventSource.last?.url.includes('product=17') === true, 'the stream for product 17');
    calls = [];
    // The server's clock is 1:59 before the end; the new end is two minutes after the bid.
    const serverNow = NOW + 90 * MINUTE - 119_000;
    const newEnd = new Date(serverNow + 2 * MINUTE).toISOString();
    const live = withBids({ currentPrice: 31, minimumBid: 32, bidCount: 5, endsAt: newEnd, now: new Date(serverNow).toISOString() });
    answer = () => json({ ...live, leading: false, youBid: true, yourMaximum: 30, payment: null });
    FakeEventSource.last!.send('auction', { productId: 17, auction: live });
    await until(() => text(container.querySelector('[data-current-price]')!) === '$31.00', 'the new price');
    expect(text(container.querySelector('[data-bid-count]')!)).toBe('5 bids');
    expect(container.querySelector('[role="timer"]')!.getAttribute('data-ends-at')).toBe(newEnd);
    expect(container.querySelector('[role="timer"]')!.textContent).toMatch(/^00:0[12]:\d\d$/);
    // The broadcast says nothing of the viewer: their standing is re-read, once.
    await until(() => container.querySelector('[data-standing="outbid"]') !== null, 'the outbid standing');
    expect(calls.filter((call) => call.method === 'GET')).toHaveLength(1);
  });

  test("the money step: 'Pay' after a decline, 'Buy for' a second chance, each sent once with a key", async () => {
    const retry = { kind: 'retry' as const, amount: 218.7, price: 202.5, dueAt: new Date(NOW + 24 * 60 * MINUTE).toISOString() };
    const winner = await render(
      { productId: 18, initial: withBids({ status: 'ended' }) },
      withBids({ status: 'ended', leading: true, youBid: true, yourMaximum: 300, payment: retry }),
    );
    await until(() => winner.querySelector('[data-payment="retry"]') !== null, 'the payment step');
    expect(text(winner.querySelector('[data-payment="retry"]')!)).toContain('Your card was declined. Update your card, then Pay.');
    const payButton = [...winner.querySelectorAll('button')].find((b) => b.textContent === 'Pay $218.70')!;
    answer = (call) => (call.method === 'POST' ? json({ message: 'Your card was declined.' }, 402) : json(view()));
    calls = [];
    payButton.click();
    payButton.click();
    await until(() => winner.querySelector('[data-payment] [role="alert"]') !== null, 'the decline said');
    const posts = calls.filter((call) => call.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ url: '/api/products/18/auction/pay' });
    expect(posts[0]!.key).not.toBeNull();

    const offer = { kind: 'second_chance' as const, amount: 216, price: 200, dueAt: retry.dueAt };
    const runnerUp = await render(
      { productId: 19, initial: withBids({ status: 'ended' }) },
      withBids({ status: 'ended', youBid: true, yourMaximum: 200, payment: offer }),
    );
    await until(() => runnerUp.querySelector('[data-payment="second_chance"]') !== null, 'the offer');
    expect([...runnerUp.querySelectorAll('button')].map((b) => b.textContent)).toContain('Buy for $216.00');
  });
});
