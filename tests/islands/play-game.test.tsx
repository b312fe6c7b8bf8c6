import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { afterAll, beforeAll, describe, expect, mock, spyOn, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import type { PlayGameProps } from '../../src/shared/views/games.ts';
import { testManifest, seededApp } from '../helpers/app.ts';
import { islandProps } from '../helpers/html.ts';
import { until } from '../helpers/until.ts';

/*
 * The Play Now page: first as the server renders it for a signed-out visitor, hydrated under
 * happy-dom by the real island runtime; then the island alone with the props of a signed-in
 * shopper with and without a card, against a mocked fetch.
 */

const PRODUCT_ID = 22; // The Old Man and the Sea: playable, $2, in stock.
let html = '';
let pageProps: PlayGameProps;
const errors: unknown[] = [];
const realFetch = globalThis.fetch;
const originalError = console.error;

async function hydrate(page: string, islandCount: number, keepStorage = false): Promise<void> {
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  if (!keepStorage) sessionStorage.clear();
  await startPageIslands(page);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length === islandCount, `${islandCount} islands to hydrate`);
}

/** The island alone (and the toast viewport) with other props, as a signed-in shopper would get it. */
async function mountIsland(overrides: Partial<PlayGameProps>, keepStorage = false): Promise<void> {
  // A signed-in player who has already confirmed 18+ and the rules, unless a test says otherwise.
  const props = { ...pageProps, ...(overrides.signedIn ? { play: { consented: true, blocked: null } } : {}), ...overrides };
  const page = renderDocument(
    await testManifest(),
    createElement('main', null, [
      createElement(Island, { key: 'play', name: 'PlayGame', props }),
      createElement(Island, { key: 'toaster', name: 'Toaster', props: { initial: null } }),
    ]),
  );
  await hydrate(page, 2, keepStorage);
}

const buttons = () => [...document.querySelectorAll('button')];
const button = (text: string) => {
  const found = buttons().find((b) => b.textContent === text);
  if (!found) throw new Error(`no button "${text}"`);
  return found;
};
const rows = () => [...document.querySelectorAll<HTMLLIElement>('li[data-influencer]')];
const selectButtons = () => rows().map((row) => row.querySelector<HTMLButtonElement>('button[aria-pressed]')!);
const pressedCount = () => selectButtons().filter((b) => b.getAttribute('aria-pressed') === 'true').length;
const toastText = () => document.querySelector('[data-toast]')?.textContent ?? '';
const joinButton = () => buttons().find((b) => /^(Join Game - \$1|Joining\.\.\.)$/.test(b.textContent ?? ''))!;

async function pick(count: number): Promise<void> {
  if (rows().length < count) {
    button('View More').click();
    await until(() => rows().length === pageProps.influencers.length, 'all influencers');
  }
  for (const select of selectButtons().slice(0, count)) {
    if (select.getAttribute('aria-pressed') !== 'true') select.click();
  }
  await until(() => pressedCount() === count, `${count} picks`);
}

async function clearToast(): Promise<void> {
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await until(() => document.querySelector('[data-toast]') === null, 'the toast to go');
}

type FetchCall = [string, RequestInit];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeAll(async () => {
  const ctx = await seededApp();
  html = await (await ctx.client().get(`/play/${PRODUCT_ID}`)).text();
  pageProps = islandProps<PlayGameProps>(html, 'PlayGame');
  registerDom({ url: `http://localhost/play/${PRODUCT_ID}`, width: 390, height: 844 });
  console.error = (...args: unknown[]) => {
    errors.push(args);
    originalError(...args);
  };
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  console.error = originalError;
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await new Promise((resolve) => setTimeout(resolve, 20));
  await unregisterDom();
});

