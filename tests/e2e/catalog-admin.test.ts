import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';
import { islandsReady, screenshot, toastText, watchErrors, shows } from '../helpers/browser.ts';
import { E2E_ADMIN } from '../helpers/server.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(90_000);

const store = storeAndBrowser();

/** Each card's own price (not a running auction's bid in its badge). */
const prices = async (page: Page) => (await page.locator('main article [data-price]').allTextContents()).map((text) => Number(/\$(\d+\.\d{2})/.exec(text)![1]));

describe('an admin runs the catalogue from the browser', () => {
  test('PIN, create a t-shirt with an image, search, see it in the store, edit its price, delete it', async () => {
    const page = await store.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(page);
    await page.goto(`${store.server.url}/auth`);
    await islandsReady(page);
    const login = page.locator('form[action^="/auth/login"]');
    await login.getByLabel('Username').fill(E2E_ADMIN.username);
    await login.getByLabel('Password').fill(E2E_ADMIN.password);
    await login.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${store.server.url}/`);

    await page.goto(`${store.server.url}/admin`);
    await shows(page.getByRole('heading', { name: 'Admin Authentication' }));
    await page.getByLabel('Admin PIN').fill('000000');
    await page.getByRole('button', { name: 'Verify PIN' }).click();
    // The wrong PIN is a form post: wait for the page it answers with, not the one it left.
    await page.getByText('Invalid PIN. Please try again.').waitFor();
    expect(await toastText(page, 'Invalid PIN entered.')).toContain('Invalid PIN entered.');
    await page.getByLabel('Admin PIN').fill(E2E_ADMIN.pin);
    await page.getByRole('button', { name: 'Verify PIN' }).click();
    await page.waitForURL(`${store.server.url}/admin`);
    expect(await toastText(page, 'Welcome to the admin panel.')).toContain('Welcome to the admin panel.');

    await page.getByRole('link', { name: 'T-Shirts' }).click();
    await page.getByRole('link', { name: 'Add T-Shirt' }).click();
    await page.waitForURL(`${store.server.url}/admin/tshirt/new`);
    await islandsReady(page);
    await page.getByLabel('Brand', { exact: true }).fill('Laguna Test Tee');
    await page.getByLabel('SKU (model)').fill('LTT-E2E-01');
    await page.getByLabel('Price ($)').fill('24.50');
    // Sold by size (issue 38): the first size goes in the 'Add a size' row.
    await page.getByLabel('Size, new size').fill('L');
    await page.getByLabel('SKU, new size').fill('LTT-E2E-01-L');
    await page.getByLabel('Stock, new size').fill('7');
    await page.getByLabel('Description', { exact: true }).fill('A soft cotton tee printed for the end-to-end test.');
    await page.locator('input[name="image"]').setInputFiles(join(projectRoot, 'static/images/og-default.png'));
    await page.getByLabel('Play: $1 social game').check();
    await screenshot(page, 'admin-new-tshirt');
    await page.getByRole('button', { name: 'Create T-Shirt' }).click();
    await page.waitForURL(`${store.server.url}/admin?tab=tshirt`);
    expect(await toastText(page, 'T-Shirt created')).toContain('T-Shirt created');

    await page.getByLabel('Search by brand or model').fill('LAGUNA test');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const rows = page.locator('main li');
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Laguna Test Tee');
    const editHref = (await rows.first().getByRole('link', { name: /Edit/ }).getAttribute('href'))!;
    const id = Number(editHref.split('/').pop());
    expect(editHref).toBe(`/admin/tshirt/${id}`);

    await page.goto(`${store.server.url}/`);
    await shows(page.locator('section[aria-labelledby="gallery-tshirt"]').getByRole('heading', { name: 'Laguna Test Tee' }));
    await page.goto(`${store.server.url}/products?type=tshirt`);
    await shows(page.getByRole('heading', { name: 'Laguna Test Tee' }));
    const image = page.locator(`a[href="/product/${id}"] img`).first();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    await page.goto(`${store.server.url}${editHref}`);
    await islandsReady(page);
    await page.getByLabel('Price ($)').fill('19.99');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL(`${store.server.url}/admin?tab=tshirt`);
    expect(await toastText(page, 'T-Shirt updated')).toContain('T-Shirt updated');
    await page.goto(`${store.server.url}/product/${id}`);
    await shows(page.getByText('$19.99').first());
    const imageAfterEdit = await page.locator('main img').first().getAttribute('src');
    expect(imageAfterEdit).toMatch(/^\/uploads\/[a-f0-9]{32}\.png/);

    await page.goto(`${store.server.url}/admin?tab=tshirt&q=LTT-E2E`);
    await islandsReady(page);
    await page
      .locator('main li')
      .first()
      .getByRole('link', { name: /Delete/ })
      .click();
    const dialog = page.getByRole('dialog');
    await shows(dialog.getByText('Are you sure?'));
    await shows(dialog.getByText('This action cannot be undone. This will permanently delete the product.'));
    await screenshot(page, 'admin-delete-dialog');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${store.server.url}/admin?tab=tshirt`);
    expect(await toastText(page, 'The product has been successfully deleted.')).toContain('The product has been successfully deleted.');
    expect(await page.getByText('Laguna Test Tee').count()).toBe(0);
    const gone = await page.goto(`${store.server.url}/product/${id}`);
    expect(gone?.status()).toBe(404);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('a visitor browses the catalogue', () => {
  test('sorts the gallery by price, opens a product, and meets the not-found view for a missing one', async () => {
    const page = await store.browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors = watchErrors(page);
    await page.goto(`${store.server.url}/products`);
    await page.getByText('Sort: Featured').click();
    await page.getByRole('link', { name: 'Price low to high' }).click();
    await page.waitForURL(`${store.server.url}/products?sort=price-asc`, { waitUntil: 'load' });
    const ascending = await prices(page);
    expect(ascending.length).toBeGreaterThanOrEqual(24);
    expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
    await page.getByText('Sort: Price low to high').click();
    await page.getByRole('link', { name: 'Price high to low' }).click();
    // Read the new page once it has loaded, not the old one or half of the new one.
    await page.waitForURL(`${store.server.url}/products?sort=price-desc`, { waitUntil: 'load' });
    const descending = await prices(page);
    expect(descending).toEqual([...ascending].sort((a, b) => b - a));
    await screenshot(page, 'gallery-sorted');

    // The dearest product sold outright (a running auction's card leads to its bidding panel instead).
    const first = page
      .locator('main article')
      .filter({ hasNot: page.locator('[data-offer]', { hasText: 'Bid ·' }) })
      .first();
    const brand = (await first.locator('h2').textContent())!;
    await first.locator('a').first().click();
    await page.waitForURL(/\/product\/\d+$/);
    await shows(page.getByRole('heading', { level: 1, name: brand }));
    await shows(page.getByRole('link', { name: 'Pay Now' }));
    // That product has no games: no entry fee and no Play Now (issue 27, item 1).
    expect(await page.getByText('Entry: $1').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Play Now' }).count()).toBe(0);
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    expect(jsonLd['@type']).toBe('Product');
    expect(jsonLd.offers.priceCurrency).toBe('USD');
    await screenshot(page, 'product-detail');

    await page.goto(`${store.server.url}/products?q=wayfarer`);
    expect(await page.locator('main article').count()).toBeGreaterThan(0);
    await page.goto(`${store.server.url}/products?q=no-such-thing-anywhere`);
    await shows(page.getByText('No products match'));

    const missing = await page.goto(`${store.server.url}/product/987654`);
    expect(missing?.status()).toBe(404);
    await shows(page.getByText("The product you're looking for doesn't exist or has been removed."));
    await page.getByRole('link', { name: 'Go Back', exact: true }).click();
    await page.waitForURL(`${store.server.url}/products`);
    expect(errors).toEqual([]);
    await page.close();
  });
});
