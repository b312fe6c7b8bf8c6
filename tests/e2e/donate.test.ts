import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { DEMO_CHARITY } from '../../src/config.ts';
import { islandsReady, shows, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { type Client, shopperWithCard } from '../helpers/http-client.ts';
import { E2E_ADMIN } from '../helpers/server.ts';

setDefaultTimeout(120_000);

/*
 * Issue 29, 'Buy to donate', in Chromium: a shopper donates a product from its page through the
 * checkout without giving any address, reads that it was a donation, and the admin finds it in
 * the fulfilment list as one to hand over to the charity.
 */

const store = storeAndBrowser();

async function shopperPage(client: Client): Promise<Page> {
  const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
  const [name, value] = client.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: store.server.url }]);
  return context.newPage();
}

async function adminPage(): Promise<Page> {
  const page = await store.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${store.server.url}/auth`);
  await islandsReady(page);
  const login = page.locator('form[action^="/auth/login"]');
  await login.getByLabel('Username').fill(E2E_ADMIN.username);
  await login.getByLabel('Password').fill(E2E_ADMIN.password);
  await login.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`${store.server.url}/`);
  await page.goto(`${store.server.url}/admin?tab=orders&donations=1`);
  await page.getByLabel('Admin PIN').fill(E2E_ADMIN.pin);
  await page.getByRole('button', { name: 'Verify PIN' }).click();
  await page.waitForURL(/\/admin/);
  return page;
}

describe('Donate this', () => {
  test('a shopper donates a product without any address, sees it was a donation, and the admin has it to hand over', async () => {
    const client = await shopperWithCard(store.server, 'giver');
    const [tee] = (await client.ok('GET', '/api/products?q=Patagonia')) as { id: number; donateEnabled: boolean }[];
    expect(tee!.donateEnabled).toBe(true);

    const page = await shopperPage(client);
    const errors = watchErrors(page);
    await page.goto(`${store.server.url}/product/${tee!.id}`);
    await page.getByRole('link', { name: 'Donate this' }).click();
    await page.waitForURL(`${store.server.url}/checkout?productId=${tee!.id}&donate=1`);
    await islandsReady(page);
    const form = page.locator('form[action="/checkout/submit"]');
    await shows(form.getByRole('heading', { name: `Donation to ${DEMO_CHARITY.name}` }));
    expect(await form.locator('[data-charity]').textContent()).toContain(DEMO_CHARITY.address);
    // No address is asked: only who the receipt is for.
    expect(await form.getByLabel('Street address').count()).toBe(0);
    expect(await form.getByLabel('ZIP code').count()).toBe(0);
    await form.getByRole('button', { name: /^Pay \$/ }).click();

    await page.waitForURL(/\/order-confirmation\/\d+$/);
    const orderId = Number(page.url().split('/').pop());
    await shows(page.getByRole('heading', { name: `Thank you! Your donation to ${DEMO_CHARITY.name} is confirmed.` }));
    expect(await page.locator('[data-donation]').textContent()).toContain(DEMO_CHARITY.address);
    expect(errors).toEqual([]);

    const admin = await adminPage();
    const row = admin.locator(`article[data-order-id="${orderId}"]`);
    await shows(row);
    expect(await row.locator('[data-donation-to]').textContent()).toBe(`Donation to hand over to ${DEMO_CHARITY.name}`);
    await shows(row.getByRole('button', { name: /Mark handed over/ }));
    await admin.context().close();
    await page.context().close();
  });
});
