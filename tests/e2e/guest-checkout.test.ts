import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { islandsReady, launchBrowser, shows, toastText } from '../helpers/browser.ts';
import { type RunningServer, startServer } from '../helpers/server.ts';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.ts';

setDefaultTimeout(120_000);

/*
 * Issue 27, items 5 and 6, walked as the people do: a visitor who fills a cart, checks out as a
 * guest paying cash on delivery and opens the order from the receipt e-mail; a shopper in Irvine
 * (92618) whose buy-now offers the cart's shipping instead of a dead end.
 */

let smtp: TestSmtpServer;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServer({ env: { SMTP_URL: smtp.url } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.stop();
});

async function productInStock(): Promise<{ id: number }> {
  const products = (await (await fetch(`${server.url}/api/products`)).json()) as { id: number; quantity: number; buyNowEnabled: boolean }[];
  return products.find((p) => p.quantity > 3 && p.buyNowEnabled)!;
}

/** Fills the delivery fields by their labels (State may be a text field or a list of states). */
async function fillDelivery(page: Page, details: { name: string; email: string; phone: string; street: string; city: string; zip: string }) {
  await page.getByLabel('Full name').fill(details.name);
  await page.getByLabel('Email').fill(details.email);
  await page.getByLabel('Phone').fill(details.phone);
  await page.getByLabel('Street address').fill(details.street);
  await page.getByLabel('City').fill(details.city);
  const state = page.getByLabel('State', { exact: true });
  if ((await state.evaluate((element) => element.tagName)) === 'SELECT') await state.selectOption('CA');
  else await state.fill('CA');
  await page.getByLabel('ZIP code').fill(details.zip);
}

describe('a visitor checks out as a guest', () => {
  test('adds to the cart, pays cash on delivery without an account or a card, and opens the order from the e-mail link', async () => {
    const product = await productInStock();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/product/${product.id}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    expect(await toastText(page, 'Added to cart')).toContain('Added to cart');
    await page.getByRole('link', { name: /^Cart/ }).first().click();
    await page.waitForURL(`${server.url}/cart`);
    await islandsReady(page);
    await shows(page.getByText('Checking out as a guest'));
    await fillDelivery(page, {
      name: 'Gwen Guest',
      email: 'gwen@example.com',
      phone: '949-555-0190',
      street: '8 Cliff Dr',
      city: 'Laguna Beach',
      zip: '92651',
    });
    await page.getByRole('tab', { name: 'Cash on Delivery' }).click();
    await page.getByRole('button', { name: 'Complete Purchase' }).click();
    await page.waitForURL(/\/order-confirmation\/\d+$/);
    await shows(page.getByRole('heading', { name: 'Thank you! Your order is confirmed.' }));
    const orderId = Number(page.url().split('/').pop());
    await context.close();

    const receipt = await smtp.waitFor((mail) => mail.to.includes('gwen@example.com') && mail.subject === `Your order #${orderId} is confirmed`);
    const link = /View your order: (\S+)/.exec(receipt.text)?.[1];
    expect(link).toStartWith(`${server.url}/orders/${orderId}?key=`);

    // Later, on another device: the link alone opens the order, without signing in.
    const later = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const orderPage = await later.newPage();
    await orderPage.goto(link!);
    await shows(orderPage.getByRole('heading', { name: `Order #${orderId}` }));
    await shows(orderPage.getByText('8 Cliff Dr'));
    expect(orderPage.url()).toBe(link!);
    // The same link with another order's number opens nothing.
    await orderPage.goto(link!.replace(`/orders/${orderId}?`, `/orders/${orderId + 1}?`));
    await shows(orderPage.getByText('This link does not open an order.'));
    await later.close();
  });
});

describe('a shopper in Irvine (92618)', () => {
  test("buy now says it delivers in 92651 only and offers the cart's shipping: one click, and the cart ships to Irvine", async () => {
    const product = await productInStock();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/checkout?productId=${product.id}`);
    await islandsReady(page);
    await fillDelivery(page, { name: 'Ivy Irvine', email: 'ivy@example.com', phone: '949-555-0191', street: '1 Park Pl', city: 'Irvine', zip: '92618' });
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await shows(page.getByRole('alert').filter({ hasText: 'Your cart ships anywhere in the US' }));
    await page.getByRole('button', { name: 'Add to cart and ship it' }).click();
    await page.waitForURL(`${server.url}/cart`);
    await islandsReady(page);
    await shows(page.getByRole('button', { name: /Remove/ }));
    await shows(page.getByText('Standard Shipping'));
    await fillDelivery(page, { name: 'Ivy Irvine', email: 'ivy@example.com', phone: '949-555-0191', street: '1 Park Pl', city: 'Irvine', zip: '92618' });
    await page.getByRole('tab', { name: 'Cash on Delivery' }).click();
    await page.getByRole('button', { name: 'Complete Purchase' }).click();
    await page.waitForURL(/\/order-confirmation\/\d+$/);
    await shows(page.getByText('Standard shipping: 5-7 business days.'));
    await context.close();
  });
});

describe("a first-time guest's Pay whose answer is lost", () => {
  test('the answer and its cart cookie never arrive; Pay again finds the first purchase: one order, one charge, and its confirmation opens', async () => {
    const product = await productInStock();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/checkout?productId=${product.id}`);
    await islandsReady(page);
    await fillDelivery(page, { name: 'Lara Lost', email: 'lara@example.com', phone: '949-555-0192', street: '3 Wave St', city: 'Laguna Beach', zip: '92651' });
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel('Expiry (MM/YY)').fill('12/30');
    await page.getByLabel('CVC').fill('123');
    // The server does the work; its answer, and the guest cookie it sets, are lost on the way back.
    const cut = { on: true, answered: 0 };
    await page.route('**/api/orders', async (route) => {
      if (!cut.on || route.request().method() !== 'POST') return route.continue();
      await route.fetch();
      cut.answered++;
      await context.clearCookies();
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await shows(page.getByRole('alert').getByText('We could not reach the store to confirm your payment.'));
    expect(cut.answered).toBeGreaterThan(1);
    expect(await context.cookies()).toEqual([]);
    cut.on = false;
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.waitForURL(/\/order-confirmation\/\d+$/);
    await shows(page.getByRole('heading', { name: 'Thank you! Your order is confirmed.' }));
    const orderId = Number(page.url().split('/').pop());
    await context.close();

    const db = new Database(join(server.dataDir, 'data', 'store.db'), { readonly: true });
    try {
      const orders = db.query("select id, status from orders where customer_email = 'lara@example.com'").all();
      expect(orders).toEqual([{ id: orderId, status: 'processing' }]);
      const charges = db.query("select status from payments where kind = 'order_charge' and order_id = ?").all(orderId);
      expect(charges).toEqual([{ status: 'captured' }]);
    } finally {
      db.close();
    }
  });
});
