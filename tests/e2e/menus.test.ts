import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Locator, Page } from 'playwright-core';
import { islandsReady, screenshot, shows } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(90_000);

/* Header, profile and sort menus: Escape and a click outside close them, one is open at a time, focus comes back, and none opens off-screen. */
const store = storeAndBrowser();

async function signedInPage(width: number, username: string): Promise<Page> {
  const context = await store.browser.newContext({ viewport: { width, height: 800 } });
  const url = store.server.url;
  expect((await context.request.post(`${url}/api/register`, { data: { username, password: 'menu-pass-1' }, headers: { origin: url } })).status()).toBe(201);
  return context.newPage();
}

const focusedLabel = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? null);

/** The panel's box lies inside the viewport. */
async function onScreen(page: Page, panel: Locator): Promise<{ left: number; right: number; width: number }> {
  const box = (await panel.boundingBox())!;
  const width = page.viewportSize()!.width;
  return { left: Math.round(box.x), right: Math.round(box.x + box.width), width };
}

describe('menus close the way people expect', () => {
  test('Escape closes the open menu and gives focus back to its button', async () => {
    const page = await signedInPage(1280, 'menu_escape');
    await page.goto(`${store.server.url}/`);
    const button = page.getByRole('button', { name: 'Open menu' });
    await button.focus();
    await page.keyboard.press('Enter');
    const site = page.getByRole('navigation', { name: 'Site' });
    await shows(site);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Home');
    await page.keyboard.press('Escape');
    expect(await site.isVisible()).toBe(false);
    expect(await focusedLabel(page)).toBe('Open menu');
    await page.context().close();
  });

  test('a click outside closes it, and opening another menu closes the first', async () => {
    const page = await signedInPage(390, 'menu_outside');
    await page.goto(`${store.server.url}/`);
    await islandsReady(page);
    const account = page.locator('[data-menu="account"]');
    const site = page.getByRole('navigation', { name: 'Site' });

    await page.getByRole('button', { name: 'Open menu' }).click();
    await shows(site);
    await page.getByRole('button', { name: 'Account menu for menu_outside' }).click();
    await shows(account);
    expect(await site.isVisible()).toBe(false);
    await screenshot(page, 'menu-account-390');

    await page.mouse.click(2, 300);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await account.isVisible()).toBe(false);

    // The bottom bar's Profile menu and the notification panel take turns with the others.
    await page.getByRole('button', { name: 'Profile menu' }).click();
    const profile = page.locator('[data-menu="profile"]');
    await shows(profile);
    const box = await onScreen(page, profile);
    expect(box.left).toBeGreaterThanOrEqual(0);
    expect(box.right).toBeLessThanOrEqual(box.width);
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await shows(page.getByRole('dialog'));
    expect(await profile.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Search products' }).click();
    expect(await page.getByRole('dialog').isVisible()).toBe(false);
    await shows(page.getByRole('searchbox'));
    await page.keyboard.press('Escape');
    expect(await page.getByRole('searchbox').isVisible()).toBe(false);
    await page.context().close();
  });
});

describe('nothing opens off-screen on a phone', () => {
  for (const width of [320, 390]) {
    test(`at ${width} px the sort, search and account menus stay inside the screen, with their long labels whole`, async () => {
      const page = await signedInPage(width, `menu_narrow_${width}`);
      await page.goto(`${store.server.url}/products`);
      await page.getByRole('button', { name: /^Sort: / }).click();
      const sort = page.locator('[data-menu="sort"]');
      await shows(sort.getByRole('link', { name: 'Price high to low' }));
      for (const menu of [sort]) {
        const box = await onScreen(page, menu);
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(box.width);
      }
      await screenshot(page, `menu-sort-${width}`);
      await sort.getByRole('link', { name: 'Price high to low' }).click();
      await page.waitForURL(/sort=price-desc/);
      await shows(page.getByRole('button', { name: 'Sort: Price high to low' }));

      for (const [button, panel] of [
        ['Search products', '[data-menu="search"]'],
        [`Account menu for menu_narrow_${width}`, '[data-menu="account"]'],
      ] as const) {
        await page.getByRole('button', { name: button }).click();
        const box = await onScreen(page, page.locator(panel));
        expect({ button, inside: box.left >= 0 && box.right <= box.width }).toEqual({ button, inside: true });
        await page.keyboard.press('Escape');
      }
      await page.context().close();
    });
  }
});
