import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { islandsReady, toastText, shows } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(90_000);

/* A visitor presses Add to Cart, logs in on the page it sends them to, and finds the product in the cart. */
const store = storeAndBrowser();

const PROFILE = { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } };

describe('intent across login', () => {
  test('Add to Cart as a visitor, log in, and the product is in the cart on the page it came from', async () => {
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
    await page.waitForURL(/\/auth\?next=/);
    await islandsReady(page);
    const login = page.locator('form[action^="/auth/login"]');
    await login.getByLabel('Username').fill('kai_reef');
    await login.getByLabel('Password').fill('reef-pass-1');
    await login.getByRole('button', { name: 'Login' }).click();
    await page.waitForURL(`${url}/product/${product.id}`);
    expect(await toastText(page)).toContain('Added to cart');
    await shows(page.getByRole('link', { name: 'Cart, 1 item' }));
    await context.close();
  });
});
