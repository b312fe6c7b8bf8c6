import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { islandsReady, toastText, shows } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(90_000);

/* A visitor fills a cart without an account, logs in, and finds the same cart in their account. */
const store = storeAndBrowser();

const PROFILE = { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } };

describe('a visitor cart across login', () => {
  test('Add to Cart as a visitor stays on the product; logging in brings the cart into the account', async () => {
    const url = store.server.url;
    const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
    const setup = await store.browser.newContext();
    expect(
      (await setup.request.post(`${url}/api/register`, { data: { username: 'kai_reef', password: 'reef-pass-1' }, headers: { origin: url } })).status(),
    ).toBe(201);
    expect((await setup.request.patch(`${url}/api/user/profile`, { data: PROFILE, headers: { origin: url } })).status()).toBe(200);
    await setup.close();

    const products = (await (await context.request.get(`${url}/api/products`)).json()) as { id: number; quantity: number; buyNowEnabled: boolean }[];
    const product = products.find((p) => p.quantity > 2 && p.buyNowEnabled)!;
    const page = await context.newPage();
    await page.goto(`${url}/product/${product.id}`);
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await page.waitForURL(`${url}/product/${product.id}`);
    expect(await toastText(page, 'Added to cart')).toContain('Added to cart');
    // The visitor's cart opens without an account.
    await page.goto(`${url}/cart`);
    await shows(page.getByRole('heading', { name: 'Cart', exact: true }));
    await shows(page.getByText('Checking out as a guest'));
    await page.getByRole('link', { name: 'Log in', exact: true }).click();
    await page.waitForURL(/\/auth\?next=%2Fcart/);
    await islandsReady(page);
    const login = page.locator('form[action^="/auth/login"]');
    await login.getByLabel('Username').fill('kai_reef');
    await login.getByLabel('Password').fill('reef-pass-1');
    await login.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${url}/cart`);
    expect(await toastText(page, 'Your cart came with you')).toContain('Your cart came with you');
    await shows(page.getByRole('link', { name: 'Cart, 1 item' }));
    await shows(page.getByRole('button', { name: /Remove/ }));
    expect(await page.getByText('Checking out as a guest').count()).toBe(0);
    await context.close();
  });
});