describe('PlayGame on the server-rendered page (signed out)', () => {
  test('hydrates over the server HTML without console errors', async () => {
    expect(pageProps.signedIn).toBe(false);
    expect(pageProps.influencers.length).toBeGreaterThan(5);
    await hydrate(html, 2); // PlayGame and the Toaster
    expect(errors).toEqual([]);
    expect(document.querySelector('h1')!.textContent).toBe('The Old Man and the Sea');
    expect(document.body.textContent).toContain('Entry: $1');
    expect(document.body.textContent).toContain('0 of 2 players joined');
    expect(document.querySelector('[role="progressbar"]')!.getAttribute('aria-valuenow')).toBe('0');
    const scoring = [...document.querySelectorAll('main details')].find((d) =>
      d.querySelector('summary')!.textContent!.includes('How are influencers scored?'),
    )!;
    expect(scoring.textContent).toContain('minute by minute');
    for (const metric of ['Followers gained', 'Engagement', 'Growth', 'Posts']) expect(scoring.textContent).toContain(metric);
    const steps = [...document.querySelectorAll('main ol > li')].map((li) => li.textContent);
    expect(steps).toHaveLength(3);
    expect(steps[0]).toContain('Pick 5 influencers');
    expect(steps[1]).toContain('Pay $1 to enter');
    expect(steps[2]).toContain('wins the product for $1');
    expect(joinButton().textContent).toBe('Join Game - $1');
  });

  test('shows 3 influencers, all of them after View More, and 3 again after Show Less', async () => {
    expect(rows()).toHaveLength(3);
    const more = button('View More');
    expect(more.getAttribute('aria-expanded')).toBe('false');
    more.click();
    await until(() => rows().length === pageProps.influencers.length, 'all influencers');
    expect(more.getAttribute('aria-expanded')).toBe('true');
    expect(more.textContent).toBe('Show Less');
    const first = rows()[0]!;
    const person = pageProps.influencers[0]!;
    expect(first.textContent).toContain(person.name);
    expect(first.textContent).toContain(person.handle);
    expect(first.textContent).toContain(person.score.toFixed(1));
    expect(first.querySelector('img')!.getAttribute('src')).toBe(person.avatar);
    const platform = Object.keys(person.platforms)[0]!;
    expect(first.textContent!.toLowerCase()).toContain(`${platform} ${person.platforms[platform]}`.toLowerCase());
    button('Show Less').click();
    await until(() => rows().length === 3, 'three influencers');
  });

  test('a 6th pick is refused with the Maximum reached toast and 5 stay selected', async () => {
    await pick(6 - 1);
    expect(document.body.textContent).toContain('5/5 selected');
    const sixth = selectButtons()[5]!;
    sixth.click();
    await until(() => toastText().includes('Maximum reached'), 'the Maximum reached toast');
    expect(toastText()).toContain('Maximum reached: You can only select up to 5 influencers.');
    expect(pressedCount()).toBe(5);
    expect(sixth.getAttribute('aria-pressed')).toBe('false');
    await clearToast();
  });

  test('Join with 4 picks says Selection incomplete', async () => {
    selectButtons()[0]!.click();
    await until(() => pressedCount() === 4, 'a deselection');
    expect(document.body.textContent).toContain('4/5 selected');
    joinButton().click();
    await until(() => toastText().includes('Selection incomplete'), 'the Selection incomplete toast');
    expect(toastText()).toContain('Please select exactly 5 influencers.');
    await clearToast();
  });

  test('signed out, Join says Authentication required and goes to /auth, keeping the picks', async () => {
    const fetchMock = mock(async () => json(500, {}));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      selectButtons()[0]!.click();
      await until(() => pressedCount() === 5, 'five picks');
      joinButton().click();
      await until(() => toastText().includes('Authentication required'), 'the Authentication required toast');
      expect(toastText()).toContain('Please login or register to place a play.');
      expect(assign).toHaveBeenCalledWith(`/auth?next=/play/${PRODUCT_ID}`);
      expect(fetchMock).not.toHaveBeenCalled();
      const saved = JSON.parse(sessionStorage.getItem(`csa:play-picks:${PRODUCT_ID}`)!) as number[];
      expect(saved).toHaveLength(5);
    } finally {
      assign.mockRestore();
    }
    await clearToast();
  });

  test('the detail dialog shows per-platform metric bars scaled as spec section 9', async () => {
    const person = pageProps.influencers[0]!;
    const dialog = document.querySelectorAll('dialog')[0]!;
    expect(dialog.open).toBe(false);
    rows()[0]!.querySelector<HTMLButtonElement>(`button[aria-label="Details for ${person.name}"]`)!.click();
    await until(() => dialog.open && dialog.querySelector('h2') !== null, 'the detail dialog');
    expect(dialog.querySelector('h2')!.textContent).toBe(person.name);
    const sections = [...dialog.querySelectorAll<HTMLElement>('section[data-platform]')];
    expect(sections.map((s) => s.dataset.platform)).toEqual(Object.keys(person.metrics));
    const expected = (metric: string, value: number) =>
      Math.round(Math.min(100, { followers: (value / 10_000_000) * 100, engagement: value * 5, growth: value * 5, posts: value * 2 }[metric]!) * 100) / 100;
    for (const section of sections) {
      const metrics = person.metrics[section.dataset.platform!]!;
      expect(section.querySelector('h3')!.textContent).toContain(person.platforms[section.dataset.platform!]!);
      const items = [...section.querySelectorAll<HTMLLIElement>('li[data-metric]')];
      expect(items.map((li) => li.dataset.metric)).toEqual(['followers', 'engagement', 'growth', 'posts']);
      for (const item of items) {
        const metric = item.dataset.metric as keyof typeof metrics;
        const width = item.querySelector<HTMLElement>('[data-bar]')!.style.width;
        expect(width).toBe(`${expected(metric, metrics[metric])}%`);
      }
      expect(items[1]!.textContent).toContain(`${metrics.engagement.toFixed(2)}%`);
    }
    // 2.4M followers fill 24% of the bar; large values never pass 100%.
    const sample = sections[0]!.querySelector<HTMLElement>('li[data-metric="followers"] [data-bar]')!;
    expect(Number.parseFloat(sample.style.width)).toBeCloseTo((person.metrics[sections[0]!.dataset.platform!]!.followers / 1e7) * 100, 1);
    const close = dialog.querySelector<HTMLButtonElement>('button[aria-label="Close"]')!;
    close.click();
    await until(() => !dialog.open, 'the dialog to close');
    expect(errors).toEqual([]);
  });
});

