import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { islandsReady, shows, toastText } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(120_000);

/*
 * Issue 27, finding 7 and 15, walked as a new shopper on a phone: she fills her profile with a
 * one-digit street and a 4-digit ZIP, reads what to fix, fixes it, is taken to the card tab
 * (the only thing missing), and types the card's expiry the ways people type it.
 */
const store = storeAndBrowser();
const contexts: BrowserContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close();
});

async function newShopper(username: string): Promise<Page> {
  const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
  contexts.push(context);
  const url = store.server.url;
  expect((await context.request.post(`${url}/api/register`, { data: { username, password: 'tide-pass-1' }, headers: { origin: url } })).status()).toBe(201);
  return context.newPage();
}

const activeTab = (page: Page) => page.locator('nav[aria-label="Profile sections"] [aria-current="page"]');

async function typeCard(page: Page, number: string, expiry: string) {
  await page.getByLabel('Card number').fill(number);
  // One key at a time, as on a phone's numeric keypad: the field puts the slash in.
  await page.getByLabel('Expiry (MM/YY)').pressSequentially(expiry);
  await page.getByLabel('CVC').fill('123');
}

describe('a new shopper completes her profile with the messages and the card form she meets', () => {
  test('the profile names each field and its rule, then opens the card tab; the expiry is typed as MMYY, MM/YY and MM / YYYY', async () => {
    const page = await newShopper('tide_inputs');
    await page.goto(`${store.server.url}/profile`);
    // Everything is missing: the personal details open first.
    expect(await activeTab(page).textContent()).toBe('Personal');
    await islandsReady(page);

    await page.getByLabel('Full name').fill('Nora Tide');
    await page.getByLabel('Email').fill('nora@example.com');
    await page.getByLabel('Phone').fill('949-555-0142');
    await page.getByLabel('Street address').fill('1');
    await page.getByLabel('Apartment, suite or unit (optional)').fill('Apt 4B');
    await page.getByLabel('City').fill('Laguna Beach');
    await page.getByLabel('State').selectOption({ label: 'California' });
    await page.getByLabel('ZIP code').fill('9265');
    await page.getByRole('button', { name: 'Save Profile' }).click();

    await shows(page.locator('#profile-address-postalCode-error'));
    expect(await page.locator('#profile-address-line1-error').textContent()).toBe('Enter your street address (number and street)');
    expect(await page.locator('#profile-address-postalCode-error').textContent()).toBe('Enter your 5-digit ZIP code');
    const toast = await toastText(page, 'ZIP code');
    expect(toast).toContain('Street address');
    expect(toast).toContain('ZIP code');
    expect(toast).not.toContain('Please try again');
    // What she typed stays, the apartment and the state included.
    expect(await page.getByLabel('Apartment, suite or unit (optional)').inputValue()).toBe('Apt 4B');
    expect(await page.getByLabel('State').inputValue()).toBe('CA');

    await page.getByLabel('Street address').fill('77 Glenneyre St');
    await page.getByLabel('ZIP code').fill('92651');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    // Only the card is missing now: the profile opens the Payment tab.
    await shows(page.getByLabel('Card number'));
    expect(await activeTab(page).textContent()).toBe('Payment');
    await islandsReady(page);

    const expiry = page.getByLabel('Expiry (MM/YY)');
    // The hint's decline card is refused when saved, not saved as if fine.
    const hint = (await page.getByText('Test mode: no real card is charged.').textContent()) ?? '';
    const decline = /or ([\d ]+) to see a decline/.exec(hint)?.[1] ?? '';
    expect(decline).toBe('4000 0000 0000 0127');
    await typeCard(page, decline, '1230');
    expect(await expiry.inputValue()).toBe('12/30');
    await page.getByRole('button', { name: 'Save Card' }).click();
    expect(await toastText(page, 'declined')).toContain('declined');

    await page.reload();
    await islandsReady(page);
    await typeCard(page, '4111 1111 1111 1111', '1230');
    expect(await expiry.inputValue()).toBe('12/30');
    await page.getByRole('button', { name: 'Save Card' }).click();
    await shows(page.getByText('Visa •••• 1111'));
    expect(await page.getByText('Expires 12/2030').count()).toBe(1);

    for (const [typed, shown] of [
      ['12/31', '12/31'],
      ['11 / 2032', '11/2032'],
    ] as const) {
      await islandsReady(page);
      await page.getByRole('button', { name: 'Update Card Details' }).click();
      await typeCard(page, '4111 1111 1111 1111', typed);
      expect(await expiry.inputValue()).toBe(shown);
      await page.getByRole('button', { name: 'Save Card' }).click();
      await shows(page.getByText(`Expires ${shown.replace(/^(\d\d)\/(\d\d)$/, '$1/20$2')}`));
    }
    // Complete now: the profile opens on the personal details again, showing the apartment.
    await page.goto(`${store.server.url}/profile`);
    expect(await activeTab(page).textContent()).toBe('Personal');
    expect(await page.getByRole('heading', { name: 'Profile complete' }).count()).toBe(1);
    expect(await page.getByLabel('Apartment, suite or unit (optional)').inputValue()).toBe('Apt 4B');
    expect(await page.getByLabel('State').inputValue()).toBe('CA');
  });
});
