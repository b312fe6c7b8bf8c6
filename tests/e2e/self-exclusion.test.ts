import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { islandsReady, screenshot, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

/*
 * Issue 27, item 4, as the player walks it: Sally takes a 30-day break from games, deletes her
 * account, registers again with the same e-mail, phone and card, and is refused when she tries
 * to play, with the same words she was given before; shopping stays open to her.
 */

setDefaultTimeout(150_000);

const store = storeAndBrowser();
const PASSWORD = 'beach-day-3';

async function register(page: Page) {
  await page.goto(`${store.server.url}/auth?tab=register`);
  await islandsReady(page);
  const form = page.locator('form[action^="/auth/register"]');
  await form.getByLabel('Username').fill('sally');
  await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await form.getByLabel('Confirm Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Register' }).click();
  await page.waitForURL(`${store.server.url}/`);
}

/** Her details on the Personal tab, then her Visa on the Payment tab: the same both times. */
async function sameDetails(page: Page) {
  await page.goto(`${store.server.url}/profile`);
  await page.getByLabel('Full name').fill('Sally Shore');
  await page.getByLabel('Email').fill('sally@example.com');
  await page.getByLabel('Phone').fill('949 555 0142');
  await page.getByLabel('Street address').fill('123 Ocean Avenue');
  await page.getByLabel('City').fill('Laguna Beach');
  const state = page.getByLabel('State', { exact: true });
  if ((await state.evaluate((field) => field.tagName)) === 'SELECT') await state.selectOption('CA');
  else await state.fill('CA');
  await page.getByLabel(/^(Postal code|ZIP code)/).fill('92651');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  expect(await toastText(page, 'Your profile has been updated successfully.')).toContain('Your profile has been updated successfully.');

  await page.goto(`${store.server.url}/profile?tab=payment`);
  await islandsReady(page);
  await page.getByLabel('Card number').fill('4111 1111 1111 1111');
  await page.getByLabel(/^Expiry/).fill('12/30');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Save Card' }).click();
  await page.getByText('Visa •••• 1111').waitFor();
}

async function playableProductId(page: Page): Promise<number> {
  const products = (await (await page.request.get(`${store.server.url}/api/products`)).json()) as { id: number; playEnabled: boolean; quantity: number }[];
  return products.find((p) => p.playEnabled && p.quantity > 0)!.id;
}

describe('a player who excluded herself', () => {
  test('deletes her account, registers again with the same e-mail, phone and card, and is still refused a game', async () => {
    const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const errors = watchErrors(page);

    await register(page);
    await sameDetails(page);

    // The Play tab: a 30-day break.
    await page.goto(`${store.server.url}/profile?tab=play`);
    await page.getByLabel('30 days').check();
    await page.getByLabel('I understand this cannot be undone before it ends.').check();
    await page.getByRole('button', { name: 'Exclude me from games' }).click();
    expect(await toastText(page, 'Break started')).toContain('Break started');
    const excluded = page.locator('[data-excluded]');
    await shows(excluded);
    const until = /until (\w+ \d+, \d{4})/.exec((await excluded.textContent()) ?? '')![1]!;
    await screenshot(page, 'self-exclusion-play-tab');

    // Her own play page already refuses her.
    const productId = await playableProductId(page);
    await page.goto(`${store.server.url}/play/${productId}`);
    await islandsReady(page);
    const refusal = `You have excluded yourself from games until ${until}, so you cannot enter.`;
    await shows(page.locator('[data-blocked]').getByText(refusal));

    // The Account tab: she deletes her account.
    await page.goto(`${store.server.url}/profile?tab=account`);
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByLabel('I understand that my account is deleted for good.').check();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL(`${store.server.url}/`);
    expect(await toastText(page, 'Account deleted')).toContain('Account deleted');

    // A new account, the same person.
    await register(page);
    await sameDetails(page);
    await page.goto(`${store.server.url}/profile?tab=play`);
    await shows(page.locator('[data-excluded]').getByText(`You have excluded yourself from games until ${until}.`));

    await page.goto(`${store.server.url}/play/${productId}`);
    await islandsReady(page);
    await shows(page.locator('[data-blocked]').getByText(refusal));
    expect(await page.getByRole('button', { name: /^Join Game/ }).count()).toBe(0);
    await screenshot(page, 'self-exclusion-play-refused');
    // Whatever the page offers, the store refuses the entry itself, before any hold.
    const tried = await page.request.post(`${store.server.url}/api/payments`, { data: { productId, amount: 1, type: 'play' } });
    expect(tried.status()).toBe(403);
    expect(await tried.json()).toEqual({ message: refusal, code: 'SELF_EXCLUDED' });

    // Shopping stays open: Pay Now is there for her.
    await page.goto(`${store.server.url}/product/${productId}`);
    await shows(page.getByRole('link', { name: 'Pay Now' }));

    expect(errors).toEqual([]);
    await context.close();
  });
});