describe('PlayGame for a signed-in shopper', () => {
  test('picks kept before signing in come back', async () => {
    const ids = pageProps.influencers.slice(0, 5).map((p) => p.id);
    sessionStorage.setItem(`csa:play-picks:${PRODUCT_ID}`, JSON.stringify(ids));
    await mountIsland({ signedIn: true, hasCard: true }, true);
    await until(() => document.body.textContent!.includes('5/5 selected'), 'the restored picks');
    expect(sessionStorage.getItem(`csa:play-picks:${PRODUCT_ID}`)).toBeNull();
  });

  test('without a card on file, Join opens the payment-method-required dialog and calls nothing', async () => {
    await mountIsland({ signedIn: true, hasCard: false });
    const fetchMock = mock(async () => json(500, {}));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    await pick(5);
    const dialog = [...document.querySelectorAll('dialog')].find((d) => d.textContent!.includes('Payment method required'))!;
    expect(dialog.open).toBe(false);
    joinButton().click();
    await until(() => dialog.open, 'the payment dialog');
    expect(dialog.querySelector('h2')!.textContent).toBe('Payment method required');
    const add = [...dialog.querySelectorAll('a')].find((a) => a.textContent === 'Add Payment Method')!;
    // The Payment tab brings the player back to this game once the card is saved.
    expect(add.getAttribute('href')).toBe(`/profile?tab=payment&next=${encodeURIComponent(`/play/${PRODUCT_ID}`)}`);
    expect(fetchMock).not.toHaveBeenCalled();
    [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Cancel')!.click();
    expect(dialog.open).toBe(false);
  });

  test('a 402 PAYMENT_METHOD_REQUIRED from the server opens the same dialog', async () => {
    await mountIsland({ signedIn: true, hasCard: true });
    const fetchMock = mock(async () => json(402, { message: 'Add a payment card to your profile to play.', code: 'PAYMENT_METHOD_REQUIRED' }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    await pick(5);
    joinButton().click();
    const dialog = [...document.querySelectorAll('dialog')].find((d) => d.textContent!.includes('Payment method required'))!;
    await until(() => dialog.open, 'the payment dialog');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // The button comes back in a render after the dialog's.
    await until(() => joinButton().textContent === 'Join Game - $1', 'the Join button back');
    expect(joinButton().textContent).toBe('Join Game - $1');
    dialog.close();
  });

  test('a first-time player confirms 18+ and the rules in a dialog, once; then the join goes on by itself', async () => {
    await mountIsland({ signedIn: true, hasCard: true, play: { consented: false, blocked: null } });
    const fetchMock = mock(async (url: string) => {
      if (url === '/api/user/play-consent') return json(200, { consented: true });
      if (url === '/api/plays') return json(201, { id: 7, playId: 7, status: 'pending' });
      return json(201, { id: 7, status: 'entered', amount: 1 });
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      await pick(5);
      joinButton().click();
      const dialog = [...document.querySelectorAll('dialog')].find((d) => d.textContent!.includes('Before your first game'))!;
      await until(() => dialog.open, 'the consent dialog');
      expect(fetchMock).not.toHaveBeenCalled();
      const confirm = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Confirm and join')!;
      expect(confirm.disabled).toBe(true);
      for (const box of dialog.querySelectorAll<HTMLInputElement>('input[type="checkbox"]')) box.click();
      await until(() => !confirm.disabled, 'both boxes ticked');
      confirm.click();
      await until(() => assign.mock.calls.length === 1, 'the navigation');
      const calls = fetchMock.mock.calls as unknown as FetchCall[];
      expect(calls.map(([url]) => url)).toEqual(['/api/user/play-consent', '/api/plays', '/api/payments']);
      expect(JSON.parse(String(calls[0]![1].body))).toEqual({ adult: true, acceptRules: true });
      expect(dialog.open).toBe(false);
    } finally {
      assign.mockRestore();
    }
  });

  test('a self-excluded player sees why instead of Join; a 403 from the server says the same', async () => {
    await mountIsland({
      signedIn: true,
      hasCard: true,
      play: { consented: true, blocked: 'You have excluded yourself from games permanently, so you cannot enter.' },
    });
    expect(document.querySelector('[data-blocked]')!.textContent).toBe('You have excluded yourself from games permanently, so you cannot enter.');
    expect(buttons().some((b) => b.textContent === 'Join Game - $1')).toBe(false);
  });

  test('the happy path: POST /api/plays with 5 string ids, then POST /api/payments, then the competition tab', async () => {
    await mountIsland({ signedIn: true, hasCard: true });
    let release: () => void = () => {};
    const paid = new Promise<void>((resolve) => (release = resolve));
    const fetchMock = mock(async (url: string) => {
      if (url === '/api/plays') return json(201, { id: 7, playId: 7, status: 'pending' });
      await paid;
      return json(201, { id: 7, status: 'entered', amount: 1 });
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      await pick(5);
      joinButton().click();
      await until(() => joinButton().textContent === 'Joining...', 'the busy button');
      expect(joinButton().disabled).toBe(true);
      release();
      await until(() => assign.mock.calls.length === 1, 'the navigation');
      expect(assign).toHaveBeenCalledWith(`/product/${PRODUCT_ID}?tab=competition`);
      const calls = fetchMock.mock.calls as unknown as FetchCall[];
      expect(calls.map(([url, init]) => `${init.method} ${url}`)).toEqual(['POST /api/plays', 'POST /api/payments']);
      const play = JSON.parse(String(calls[0]![1].body)) as { productId: number; influencerIds: unknown[] };
      expect(play.productId).toBe(PRODUCT_ID);
      expect(play.influencerIds).toEqual(pageProps.influencers.slice(0, 5).map((p) => String(p.id)));
      expect(play.influencerIds.every((id) => typeof id === 'string')).toBe(true);
      expect(JSON.parse(String(calls[1]![1].body))).toEqual({ productId: PRODUCT_ID, amount: 1, type: 'play', donateIfWon: false });
      expect(calls[1]![1].credentials).toBe('include');
      // The $1 entry is money: it carries the attempt's Idempotency-Key (issue 25).
      expect((calls[1]![1].headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
      const flash = decodeURIComponent(/csa_flash=([^;]+)/.exec(document.cookie)![1]!);
      expect(JSON.parse(flash)).toEqual({ title: "You're in!", description: 'Your $1 entry is held on your card until the game ends.' });
    } finally {
      assign.mockRestore();
    }
  });

  test('a failed payment says Play failed with the server message and tells the bell', async () => {
    await mountIsland({ signedIn: true, hasCard: true });
    const message = 'Your card was declined, so you were not entered. Update your payment method and try again.';
    const fetchMock = mock(async (url: string) => (url === '/api/plays' ? json(201, { id: 8 }) : json(402, { message, code: 'CARD_DECLINED' })));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    let told = 0;
    const listener = () => told++;
    const { NOTIFICATIONS_CHANGED } = await import('../../src/islands/lib/events.ts');
    window.addEventListener(NOTIFICATIONS_CHANGED, listener);
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      await pick(5);
      joinButton().click();
      await until(() => toastText().includes('Play failed'), 'the Play failed toast');
      expect(toastText()).toContain(message);
      expect(document.querySelector('[data-toast]')!.getAttribute('data-variant')).toBe('destructive');
      expect(told).toBe(1);
      expect(assign).not.toHaveBeenCalled();
      // The button comes back in the render after the toast's.
      await until(() => joinButton().textContent === 'Join Game - $1', 'the Join button back');
      expect(joinButton().textContent).toBe('Join Game - $1');
      const dialog = [...document.querySelectorAll('dialog')].find((d) => d.textContent!.includes('Payment method required'))!;
      expect(dialog.open).toBe(false);
    } finally {
      window.removeEventListener(NOTIFICATIONS_CHANGED, listener);
      assign.mockRestore();
    }
    await clearToast();
  });

  test('a refused play (409) says Play failed without touching the bell', async () => {
    await mountIsland({ signedIn: true, hasCard: true });
    globalThis.fetch = mock(async () => json(409, { message: 'You have already joined this game.' })) as unknown as typeof fetch;
    let told = 0;
    const listener = () => told++;
    const { NOTIFICATIONS_CHANGED } = await import('../../src/islands/lib/events.ts');
    window.addEventListener(NOTIFICATIONS_CHANGED, listener);
    try {
      await pick(5);
      joinButton().click();
      await until(() => toastText().includes('Play failed'), 'the Play failed toast');
      expect(toastText()).toContain('You have already joined this game.');
      expect(told).toBe(0);
    } finally {
      window.removeEventListener(NOTIFICATIONS_CHANGED, listener);
    }
    await clearToast();
    expect(errors).toEqual([]);
  });
});

describe('PlayGame detours keep the picks and name the way on (issue 27)', () => {
  const detour = () =>
    [...document.querySelectorAll('dialog')].find((d) => d.id.endsWith('-detour') || d.getAttribute('aria-labelledby')?.includes('-detour'))!;
  const savedPicks = () => JSON.parse(sessionStorage.getItem(`csa:play-picks:${PRODUCT_ID}`) ?? '[]') as number[];

  test('a declined card opens a dialog linking to the card tab; the picks are kept', async () => {
    await mountIsland({ signedIn: true, hasCard: true });
    const actionUrl = `/profile?tab=payment&next=${encodeURIComponent(`/play/${PRODUCT_ID}`)}`;
    globalThis.fetch = mock(async (url: string) =>
      url === '/api/plays'
        ? json(201, { id: 7, status: 'pending' })
        : json(402, { message: 'Your card was declined, so you were not entered and nothing was held.', code: 'GENERIC_DECLINE', declined: true, actionUrl }),
    ) as unknown as typeof fetch;
    await pick(5);
    joinButton().click();
    await until(() => detour().open, 'the decline dialog');
    expect(detour().querySelector('h2')!.textContent).toBe('Card declined');
    const link = [...detour().querySelectorAll('a')].find((a) => a.textContent === 'Update payment card')!;
    expect(link.getAttribute('href')).toBe(actionUrl);
    expect(savedPicks()).toHaveLength(5);
    detour().close();
    sessionStorage.clear();
  });

  test('an incomplete profile lists what is missing and links to the profile; the picks are kept', async () => {
    await mountIsland({ signedIn: true, hasCard: true });
    globalThis.fetch = mock(async () =>
      json(403, { message: 'Please complete your profile information.', code: 'PROFILE_INCOMPLETE', missing: ['phone', 'postal code'] }),
    ) as unknown as typeof fetch;
    await pick(5);
    joinButton().click();
    await until(() => detour().open, 'the profile dialog');
    expect([...detour().querySelectorAll('[data-missing] li')].map((li) => li.textContent)).toEqual(['Phone', 'Postal code']);
    const link = [...detour().querySelectorAll('a')].find((a) => a.textContent === 'Complete my profile')!;
    expect(link.getAttribute('href')).toBe(`/profile?next=${encodeURIComponent(`/play/${PRODUCT_ID}`)}`);
    expect(savedPicks()).toHaveLength(5);
    detour().close();
    sessionStorage.clear();
  });

  test('outside 92651, Join without the charity box asks for it and calls nothing; ticked, both calls carry donateIfWon', async () => {
    await mountIsland({ signedIn: true, hasCard: true, prizeDelivery: 'elsewhere' });
    const fetchMock = mock(async (url: string) => (url === '/api/plays' ? json(201, { id: 7, status: 'pending' }) : json(201, { id: 7, status: 'entered' })));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      await pick(5);
      expect(document.body.textContent).toContain('Prizes are delivered in Laguna Beach (92651) only.');
      joinButton().click();
      await until(() => document.querySelector('[role="alert"]')?.textContent?.includes('If I win, the prize goes to charity') === true, 'the box asked for');
      expect(fetchMock).not.toHaveBeenCalled();
      const box = document.querySelector<HTMLInputElement>('[data-prize-delivery] input[type="checkbox"]')!;
      expect(document.activeElement).toBe(box);
      box.click();
      await until(() => box.checked, 'the box ticked');
      joinButton().click();
      await until(() => assign.mock.calls.length === 1, 'the navigation');
      const calls = fetchMock.mock.calls as unknown as FetchCall[];
      expect(calls.map(([, init]) => JSON.parse(String(init.body)).donateIfWon)).toEqual([true, true]);
    } finally {
      assign.mockRestore();
    }
    await clearToast();
  });
});
