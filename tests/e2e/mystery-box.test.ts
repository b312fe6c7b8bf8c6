import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { islandsReady, shows } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(90_000);

/*
 * A shopper buys a mystery box in Chromium (issue 29, item 2): /mystery, Buy Mystery Box, Pay;
 * the order page shows the item drawn and the seed whose hash /mystery showed before the purchase.
 */
const store = storeAndBrowser();

describe('a mystery box in the browser', () => {
  test('buy on /mystery, land on the order with the drawn item and the revealed seed matching the hash seen', async () => {
    const context = await store.browser.newContext();
    const url = store.server.url;
    const headers = { origin: url };
    expect((await context.request.post(`${url}/api/register`, { data: { username: 'box_buyer', password: 'tide-pass-1' }, headers })).status()).toBe(201);
    const saved = await context.request.patch(`${url}/api/user/profile`, {
      data: {
        name: 'Nora Tide',
        email: 'nora@example.com',
        phone: '949-555-0142',
        address: { line1: '77 Glenneyre St', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
        paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' },
      },
      headers,
    });
    expect(saved.status()).toBe(200);
    const page = await context.newPage();
    await page.goto(`${url}/mystery`);
    await islandsReady(page);
    const box = page.locator('[data-box="sunglasses"]');
    const seenHash = (await box.locator('[data-seed-hash]').textContent())!.trim();
    await box.getByRole('button', { name: /Buy Mystery Box/ }).click();
    await page.getByRole('button', { name: /^Pay \$/ }).click();
    await page.waitForURL(/\/orders\/\d+$/);
    await shows(page.locator('[data-mystery-draw]'));
    const seed = (await page.locator('[data-seed]').textContent())!.trim();
    const hash = new Bun.CryptoHasher('sha256').update(Buffer.from(seed, 'hex')).digest('hex');
    expect(hash).toBe(seenHash);
    expect((await page.locator('[data-drawn]').textContent())!.length).toBeGreaterThan(0);
    await context.close();
  });
});
