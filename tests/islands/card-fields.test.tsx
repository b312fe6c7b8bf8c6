import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createElement } from 'react';
import { Island } from '../../src/components/Island.tsx';
import { renderDocument } from '../../src/components/render-document.tsx';
import { testManifest } from '../helpers/app.ts';
import { registerDom, startPageIslands, unregisterDom } from '../helpers/dom.ts';
import { until } from '../helpers/until.ts';

/* The card entry when Square is the gateway but its ids are missing: the shopper is told, and cannot pay. */

const customer = {
  name: 'Sandy Shore',
  email: 'sandy@example.com',
  phone: '9495550123',
  line1: '123 Ocean Ave',
  city: 'Laguna Beach',
  state: 'CA',
  postalCode: '92651',
};

beforeAll(async () => {
  const manifest = await testManifest();
  const html = renderDocument(
    manifest,
    createElement('main', null, [
      createElement(Island, {
        key: 'checkout',
        name: 'BuyNowCheckout',
        props: {
          product: { id: 1, priceCents: 800 },
          customer,
          config: { gateway: 'square', applicationId: null, locationId: null, environment: 'sandbox' },
          savedCard: null,
        },
      }),
      createElement(Island, { key: 'toaster', name: 'Toaster', props: { initial: null } }),
    ]),
  );
  registerDom({ url: 'http://localhost/checkout?productId=1' });
  await startPageIslands(html);
  // The toast and the inline message render in separate updates: wait for both.
  await until(
    () => document.querySelector('[data-toast]') !== null && document.body.textContent!.includes('The card form could not load.'),
    'the toast and the inline message',
    3000,
  );
});

afterAll(async () => {
  const { toasts } = await import('../../src/islands/lib/toast.ts');
  toasts.value = [];
  await new Promise((resolve) => setTimeout(resolve, 20));
  await unregisterDom();
});

describe('the Square card form without its ids', () => {
  test("shows 'Payment Setup Error' and keeps the Pay button disabled", () => {
    const toast = document.querySelector('[data-toast]');
    expect(toast?.textContent).toContain('Payment Setup Error');
    expect(toast?.textContent).toContain('Payment system is not properly initialized. Please refresh and try again.');
    expect(document.body.textContent).toContain('The card form could not load. Please refresh and try again.');
    const pay = [...document.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Pay $'));
    expect(pay?.disabled).toBe(true);
  });
});
