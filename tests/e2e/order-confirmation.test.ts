import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { BrowserContext } from 'playwright-core';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { islandsReady, shows } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

/*
 * The order confirmation (spec: a 5 s countdown to the orders tab) as the shopper meets it: a
 * visible 'Stay on this page' stops the countdown (WCAG 2.2.1), the page links once to the
 * order, and it says where the order goes. The page's timers run on Playwright's clock, so the
 * 5 seconds pass at once and nothing waits for real time.
 */

setDefaultTimeout(120_000);

const store = storeAndBrowser();

/** A signed-in shopper with a card on file who has just bought one product; its order id. */
async function shopperWithOrder(context: BrowserContext, username: string): Promise<number> {
  const { url } = store.server;
  const api = context.request;
  expect((await api.post(`${url}/api/register`, { data: { username, password: 'stay-a-while' } })).status()).toBe(201);
  const saved = await api.patch(`${url}/api/user/profile`, { data: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } } });
  expect(saved.status()).toBe(200);
  const products = (await (await api.get(`${url}/api/products`)).json()) as { id: number; price: number; quantity: number }[];
  const product = products.find((p) => p.quantity > 2)!;
  const tax = Math.round(product.price * 8) / 100;
  const { address, ...contact } = COMPLETE_PROFILE;
  const order = await api.post(`${url}/api/orders`, {
    data: {
      productId: product.id,
      quantity: 1,
      shipping: 0,
      subtotal: product.price,
      tax,
      total: Math.round((product.price + tax) * 100) / 100,
      shippingMethod: 'standard',
      customerInfo: { ...contact, address: { line1: address.line1, city: address.city, state: address.state, postalCode: address.postalCode } },
    },
  });
  expect(order.status()).toBe(201);
  return ((await order.json()) as { id: number }).id;
}

describe('the order confirmation', () => {
  test('the shopper stays on the page, sees where the order goes and follows its one link', async () => {
    const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
    const id = await shopperWithOrder(context, 'stays_on_page');
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${store.server.url}/order-confirmation/${id}`);
    await islandsReady(page);

    const stay = page.getByRole('button', { name: 'Stay on this page' });
    await shows(stay);
    await stay.click();
    await shows(page.getByText('You are staying on this page.'));
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('You are staying on this page.');
    // Well past the 5 s: the countdown was stopped, so the page is still the confirmation.
    await page.clock.runFor(10_000);
    expect(new URL(page.url()).pathname).toBe(`/order-confirmation/${id}`);

    const address = page.locator('[data-delivery-address]');
    await shows(address);
    expect(await address.textContent()).toContain('123 Coast Hwy, Laguna Beach CA 92651');
    expect(await page.locator(`main a[href="/orders/${id}"]`).count()).toBe(1);
    await page.getByRole('link', { name: 'View your order and receipt' }).click();
    await page.waitForURL(`**/orders/${id}`);
    await context.close();
  });

  test('without the button, the countdown still takes the shopper to the orders tab after 5 s', async () => {
    const context = await store.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const id = await shopperWithOrder(context, 'lets_it_run');
    const page = await context.newPage();
    await page.clock.install();
    await page.goto(`${store.server.url}/order-confirmation/${id}`);
    await islandsReady(page);
    await shows(page.getByText('Taking you to your orders in 5 seconds.'));
    await page.clock.runFor(5_000);
    await page.waitForURL('**/profile?tab=orders');
    await context.close();
  });
});
