import { afterAll, beforeAll, describe, expect, mock, spyOn, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import { testManifest } from '../helpers/app.ts';
import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';

/*
 * The order page's Retry payment (issue 28, item 5): a double click pays once, with an
 * Idempotency-Key; declined again says so and links to the card; paid goes to the confirmation.
 * Against a mocked fetch, under happy-dom.
 */

const realFetch = globalThis.fetch;
type FetchCall = [string, RequestInit & { headers: Record<string, string> }];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const retryButton = () => [...document.querySelectorAll('button')].find((b) => /Retry payment|Paying/.test(b.textContent ?? ''))!;

async function mount(): Promise<void> {
  const page = renderDocument(
    await testManifest(),
    createElement('main', null, [createElement(Island, { key: 'retry', name: 'AuctionRetry', props: { productId: 7, dueText: 'Nov 27, 2026, 10:00 AM' } })]),
  );
  await startPageIslands(page);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length === 1, 'the island to hydrate');
}

let assign: ReturnType<typeof spyOn>;
beforeAll(() => {
  registerDom({ url: 'http://localhost/orders/12', width: 390, height: 844 });
  assign = spyOn(window.location, 'assign').mockImplementation(() => {});
});

afterAll(async () => {
  globalThis.fetch = realFetch;
  assign.mockRestore();
  await unregisterDom();
});

describe('Retry payment', () => {
  test('declined again: one request per click with a key, the message and the way to change the card; then paid: the confirmation', async () => {
    await mount();
    expect(document.body.textContent).toContain('Pay by Nov 27, 2026, 10:00 AM to keep it.');
    let answer = () => json(402, { message: 'Card declined.', code: 'PAYMENT_FAILED', orderId: 12 });
    const fetchMock = mock(async () => answer());
    globalThis.fetch = fetchMock as unknown as typeof fetch;

    retryButton().click();
    retryButton().click();
    await until(() => document.querySelector('[role="alert"]') !== null, 'the decline to show');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [path, init] = fetchMock.mock.calls[0] as unknown as FetchCall;
    expect([path, init.method]).toEqual(['/api/products/7/auction/pay', 'POST']);
    const firstKey = init.headers['Idempotency-Key'];
    expect(firstKey).toBeString();
    expect(document.querySelector('[role="alert"]')!.textContent).toContain('Your card was declined again. Nothing was charged.');
    expect(document.querySelector('[role="alert"] a')!.getAttribute('href')).toBe('/profile?tab=payment');

    answer = () => json(201, { orderId: 12 });
    retryButton().click();
    await until(() => assign.mock.calls.length > 0, 'the move to the confirmation');
    expect(assign).toHaveBeenCalledWith('/order-confirmation/12');
    // A new attempt after the definite decline: a new key.
    const second = (fetchMock.mock.calls[1] as unknown as FetchCall)[1].headers['Idempotency-Key'];
    expect(second).not.toBe(firstKey);
  });
});
