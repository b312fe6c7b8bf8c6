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
 * Buy one, play free (issue 29) on the Play Now page: a player who holds a free entry is offered
 * 'Join Game - Free entry' beside the $1; the free join sends useFreeEntry (no amount) under its
 * own attempt key and says nothing was held; a 409 'none left' takes the offer away and keeps the $1.
 */

const PRODUCT_ID = 22; // The Old Man and the Sea: playable, $2, in stock.
let pageProps: PlayGameProps;
const realFetch = globalThis.fetch;

async function mountIsland(overrides: Partial<PlayGameProps>): Promise<void> {
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  sessionStorage.clear();
  const props = { ...pageProps, signedIn: true, hasCard: true, play: { consented: true, blocked: null }, ...overrides };
  const page = renderDocument(
    await testManifest(),
    createElement('main', null, [
      createElement(Island, { key: 'play', name: 'PlayGame', props }),
      createElement(Island, { key: 'toaster', name: 'Toaster', props: { initial: null } }),
    ]),
  );
  await startPageIslands(page);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length === 2, 'both islands to hydrate');
}

const buttons = () => [...document.querySelectorAll('button')];
const labelled = (text: string) => buttons().find((b) => b.textContent === text);
const selectButtons = () =>
  [...document.querySelectorAll<HTMLLIElement>('li[data-influencer]')].map((row) => row.querySelector<HTMLButtonElement>('button[aria-pressed]')!);
const toastText = () => document.querySelector('[data-toast]')?.textContent ?? '';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
type FetchCall = [string, RequestInit];

async function pickFive(): Promise<void> {
  labelled('View More')?.click();
  await until(() => selectButtons().length >= 5, 'the influencers');
  for (const select of selectButtons().slice(0, 5)) select.click();
  await until(() => selectButtons().filter((b) => b.getAttribute('aria-pressed') === 'true').length === 5, 'five picks');
}

beforeAll(async () => {
  const ctx = await seededApp();
  pageProps = islandProps<PlayGameProps>(await (await ctx.client().get(`/play/${PRODUCT_ID}`)).text(), 'PlayGame');
  registerDom({ url: `http://localhost/play/${PRODUCT_ID}`, width: 390, height: 844 });
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await unregisterDom();
});

describe('the free entry choice on the Play Now page', () => {
  test('without a free entry: only Join Game - $1', async () => {
    await mountIsland({ freeEntries: { count: 0, expiresAt: null } });
    expect(labelled('Join Game - $1')).toBeDefined();
    expect(labelled('Join Game - Free entry')).toBeUndefined();
  });

  test('with one: Join Game - Free entry sends useFreeEntry without an amount, under its own key, and says nothing was held', async () => {
    await mountIsland({ freeEntries: { count: 1, expiresAt: Date.UTC(2026, 11, 21) } });
    const fetchMock = mock(async (url: string) =>
      url === '/api/plays' ? json(201, { id: 7, playId: 7, status: 'pending' }) : json(201, { id: 7, status: 'entered', amount: 0 }),
    );
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      expect(labelled('Join Game - $1')).toBeDefined();
      await pickFive();
      labelled('Join Game - Free entry')!.click();
      await until(() => assign.mock.calls.length === 1, 'the navigation');
      expect(assign).toHaveBeenCalledWith(`/product/${PRODUCT_ID}?tab=competition`);
      const calls = fetchMock.mock.calls as unknown as FetchCall[];
      expect(calls.map(([url, init]) => `${init.method} ${url}`)).toEqual(['POST /api/plays', 'POST /api/payments']);
      expect(JSON.parse(String(calls[1]![1].body))).toEqual({ productId: PRODUCT_ID, type: 'play', useFreeEntry: true, donateIfWon: false });
      // A join of its own: its own key, so a lost answer is asked about again and the entry used once.
      expect((calls[1]![1].headers as Record<string, string>)['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
      const flash = decodeURIComponent(/csa_flash=([^;]+)/.exec(document.cookie)![1]!);
      expect(JSON.parse(flash)).toEqual({ title: "You're in!", description: 'You joined with a free entry: nothing was held on your card.' });
    } finally {
      assign.mockRestore();
    }
  });

  test('none left after all (409): the server says so, the free button goes, Join Game - $1 stays and pays $1', async () => {
    await mountIsland({ freeEntries: { count: 1, expiresAt: Date.UTC(2026, 11, 21) } });
    const message = 'You have no free game entry left. Join for $1 instead.';
    let payments = 0;
    const fetchMock = mock(async (url: string) => {
      if (url === '/api/plays') return json(201, { id: 7, playId: 7, status: 'pending' });
      payments += 1;
      return payments === 1 ? json(409, { message, code: 'NO_FREE_ENTRY' }) : json(201, { id: 7, status: 'entered', amount: 1 });
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      await pickFive();
      labelled('Join Game - Free entry')!.click();
      await until(() => toastText().includes(message), 'the refusal');
      await until(() => labelled('Join Game - Free entry') === undefined, 'the free button to go');
      labelled('Join Game - $1')!.click();
      await until(() => assign.mock.calls.length === 1, 'the navigation');
      const calls = fetchMock.mock.calls as unknown as FetchCall[];
      expect(JSON.parse(String(calls.at(-1)![1].body))).toEqual({ productId: PRODUCT_ID, amount: 1, type: 'play', donateIfWon: false });
    } finally {
      assign.mockRestore();
    }
  });
});
