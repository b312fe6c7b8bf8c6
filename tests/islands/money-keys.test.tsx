import { afterAll, beforeAll, describe, expect, mock, spyOn, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import { testManifest } from '../helpers/app.ts';
import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';
import { moneyPauses } from '../../src/islands/lib/money.ts';
import type { IslandName } from '../../src/islands/registry.ts';

/*
 * Issue 25, row 1: no money request leaves an island without an Idempotency-Key. One key per
 * attempt, made when the form loads; the same key on every try of it (a lost answer is asked
 * about again before Pay is offered); a new key once a definite answer ends the attempt; a
 * double submit sends once. Against a mocked fetch, under happy-dom.
 */

const realFetch = globalThis.fetch;
const TEST_CARD = { gateway: 'test', applicationId: null, locationId: null, environment: 'sandbox' } as const;
const customer = {
  name: 'Sandy Shore',
  email: 'sandy@example.com',
  phone: '9495550123',
  line1: '123 Ocean Ave',
  city: 'Laguna Beach',
  state: 'CA',
  postalCode: '92651',
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type FetchCall = [string, RequestInit & { headers: Record<string, string> }];
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const keysOf = (calls: FetchCall[]) => calls.map(([, init]) => init.headers['Idempotency-Key']);
const button = (pattern: RegExp) => [...document.querySelectorAll('button')].find((b) => pattern.test(b.textContent ?? ''))!;

async function mount(name: IslandName, props: Record<string, unknown>): Promise<void> {
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  const page = renderDocument(
    await testManifest(),
    createElement('main', null, [
      createElement(Island, { key: 'island', name, props }),
      createElement(Island, { key: 'toaster', name: 'Toaster', props: { initial: null } }),
    ]),
  );
  await startPageIslands(page);
  await until(() => document.querySelectorAll('[data-hydrated="true"]').length === 2, 'the island to hydrate');
}

const buyNow = () => mount('BuyNowCheckout', { product: { id: 3, priceCents: 4200 }, customer, config: TEST_CARD, savedCard: 'Visa •••• 1111' });

/*
 * The checks after a lost answer wait a twentieth of the shopper's pauses (still real timers, so
 * the states between them show): 400 + 1200 + 3000 ms made this file 5 s of waiting. The pauses
 * asked for are recorded, so the schedule itself is still checked.
 */
const realPause = moneyPauses.pause;
const pausesAsked: number[] = [];

let assign: ReturnType<typeof spyOn>;
beforeAll(() => {
  registerDom({ url: 'http://localhost/checkout?productId=3', width: 390, height: 844 });
  assign = spyOn(window.location, 'assign').mockImplementation(() => {});
  moneyPauses.pause = (ms) => {
    pausesAsked.push(ms);
    return realPause(ms / 20);
  };
});

afterAll(async () => {
  moneyPauses.pause = realPause;
  globalThis.fetch = realFetch;
  assign.mockRestore();
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await new Promise((resolve) => setTimeout(resolve, 20));
  await unregisterDom();
});

describe('buy now', () => {
  test('the answer to Pay is lost: the island asks again with the same key and body (Processing... meanwhile) and goes to the order', async () => {
    await buyNow();
    assign.mockClear();
    let tries = 0;
    const fetchMock = mock(async () => {
      tries++;
      if (tries === 1) throw new TypeError('Failed to fetch');
      return json(201, { id: 41, orderId: 41 });
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    button(/^Pay \$/).click();
    await until(() => button(/Processing/) !== undefined, 'Processing...');
    expect(button(/Processing/).disabled).toBe(true);
    await until(() => assign.mock.calls.length === 1, 'the confirmation');
    expect(assign).toHaveBeenCalledWith('/order-confirmation/41');
    const calls = fetchMock.mock.calls as unknown as FetchCall[];
    expect(calls.map(([url, init]) => `${init.method} ${url}`)).toEqual(['POST /api/orders', 'POST /api/orders']);
    const [first, second] = keysOf(calls);
    expect(first).toMatch(UUID);
    expect(second).toBe(first);
    expect(calls[1]![1].body).toBe(calls[0]![1].body);
  });

  test('a decline ends the attempt: the next Pay is a new key; a double submit sends once', async () => {
    await buyNow();
    const answers = [json(402, { message: 'Your card was declined. Please check your card details or use another card.', orderId: 9 }), json(201, { id: 10 })];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const fetchMock = mock(async () => {
      const answer = answers.shift()!;
      if (answer.status === 201) await held;
      return answer;
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    button(/^Pay \$/).click();
    await until(() => document.querySelector('p[role="alert"]')?.textContent?.includes('declined') === true, 'the decline next to the button');
    const form = document.querySelector('form')!;
    // Two submits in the same moment, before React re-renders the button disabled.
    form.requestSubmit();
    form.requestSubmit();
    await until(() => fetchMock.mock.calls.length === 2, 'the second try');
    release();
    await until(() => assign.mock.calls.at(-1)?.[0] === '/order-confirmation/10', 'the confirmation');
    const keys = keysOf(fetchMock.mock.calls as unknown as FetchCall[]);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toMatch(UUID);
    expect(keys[1]).not.toBe(keys[0]);
  });

  test('still no answer after the checks: the key and request are kept, Pay comes back saying so, and the next Pay asks with the same key', async () => {
    await buyNow();
    pausesAsked.length = 0;
    let online = false;
    const fetchMock = mock(async () => {
      if (!online) throw new TypeError('Failed to fetch');
      return json(201, { id: 12 });
    });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    button(/^Pay \$/).click();
    await until(() => document.querySelector('p[role="alert"]')?.textContent?.includes('could not reach the store') === true, 'the lost-answer message', 8000);
    const tries = fetchMock.mock.calls.length;
    expect(tries).toBeGreaterThan(1);
    expect(pausesAsked).toEqual([400, 1200, 3000]);
    expect(button(/^Pay \$/).disabled).toBe(false);
    online = true;
    // The form changed meanwhile: the open request is what is asked about, unchanged.
    (document.querySelector('input[name="name"]') as HTMLInputElement).value = 'Someone Else';
    button(/^Pay \$/).click();
    await until(() => assign.mock.calls.at(-1)?.[0] === '/order-confirmation/12', 'the confirmation');
    const calls = fetchMock.mock.calls as unknown as FetchCall[];
    expect(new Set(keysOf(calls)).size).toBe(1);
    expect(new Set(calls.map(([, init]) => init.body)).size).toBe(1);
  }, 15_000);
});

describe('the other money islands', () => {
  test('the cart checkout sends a key', async () => {
    await mount('CartCheckout', {
      lines: [{ id: 1, productId: 3, quantity: 1, priceCents: 4200, type: 'regular' }],
      customer: {
        fullName: 'Sandy Shore',
        email: 'sandy@example.com',
        phone: '9495550123',
        address: '123 Ocean Ave',
        city: 'Laguna Beach',
        state: 'CA',
        zipCode: '92651',
      },
      config: TEST_CARD,
      savedCard: 'Visa •••• 1111',
    });
    const fetchMock = mock(async () => json(201, { orderId: 77, id: 77 }));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    button(/^Complete Purchase$/).click();
    await until(() => assign.mock.calls.at(-1)?.[0] === '/order-confirmation/77', 'the confirmation');
    expect(keysOf(fetchMock.mock.calls as unknown as FetchCall[])[0]).toMatch(UUID);
  });

  test('the card save sends a key, the same one when its answer was lost', async () => {
    await mount('PaymentMethodForm', { config: TEST_CARD, card: null, type: 'card' });
    for (const [selector, value] of [
      ['input[autocomplete="cc-number"]', '4111 1111 1111 1111'],
      ['input[autocomplete="cc-exp"]', '12/30'],
      ['input[autocomplete="cc-csc"]', '123'],
    ] as const) {
      const input = document.querySelector(selector) as HTMLInputElement;
      input.value = value;
      // happy-dom's input events do not reach React's onChange here: call the field's own handler.
      const props = Object.entries(input).find(([name]) => name.startsWith('__reactProps$'))![1] as { onChange: (event: { target: HTMLInputElement }) => void };
      props.onChange({ target: input });
    }
    let tries = 0;
    const fetchMock = mock(async () => (++tries === 1 ? json(503, { message: 'Service Unavailable' }) : json(200, {})));
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    button(/^Save Card$/).click();
    await until(() => assign.mock.calls.at(-1)?.[0] === '/profile?tab=payment', 'back to the Payment tab');
    const calls = fetchMock.mock.calls as unknown as FetchCall[];
    expect(calls.map(([url, init]) => `${init.method} ${url}`)).toEqual(['PATCH /api/user/profile', 'PATCH /api/user/profile']);
    const [first, second] = keysOf(calls);
    expect(first).toMatch(UUID);
    expect(second).toBe(first);
  });
});
