import { afterAll, beforeAll, describe, expect, mock, spyOn, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import { DEMO_CHARITY } from '../../src/config.ts';
import { testManifest } from '../helpers/app.ts';
import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';

/*
 * Issue 29: the single-product checkout in donation mode asks no address (a shopper outside
 * 92651 donates as well), names the charity, and Pay sends `donate: true` without an address.
 */

const realFetch = globalThis.fetch;
const TEST_CARD = { gateway: 'test', applicationId: null, locationId: null, environment: 'sandbox' } as const;
const irvine = { name: 'Ivy Irvine', email: 'ivy@example.com', phone: '9495550191', line1: '1 Park Pl', city: 'Irvine', state: 'CA', postalCode: '92618' };
type FetchCall = [string, RequestInit];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const button = (pattern: RegExp) => [...document.querySelectorAll('button')].find((b) => pattern.test(b.textContent ?? ''));

async function mountDonation(): Promise<void> {
  const page = renderDocument(
    await testManifest(),
    createElement('main', null, [
      createElement(Island, {
        key: 'island',
        name: 'BuyNowCheckout',
        props: { product: { id: 7, priceCents: 4500 }, customer: irvine, config: TEST_CARD, savedCard: 'Visa ending in 1111', donation: DEMO_CHARITY },
      }),
      createElement(Island, { key: 'toaster', name: 'Toaster', props: { initial: null } }),
    ]),
  );
  await startPageIslands(page);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length === 2, 'the island to hydrate');
}

let assign: ReturnType<typeof spyOn>;
beforeAll(() => {
  registerDom({ url: 'http://localhost/checkout?productId=7&donate=1', width: 390, height: 844 });
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

describe('the checkout in donation mode', () => {
  test('names the charity, asks no address, and Pay sends donate: true with the donor only', async () => {
    await mountDonation();
    expect(document.querySelector('[data-charity]')!.textContent).toContain(DEMO_CHARITY.address);
    expect(document.querySelector('input[name="line1"]')).toBeNull();
    expect(document.querySelector('input[name="postalCode"]')).toBeNull();
    const fetchMock = mock(async () => json(201, { id: 5, orderId: 5 }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    button(/^Pay \$48\.60$/)!.click();
    await until(() => assign.mock.calls.length === 1, 'the confirmation');
    expect(assign).toHaveBeenCalledWith('/order-confirmation/5');
    const [url, init] = (fetchMock.mock.calls as unknown as FetchCall[])[0]!;
    expect(url).toBe('/api/orders');
    const body = JSON.parse(init.body as string);
    expect(body).toMatchObject({ productId: 7, donate: true, total: 48.6, customerInfo: { name: irvine.name, email: irvine.email, phone: irvine.phone } });
    expect(body.customerInfo.address).toBeUndefined();
    expect(body.shippingMethod).toBeUndefined();
  });
});
