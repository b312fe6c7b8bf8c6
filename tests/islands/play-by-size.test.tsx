import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { afterAll, beforeAll, describe, expect, mock, spyOn, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import type { PlayGameProps } from '../../src/shared/views/games.ts';
import { testManifest, seededApp } from '../helpers/app.ts';
import { islandProps } from '../helpers/html.ts';
import { until } from '../helpers/until.ts';
import { sizedProduct } from '../helpers/variants.ts';

/*
 * Issue 38 on the Play Now page: a game is for one size. A product sold in several offers its
 * sizes as links (`?size=M`), a sold-out one disabled; without a size the join posts nothing and
 * says 'Choose a size'; with one, the play and its payment carry its variantId.
 */

let unsized: PlayGameProps;
let sizedM: PlayGameProps;
let productId = 0;
let variants: Record<string, number> = {};
const realFetch = globalThis.fetch;

async function mountIsland(props: PlayGameProps): Promise<void> {
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  sessionStorage.clear();
  const page = renderDocument(
    await testManifest(),
    createElement('main', null, [
      createElement(Island, { key: 'play', name: 'PlayGame', props: { ...props, signedIn: true, hasCard: true, play: { consented: true, blocked: null } } }),
      createElement(Island, { key: 'toaster', name: 'Toaster', props: { initial: null } }),
    ]),
  );
  await startPageIslands(page);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length === 2, 'both islands to hydrate');
}

const labelled = (text: string) => [...document.querySelectorAll('button')].find((b) => b.textContent === text);
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
  ({ productId, variants } = sizedProduct(ctx.db, { S: 0, M: 2, L: 3 }, { brand: 'Size Tee', priceCents: 200, playEnabled: true }));
  unsized = islandProps<PlayGameProps>(await (await ctx.client().get(`/play/${productId}`)).text(), 'PlayGame');
  sizedM = islandProps<PlayGameProps>(await (await ctx.client().get(`/play/${productId}?size=M`)).text(), 'PlayGame');
  registerDom({ url: `http://localhost/play/${productId}`, width: 390, height: 844 });
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await unregisterDom();
});

describe('Play Now for a product sold in several sizes', () => {
  test('the page offers the sizes, S sold out; ?size=M chooses M', () => {
    expect(unsized.variantId).toBeUndefined();
    expect(unsized.sizes?.map((size) => [size.size, size.soldOut, size.closed === null])).toEqual([
      ['S', true, false],
      ['M', false, true],
      ['L', false, true],
    ]);
    expect(unsized.chooseSizeMessage).toBe('Choose a size: S, M or L.');
    expect(sizedM.variantId).toBe(variants.M!);
  });

  test('without a size: Choose a size, the sizes as links (S disabled), and a join posts nothing', async () => {
    await mountIsland(unsized);
    const section = document.querySelector('[data-size-choice]')!;
    expect(section.querySelector('h2')!.textContent).toBe('Choose a size');
    expect(section.querySelector('a[data-size="M"]')!.getAttribute('href')).toBe(`/play/${productId}?size=M`);
    expect(section.querySelector('a[data-size="S"]')).toBeNull();
    expect(section.querySelector('[data-size="S"]')!.getAttribute('aria-disabled')).toBe('true');
    const fetchMock = mock(async () => json(201, {}));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    await pickFive();
    labelled('Join Game - $1')!.click();
    await until(() => toastText().includes('Choose a size: S, M or L.'), 'the size request');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test('with M chosen: the play and its $1 carry M', async () => {
    await mountIsland(sizedM);
    expect(document.querySelector('[data-size-choice] h2')!.textContent).toBe('Size M');
    expect(document.querySelector('a[data-size="M"]')!.getAttribute('aria-current')).toBe('true');
    const fetchMock = mock(async (url: string) =>
      url === '/api/plays' ? json(201, { id: 7, status: 'pending' }) : json(201, { id: 7, status: 'entered', amount: 1 }),
    );
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const assign = spyOn(window.location, 'assign').mockImplementation(() => {});
    try {
      await pickFive();
      labelled('Join Game - $1')!.click();
      await until(() => assign.mock.calls.length === 1, 'the navigation');
      expect(assign).toHaveBeenCalledWith(`/product/${productId}?tab=competition&size=M`);
      const calls = fetchMock.mock.calls as unknown as FetchCall[];
      expect(JSON.parse(String(calls[0]![1].body))).toMatchObject({ productId, variantId: variants.M! });
      expect(JSON.parse(String(calls[1]![1].body))).toEqual({ productId, variantId: variants.M!, amount: 1, type: 'play', donateIfWon: false });
    } finally {
      assign.mockRestore();
    }
  });
});
