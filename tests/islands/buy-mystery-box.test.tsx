import { afterAll, beforeAll, describe, expect, mock, spyOn, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import { testManifest } from '../helpers/app.ts';
import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';

/*
 * 'Buy Mystery Box' (islands/BuyMysteryBox.tsx), the shop's money button: a double click on Pay
 * sends one request with an Idempotency-Key and the commitment the shopper saw; no card on file,
 * or the server's 402 for it, opens the payment-method dialog instead of charging.
 */

const realFetch = globalThis.fetch;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const HASH = 'ab'.repeat(32);
type FetchCall = [string, RequestInit & { headers: Record<string, string> }];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const button = (pattern: RegExp) => [...document.querySelectorAll('button')].find((b) => pattern.test(b.textContent ?? ''))!;
const openDialog = () => [...document.querySelectorAll('dialog')].find((d) => d.open);

async function mount(card: string | null, sized: { size: string; back: string } | Record<string, never> = {}): Promise<void> {
  const page = renderDocument(
    await testManifest(),
    createElement('main', null, [
      createElement(Island, {
        key: 'island',
        name: 'BuyMysteryBox',
        props: { type: 'sunglasses', name: 'Sunglasses mystery box', price: 100, total: 108, seedHash: HASH, card, ...sized },
      }),
      createElement(Island, { key: 'toaster', name: 'Toaster', props: { initial: null } }),
    ]),
  );
  await startPageIslands(page);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length === 2, 'the island to hydrate');
}

let assign: ReturnType<typeof spyOn>;
beforeAll(() => {
  registerDom({ url: 'http://localhost/mystery', width: 390, height: 844 });
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

describe('Buy Mystery Box', () => {
  test('confirm, then a double click on Pay: one request with a key, the price and commitment seen; then the order page', async () => {
    await mount('Visa •••• 1111');
    assign.mockClear();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const fetchMock = mock(async () => {
      await held;
      return json(201, { id: 7, orderId: 7 });
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    button(/^Buy Mystery Box/).click();
    expect(openDialog()?.textContent).toContain('$108.00 charged to your Visa •••• 1111');
    button(/^Pay \$108\.00/).click();
    button(/^Pay \$108\.00|Buying/).click();
    release();
    await until(() => fetchMock.mock.calls.length > 0, 'the request');
    await until(() => assign.mock.calls.length === 1, 'the order page');
    expect(assign.mock.calls).toEqual([['/orders/7']]);
    const calls = fetchMock.mock.calls as unknown as FetchCall[];
    expect(calls.map(([url, init]) => `${init.method} ${url}`)).toEqual(['POST /api/mystery-boxes/sunglasses/orders']);
    expect(calls[0]![1].headers['Idempotency-Key']).toMatch(UUID);
    expect(JSON.parse(String(calls[0]![1].body))).toEqual({ seedHash: HASH, price: 100 });
  });

  test('no card on file: the payment-method dialog, and nothing is sent', async () => {
    await mount(null);
    const fetchMock = mock(async () => json(500, {}));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    button(/^Buy Mystery Box/).click();
    const link = openDialog()?.querySelector('a');
    expect(link?.textContent).toBe('Add Payment Method');
    expect(link?.getAttribute('href')).toBe('/profile?tab=payment&next=%2Fmystery');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  test("the server's 402 for a missing card opens the same dialog", async () => {
    await mount('Visa •••• 1111');
    globalThis.fetch = mock(async () =>
      json(402, { message: 'Add a payment card to your profile to buy a mystery box.', code: 'PAYMENT_METHOD_REQUIRED' }),
    ) as unknown as typeof fetch;
    button(/^Buy Mystery Box/).click();
    button(/^Pay \$108\.00/).click();
    await until(() => openDialog()?.querySelector('a')?.textContent === 'Add Payment Method', 'the payment-method dialog');
  });

  test('a box bought in a size (issue 38): the button and the dialog name it, the request sends it, a detour comes back to it', async () => {
    const back = '/mystery?box=tshirt&size=M#box-tshirt';
    await mount('Visa •••• 1111', { size: 'M', back });
    const fetchMock = mock(async () => json(402, { message: 'Add a payment card to your profile to buy a mystery box.', code: 'PAYMENT_METHOD_REQUIRED' }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    button(/^Buy Mystery Box in M/).click();
    expect(openDialog()?.textContent).toContain('in size M?');
    button(/^Pay \$108\.00/).click();
    await until(() => openDialog()?.querySelector('a')?.textContent === 'Add Payment Method', 'the payment-method dialog');
    expect(openDialog()?.querySelector('a')?.getAttribute('href')).toBe(`/profile?tab=payment&next=${encodeURIComponent(back)}`);
    const calls = fetchMock.mock.calls as unknown as FetchCall[];
    expect(JSON.parse(String(calls[0]![1].body))).toEqual({ seedHash: HASH, price: 100, size: 'M' });
  });
});
