import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import { testManifest } from '../helpers/app.ts';
import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';

/*
 * Issue 27: Apple Pay buttons showed in browsers that cannot use them. The checkout offers
 * 'Pay with Apple Pay' only when Square is the gateway and the browser's ApplePaySession says
 * it can pay; the server's HTML never has it (it cannot know the browser).
 */

const customer = {
  name: 'Sandy Shore',
  email: 'sandy@example.com',
  phone: '9495550123',
  line1: '1 Ocean Ave',
  city: 'Laguna Beach',
  state: 'CA',
  postalCode: '92651',
};
const checkout = (key: string, gateway: 'square' | 'test') =>
  createElement(
    'section',
    { key, id: key },
    createElement(Island, {
      name: 'BuyNowCheckout',
      props: {
        product: { id: 1, priceCents: 800 },
        customer,
        config: { gateway, applicationId: null, locationId: null, environment: 'sandbox' },
        savedCard: null,
      },
    }),
  );
let serverHtml = '';
const applePayIn = (id: string) => [...document.querySelectorAll(`#${id} button`)].some((b) => b.textContent === 'Pay with Apple Pay');

beforeAll(async () => {
  const manifest = await testManifest();
  serverHtml = renderDocument(manifest, createElement('main', null, [checkout('square-safari', 'square'), checkout('test-mode', 'test')]));
  registerDom({ url: 'http://localhost/checkout?productId=1' });
  (window as unknown as { ApplePaySession: unknown }).ApplePaySession = { canMakePayments: () => true };
  await startPageIslands(serverHtml);
  await until(() => applePayIn('square-safari'), 'the Apple Pay button where the browser can pay', 3000);
});

afterAll(async () => {
  delete (window as unknown as { ApplePaySession?: unknown }).ApplePaySession;
  await unregisterDom();
});

describe('Pay with Apple Pay', () => {
  test('never in the server HTML', () => {
    expect(serverHtml).not.toContain('Pay with Apple Pay');
  });

  test('shown with Square in a browser that can pay with it, not in test mode', () => {
    expect(applePayIn('square-safari')).toBe(true);
    expect(applePayIn('test-mode')).toBe(false);
  });
});
