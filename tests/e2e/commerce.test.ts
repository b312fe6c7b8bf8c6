import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { islandsReady, screenshot, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(120_000);

const store = storeAndBrowser();

async function register(page: Page, username: string) {
  await page.goto(`${store.server.url}/auth?tab=register`);
  await islandsReady(page);
  const form = page.locator('form[action^="/auth/register"]');
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password', { exact: true }).fill('beach-day-9');
  await form.getByLabel('Confirm Password').fill('beach-day-9');
  await form.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL(`${store.server.url}/`);
}

async function completeProfile(page: Page) {
  await page.goto(`${store.server.url}/profile`);
  await page.getByLabel('Full name').fill('Sandy Shore');
  await page.getByLabel('Email').fill('sandy@example.com');
  await page.getByLabel('Phone').fill('949 555 0123');
  await page.getByLabel('Street address').fill('123 Ocean Avenue');
  await page.getByLabel('City').fill('Laguna Beach');
  await page.getByLabel('State').selectOption('CA');
  await page.getByLabel('ZIP code').fill('92651');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await page.waitForURL(`${store.server.url}/profile`);
  expect(await toastText(page, 'Your profile has been updated successfully.')).toContain('Your profile has been updated successfully.');
}

/** Saves the approving test card on the Payment tab and waits for the page to show it. */
async function saveTestCard(page: Page) {
  await page.goto(`${store.server.url}/profile?tab=payment`);
  await islandsReady(page);
  await fillCard(page, '4111 1111 1111 1111');
  await page.getByRole('button', { name: 'Save Card' }).click();
  await page.getByText('Visa •••• 1111').waitFor();
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/30');
  await page.getByLabel('CVC').fill('123');
}

/** A product in stock, by its name on the gallery page. */
async function productIdOf(page: Page, brand: string): Promise<number> {
  await page.goto(`${store.server.url}/products?q=${encodeURIComponent(brand)}`);
  const href = (await page.locator('main article a').first().getAttribute('href'))!;
  return Number(href.split('/').pop());
}

describe('a new shopper pays for real with the test card', () => {
  test('completes the profile, saves a card, buys with Pay Now at 92651 and lands on the orders tab', async () => {
    const page = await store.browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors = watchErrors(page);
    await register(page, 'buyer_one');
    // The cart opens without a complete profile or a card (issue 27).
    await page.goto(`${store.server.url}/cart`);
    await shows(page.getByRole('heading', { name: 'Your cart is empty' }));
    await completeProfile(page);

    await saveTestCard(page);
    await shows(page.getByText('Profile complete'));

    const id = await productIdOf(page, 'Gift from the Sea');
    await page.goto(`${store.server.url}/product/${id}`);
    await page.getByRole('link', { name: 'Pay Now' }).click();
    await page.waitForURL(`${store.server.url}/checkout?productId=${id}`);
    await islandsReady(page);
    expect(await page.getByLabel('Shipping method').locator('option').allTextContents()).toEqual(['Automatic Delivery - Free (within 2-3 hours)']);
    await page.getByLabel('ZIP code').fill('12345');
    await page.getByRole('button', { name: 'Pay $8.64' }).click();
    expect(await toastText(page, 'Local Delivery Only')).toContain('Local Delivery Only');
    await page.getByLabel('ZIP code').fill('92651');
    await screenshot(page, 'checkout');
    await page.getByRole('button', { name: 'Pay $8.64' }).click();
    await page.waitForURL(/\/order-confirmation\/\d+$/);
    const orderId = page.url().split('/').pop();
    expect(await toastText(page, 'Your order has been placed')).toContain('Your order has been placed');
    await shows(page.getByText(`Order #${orderId}`).first());
    await shows(page.getByText(/Taking you to your orders in \d seconds?/));
    await screenshot(page, 'order-confirmation');
    await page.waitForURL(`${store.server.url}/profile?tab=orders`, { timeout: 9000 });
    await shows(page.getByRole('link', { name: `Order #${orderId}`, exact: true }));
    await shows(page.locator('[data-status="processing"]').first());
    expect(errors).toEqual([]);
    await page.close();
  });

  test('fills the cart with two products, changes a quantity and pays cash on delivery', async () => {
    const page = await store.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await register(page, 'buyer_two');
    await completeProfile(page);
    await saveTestCard(page);

    for (const brand of ['Cannery Row', 'Nike']) {
      const id = await productIdOf(page, brand);
      await page.goto(`${store.server.url}/product/${id}`);
      await page.getByRole('button', { name: 'Add to Cart' }).click();
      expect(await toastText(page, 'Added to cart')).toContain('Added to cart');
    }
    await page.goto(`${store.server.url}/cart`);
    await islandsReady(page);
    expect(await page.locator('main li').count()).toBe(2);
    await page.getByLabel('Qty').first().fill('2');
    await page
      .getByRole('button', { name: /Update/ })
      .first()
      .click();
    await page.waitForURL(`${store.server.url}/cart`);
    await islandsReady(page);
    expect(await page.getByLabel('Qty').first().inputValue()).toBe('2');
    expect(await page.locator('header a[href="/cart"]').textContent()).toContain('3');
    await page.getByRole('tab', { name: 'Cash on Delivery' }).click();
    await screenshot(page, 'cart-cod');
    await page.getByRole('button', { name: 'Complete Purchase' }).click();
    await page.waitForURL(/\/order-confirmation\/\d+$/);
    await shows(page.getByText('Cash on delivery'));
    await page.goto(`${store.server.url}/cart`);
    await shows(page.getByRole('heading', { name: 'Your cart is empty' }));
    await shows(page.getByRole('link', { name: 'Continue Shopping' }));
    expect(errors).toEqual([]);
    await page.close();
  });

  test('a declined card shows Payment Failed and the notification appears under the bell', async () => {
    const page = await store.browser.newPage({ viewport: { width: 390, height: 844 } });
    await register(page, 'buyer_three');
    await completeProfile(page);
    await saveTestCard(page);

    const id = await productIdOf(page, 'Cannery Row');
    const stockBefore = await (await page.request.get(`${store.server.url}/api/products/${id}`)).json();
    await page.goto(`${store.server.url}/checkout?productId=${id}`);
    await islandsReady(page);
    await page.getByLabel('Another card').check();
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    const message = await toastText(page, 'Payment Failed');
    expect(message).toContain('Payment Failed');
    expect(message).toContain('Your card was declined.');
    expect(page.url()).toContain('/checkout');
    const bell = page.getByRole('button', { name: /Notifications, \d+ unread/ });
    await bell.waitFor();
    await bell.click();
    await shows(page.getByRole('dialog').getByText('Payment Failed').first());
    await screenshot(page, 'declined-bell');
    const stockAfter = await (await page.request.get(`${store.server.url}/api/products/${id}`)).json();
    expect(stockAfter.quantity).toBe(stockBefore.quantity);
    await page.close();
  });
});
