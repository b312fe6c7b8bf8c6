import { afterAll, beforeAll, describe, expect, mock, spyOn, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import { testManifest } from '../helpers/app.ts';
import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';

/*
 * Issue 27, item 6: buy now with an address outside 92651 is no dead end. The island says the
 * cart ships anywhere and its 'Add to cart and ship it' puts the product in the cart and opens it.
 */

const realFetch = globalThis.fetch;
const TEST_CARD = { gateway: 'test', applicationId: null, locationId: null, environment: 'sandbox' } as const;
const irvine = { name: 'Ivy Irvine', email: 'ivy@example.com', phone: '9495550191', line1: '1 Park Pl', city: 'Irvine', state: 'CA', postalCode: '92618' };
type FetchCall = [string, RequestInit];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const button = (pattern: RegExp) => [...document.querySelectorAll('button')].find((b) => pattern.test(b.textContent ?? ''));

async function mountBuyNow(): Promise<void> {
  const page = renderDocument(
    await testManifest(),
    createElement('main', null, [
      createElement(Island, {
        key: 'island',
        name: 'BuyNowCheckout',
        props: { product: { id: 7, priceCents: 4200 }, customer: irvine, config: TEST_CARD, savedCard: null },
      }),
      createElement(Island, { key: 'toaster', name: 'Toaster', props: { initial: null } }),
    ]),
  );
  await startPageIslands(page);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length === 2, 'the island to hydrate');
}

let assign: ReturnType<typeof spyOn>;
beforeAll(() => {
  registerDom({ url: 'http://localhost/checkout?productId=7', width: 390, height: 844 });
  assign = spyOn(window.location, 'assign').mockImplementation(() => {});
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  assign.mockRestore();
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await new Promise((resolve) => setTimeout(resolve, 20));
  await unregisterDom();
});

describe('buy now outside 92651', () => {
  for (const [name, answer] of [
    ['added', () => json(201, { id: 1, productId: 7, quantity: 1 })],
    ['already in the cart as often as there is stock', () => json(409, { message: 'Only 1 left in stock, and 1 already in your cart.' })],
  ] as const) {
    test(`Pay says the cart ships anywhere, nothing is paid; 'Add to cart and ship it' opens the cart (${name})`, async () => {
      await mountBuyNow();
      assign.mockClear();
      const fetchMock = mock(async () => answer());
      globalThis.fetch = fetchMock as unknown as typeof fetch;
      button(/^Pay \$/)!.click();
      await until(() => document.querySelector('[data-outside-area] [role="alert"]') !== null, 'the cart offer');
      expect(document.querySelector('[data-outside-area] [role="alert"]')!.textContent).toContain('Your cart ships anywhere in the US');
      expect(fetchMock).not.toHaveBeenCalled();
      const offer = button(/^Add to cart and ship it$/)!;
      await until(() => document.activeElement === offer, 'focus on the offer');
      offer.click();
      await until(() => assign.mock.calls.length === 1, 'the cart');
      expect(assign).toHaveBeenCalledWith('/cart');
      const calls = fetchMock.mock.calls as unknown as FetchCall[];
      expect(calls.map(([url, init]) => `${init.method} ${url} ${init.body}`)).toEqual(['POST /api/cart {"productId":7}']);
    });
  }
});
