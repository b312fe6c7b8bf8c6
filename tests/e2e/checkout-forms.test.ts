import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { BrowserContext } from 'playwright-core';
import { islandsReady } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(90_000);

/* Checkout forms post: without JavaScript nothing personal reaches a URL; with it, errors are announced and focused, declines shown inline. */
const store = storeAndBrowser();

const PROFILE = {
  name: 'Nora Tide',
  email: 'nora@example.com',
  phone: '949-555-0142',
  address: { line1: '77 Glenneyre St', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
};
const PERSONAL = ['Nora', 'nora%40example.com', 'nora@example.com', '555-0142', '5550142', 'Glenneyre', '92651'];

async function shopperWithCart(context: BrowserContext, username: string, card = 'cnon:card-nonce-ok'): Promise<number> {
  const url = store.server.url;
  const headers = { origin: url };
  expect((await context.request.post(`${url}/api/register`, { data: { username, password: 'tide-pass-1' }, headers })).status()).toBe(201);
  const saved = await context.request.patch(`${url}/api/user/profile`, {
    data: { ...PROFILE, paymentMethod: { type: 'card', sourceId: card } },
    headers,
  });
  expect(saved.status()).toBe(200);
  const products = (await (await context.request.get(`${url}/api/products`)).json()) as { id: number; quantity: number }[];
  const product = products.find((p) => p.quantity > 2)!;
  expect((await context.request.post(`${url}/api/cart`, { data: { productId: product.id, quantity: 1 }, headers })).status()).toBe(201);
  return product.id;
}

function watchUrls(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  return urls;
}

describe('without JavaScript', () => {
  test('the cart completes a cash-on-delivery order by a form post; no URL ever holds personal data', async () => {
    const context = await store.browser.newContext({ javaScriptEnabled: false });
    const urls = watchUrls(context);
    await shopperWithCart(context, 'nojs_cart');
    const page = await context.newPage();
    await page.goto(`${store.server.url}/cart`);
    await page.getByLabel('Pay cash on delivery (card payment needs JavaScript)').check();
    await page.getByRole('button', { name: 'Complete Purchase' }).click();
    await page.waitForURL(/\/order-confirmation\/\d+$/);
    expect(await page.locator('h1').first().textContent()).toContain('Thank you! Your order is confirmed.');
    for (const url of urls) for (const part of PERSONAL) expect(url).not.toContain(part);
    await context.close();
  });

  test('a card in the cart, and the single-product checkout, come back with the card-needs-JavaScript message; nothing personal in a URL', async () => {
    const context = await store.browser.newContext({ javaScriptEnabled: false });
    const urls = watchUrls(context);
    const productId = await shopperWithCart(context, 'nojs_card');
    const page = await context.newPage();
    await page.goto(`${store.server.url}/cart`);
    await page.getByRole('button', { name: 'Complete Purchase' }).click();
    await page.waitForURL(`${store.server.url}/cart`);
    expect(await page.content()).toContain('Card payment needs JavaScript');

    await page.goto(`${store.server.url}/checkout?productId=${productId}`);
    const pay = page.locator('form[action="/checkout/submit"]');
    expect(await pay.getAttribute('method')).toBe('post');
    await pay.locator('button[type="submit"]').first().click();
    await page.waitForURL(`${store.server.url}/checkout?productId=${productId}`);
    expect(await page.content()).toContain('Card payment needs JavaScript');
    for (const url of urls) for (const part of PERSONAL) expect(url).not.toContain(part);
    await context.close();
  });
});

describe('with JavaScript', () => {
  test('an invalid field gets the focus and an announced summary; a decline shows next to the button', async () => {
    const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
    await shopperWithCart(context, 'js_cart', 'cnon:card-nonce-declined');
    const page = await context.newPage();
    await page.goto(`${store.server.url}/cart`);
    await islandsReady(page);
    const form = page.locator('form[action="/cart/checkout"]');
    await form.getByLabel('Full name').fill('');
    await form.getByRole('button', { name: 'Complete Purchase' }).click();
    expect(await form.getByRole('alert').first().textContent()).toContain('Please fix this field');
    await page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.name === 'fullName');

    await form.getByLabel('Full name').fill(PROFILE.name);
    // A saved card the bank declines at payment time.
    await form.getByRole('button', { name: 'Complete Purchase' }).click();
    const inline = form.locator('p[role="alert"]');
    await inline.waitFor();
    expect(await inline.textContent()).toContain('declined');
    expect(page.url()).toBe(`${store.server.url}/cart`);
    await context.close();
  });
});
