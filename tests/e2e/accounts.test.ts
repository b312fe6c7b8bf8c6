import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { islandsReady, screenshot, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(60_000);

const store = storeAndBrowser();

describe('a new visitor on a phone', () => {
  test('registers, sees the profile menu, logs out, logs in again, and is told when the password is wrong', async () => {
    const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const errors = watchErrors(page);

    await page.goto(`${store.server.url}/auth?tab=register`);
    await islandsReady(page);
    await screenshot(page, 'auth-register');
    const register = page.locator('form[action^="/auth/register"]');
    await register.getByLabel('Username').fill('e2e_shopper');
    await register.getByLabel('Password', { exact: true }).fill('beach-day-1');
    await register.getByLabel('Confirm Password').fill('beach-day-1');
    await register.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${store.server.url}/`);
    expect(await toastText(page, 'Registration successful')).toContain('Registration successful');

    const accountMenu = page.getByRole('button', { name: 'Account menu for e2e_shopper' });
    await shows(accountMenu);
    await page.getByRole('navigation', { name: 'Main' }).getByLabel('Profile menu').click();
    const profileMenu = page.locator('[data-menu="profile"]');
    await shows(profileMenu.getByRole('link', { name: 'My Profile' }));
    await screenshot(page, 'home-signed-in-profile-menu');
    await profileMenu.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${store.server.url}/`);
    expect(await toastText(page, 'You have been successfully logged out.')).toContain('You have been successfully logged out.');
    await shows(page.locator('header').getByRole('link', { name: 'Login' }));

    await page.goto(`${store.server.url}/auth`);
    await islandsReady(page);
    const login = page.locator('form[action^="/auth/login"]');
    await login.getByLabel('Username').fill('e2e_shopper');
    await login.getByLabel('Password').fill('beach-day-1');
    await login.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${store.server.url}/`);
    const welcome = await toastText(page, 'Login successful');
    expect(welcome).toContain('Login successful');
    expect(welcome).toContain('Welcome back, e2e_shopper!');

    await accountMenu.click();
    await page.locator('[data-menu="account"]').getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${store.server.url}/`);
    await page.goto(`${store.server.url}/auth`);
    await islandsReady(page);
    await login.getByLabel('Username').fill('e2e_shopper');
    await login.getByLabel('Password').fill('not-my-password');
    await login.getByRole('button', { name: 'Login' }).click();
    const failure = await toastText(page, 'Login failed');
    expect(failure).toContain('Login failed');
    expect(failure).toContain('Invalid username or password');
    expect(page.url()).toBe(`${store.server.url}/auth`);
    await screenshot(page, 'auth-login-failed');

    expect(errors).toEqual([]);
    await context.close();
  });

  test('the form rules show under the fields before anything is sent', async () => {
    const page = await store.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${store.server.url}/auth`);
    await islandsReady(page);
    const login = page.locator('form[action^="/auth/login"]');
    await login.getByRole('button', { name: 'Login' }).click();
    await shows(login.getByText('Username is required'));
    await shows(login.getByText('Password must be at least 6 characters'));
    await page.close();
  });
});

describe('without JavaScript', () => {
  test('the login form still signs in through a form post', async () => {
    const context = await store.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${store.server.url}/auth?tab=register`);
    const register = page.locator('form[action^="/auth/register"]');
    await register.getByLabel('Username').fill('nojs_shopper');
    await register.getByLabel('Password', { exact: true }).fill('beach-day-2');
    await register.getByLabel('Confirm Password').fill('beach-day-2');
    await register.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(`${store.server.url}/`);
    await shows(page.getByText('Registration successful'));
    await shows(page.getByRole('button', { name: 'Account menu for nojs_shopper' }));
    await context.close();
  });
});

describe('pages', () => {
  test('an unknown path shows the 404 texts', async () => {
    const page = await store.browser.newPage();
    const response = await page.goto(`${store.server.url}/this/does/not/exist`);
    expect(response?.status()).toBe(404);
    await shows(page.getByRole('heading', { name: '404 Page Not Found' }));
    await shows(page.getByText('Did you forget to add the page to the router?'));
    await page.close();
  });

  test('the home page has the right title and sharing tags, and loads no JavaScript signed out', async () => {
    for (const width of [390, 1280]) {
      const page = await store.browser.newPage({ viewport: { width, height: width === 390 ? 844 : 900 } });
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
      });
      const errors = watchErrors(page);
      await page.goto(`${store.server.url}/`, { waitUntil: 'networkidle' });
      expect(await page.title()).toBe('CSA');
      const meta = (key: string) => page.locator(`meta[property="${key}"], meta[name="${key}"]`).getAttribute('content');
      expect(await meta('description')).toBe('The Competitive Shopping Association. Discover premium designer products.');
      expect(await meta('og:title')).toBe('CSA');
      expect(await meta('og:url')).toBe(`${store.server.url}/`);
      expect(await meta('og:type')).toBe('website');
      const image = (await meta('og:image'))!;
      expect(image).toBe(`${store.server.url}/static/images/og-default.png`);
      expect((await page.request.get(image)).status()).toBe(200);
      await shows(page.getByRole('heading', { name: 'Sunglasses' }));
      expect(await page.locator('main article').count()).toBe(16);
      expect(scripts).toEqual([]);
      const broken = await page.evaluate(() => [...document.images].filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src));
      expect(broken).toEqual([]);
      await screenshot(page, 'home');
      expect(errors).toEqual([]);
      await page.close();
    }
  });
});
