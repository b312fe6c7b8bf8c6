import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { islandsReady, screenshot, shows, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { FAKE_SQUARE_LOCATION, FAKE_SQUARE_TOKEN, startFakeSquare } from '../helpers/fake-square.ts';

setDefaultTimeout(120_000);

/*
 * Issue 25, row 1, in Chromium against the fake Square with 400 ms of latency: the answer to
 * Pay is reset on its way back (the server did the work, the page never hears of it); the
 * island asks again with the same Idempotency-Key, and when the shopper presses Pay again it
 * is the same attempt: one charge at Square, one order, and the page shows it. The same for the
 * cart checkout and the $1 entry; a double click pays once; a shopper back on a checkout they
 * just paid is told so, and buys again on purpose as a new order.
 */

const fake = await startFakeSquare();
fake.setLatency(400, { method: 'POST', path: '/v2/payments' });
afterAll(() => fake.stop());

const store = storeAndBrowser({
  RATE_LIMIT: 'off',
  PAYMENTS: 'square',
  SQUARE_ACCESS_TOKEN: FAKE_SQUARE_TOKEN,
  SQUARE_LOCATION_ID: FAKE_SQUARE_LOCATION,
  SQUARE_BASE_URL: fake.url,
  PAYMENT_TIMEOUT_MS: '5000',
});

interface Product {
  id: number;
  quantity: number;
  buyNowEnabled: boolean;
  playEnabled: boolean;
}

/** A signed-in shopper (complete profile, a card on file at the fake Square, 18+ and the rules confirmed) in a fresh context. */
async function shopper(username: string, width = 390): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const url = store.server.url;
  const context = await store.browser.newContext({ viewport: { width, height: 844 } });
  const headers = { origin: url };
  expect((await context.request.post(`${url}/api/register`, { data: { username, password: 'tide-pass-1' }, headers })).status()).toBe(201);
  const saved = await context.request.patch(`${url}/api/user/profile`, {
    data: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } },
    headers,
  });
  expect(saved.status()).toBe(200);
  expect((await context.request.post(`${url}/api/user/play-consent`, { data: { adult: true, acceptRules: true }, headers })).status()).toBe(200);
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

let catalogue: Product[] | undefined;
async function products(page: Page): Promise<Product[]> {
  catalogue ??= (await (await page.request.get(`${store.server.url}/api/products`)).json()) as Product[];
  return catalogue;
}

/** A product for sale with stock to spare, a different one for each test. */
let taken = 0;
async function forSale(page: Page): Promise<number> {
  return (await products(page)).filter((p) => p.buyNowEnabled && p.quantity > 3)[taken++]!.id;
}

async function ordersOf(page: Page): Promise<{ id: number; status: string }[]> {
  return (await (await page.request.get(`${store.server.url}/api/user/orders`)).json()) as { id: number; status: string }[];
}

/** Square's payments made while `run` ran. */
async function paymentsDuring(run: () => Promise<void>): Promise<{ status: string }[]> {
  const before = fake.payments().length;
  await run();
  return fake.payments().slice(before);
}

/**
 * Every answer of `path` is reset on its way back while `cut.on` (the server did the work, the
 * page never hears of it); `cut.answered` counts the answers the server gave meanwhile.
 */
async function cutAnswers(page: Page, path: string) {
  const cut = { on: true, answered: 0 };
  await page.route(`**${path}`, async (route) => {
    if (!cut.on || route.request().method() !== 'POST') return route.continue();
    await route.fetch();
    cut.answered++;
    await route.abort('connectionreset');
  });
  return cut;
}

describe('the answer to Pay is lost on its way back', () => {
  test('buy now: the island asks again with its key, Pay comes back, the second tap is the same attempt: one charge, one order, shown', async () => {
    const { context, page, errors } = await shopper('lost_buy');
    const productId = await forSale(page);
    await page.goto(`${store.server.url}/checkout?productId=${productId}`);
    await islandsReady(page);
    const cut = await cutAnswers(page, '/api/orders');
    const made = await paymentsDuring(async () => {
      await page.getByRole('button', { name: /^Pay \$/ }).click();
      await shows(page.getByRole('button', { name: 'Processing...' }));
      // Every check's answer is lost too: the island stops asking and offers Pay again, saying why.
      await shows(page.getByRole('alert').getByText('We could not reach the store to confirm your payment.'));
      expect(cut.answered).toBeGreaterThan(1);
      cut.on = false;
      await page.getByRole('button', { name: /^Pay \$/ }).click();
      await page.waitForURL(/\/order-confirmation\/\d+$/);
    });
    expect(await page.locator('h1').first().textContent()).toContain('Thank you! Your order is confirmed.');
    expect(made.map((p) => p.status)).toEqual(['COMPLETED']);
    const orders = await ordersOf(page);
    expect(orders).toHaveLength(1);
    expect(page.url()).toEndWith(`/order-confirmation/${orders[0]!.id}`);
    expect(errors.filter((e) => !e.includes('ERR_CONNECTION_RESET'))).toEqual([]);
    await context.close();
  });

  test('cart checkout: the same, one charge and one order', async () => {
    const { context, page } = await shopper('lost_cart');
    const productId = await forSale(page);
    expect(
      (await page.request.post(`${store.server.url}/api/cart`, { data: { productId, quantity: 1 }, headers: { origin: store.server.url } })).status(),
    ).toBe(201);
    await page.goto(`${store.server.url}/cart`);
    await islandsReady(page);
    const cut = await cutAnswers(page, '/api/checkout');
    const made = await paymentsDuring(async () => {
      await page.getByRole('button', { name: 'Complete Purchase' }).click();
      await shows(page.getByRole('alert').getByText('We could not reach the store to confirm your payment.'));
      cut.on = false;
      await page.getByRole('button', { name: 'Complete Purchase' }).click();
      await page.waitForURL(/\/order-confirmation\/\d+$/);
    });
    expect(made.map((p) => p.status)).toEqual(['COMPLETED']);
    const orders = await ordersOf(page);
    expect(orders).toHaveLength(1);
    expect(page.url()).toEndWith(`/order-confirmation/${orders[0]!.id}`);
    await context.close();
  });

  test('$1 entry: the same, one hold and one entry', async () => {
    const { context, page } = await shopper('lost_entry');
    const product = (await products(page)).find((p) => p.playEnabled && p.quantity > 0)!;
    await page.goto(`${store.server.url}/play/${product.id}`);
    await islandsReady(page);
    await page.getByRole('button', { name: 'View More' }).click();
    const selects = page.getByRole('button', { name: /^Select / });
    for (let i = 0; i < 5; i++) await selects.first().click();
    const cut = await cutAnswers(page, '/api/payments');
    const made = await paymentsDuring(async () => {
      await page.getByRole('button', { name: 'Join Game - $1' }).click();
      await shows(page.locator('[data-toast]').getByText('We could not reach the store to confirm your payment.'));
      cut.on = false;
      await page.getByRole('button', { name: 'Join Game - $1' }).click();
      await page.waitForURL(`${store.server.url}/product/${product.id}?tab=competition`);
    });
    await shows(page.locator('[data-toast]').getByText("You're in!"));
    expect(made.map((p) => p.status)).toEqual(['APPROVED']);
    const plays = (await (await page.request.get(`${store.server.url}/api/user/plays`)).json()) as { status: string }[];
    expect(plays.filter((p) => p.status === 'entered')).toHaveLength(1);
    await context.close();
  });
});

describe('a double click, then coming back', () => {
  test("a double click pays once; Back to the checkout says 'You bought this ... ago' with the order; buying again on purpose is a new order", async () => {
    const { context, page } = await shopper('double_tap');
    const productId = await forSale(page);
    const checkout = `${store.server.url}/checkout?productId=${productId}`;
    await page.goto(checkout);
    await islandsReady(page);
    const once = await paymentsDuring(async () => {
      await page.getByRole('button', { name: /^Pay \$/ }).dblclick();
      await page.waitForURL(/\/order-confirmation\/\d+$/);
    });
    expect(once).toHaveLength(1);
    const [first] = await ordersOf(page);
    expect(await ordersOf(page)).toHaveLength(1);

    await page.goBack();
    await page.waitForURL(checkout);
    const notice = page.locator('[data-recent-purchase]');
    await shows(notice);
    expect(await notice.textContent()).toContain('You bought this less than a minute ago.');
    expect(await notice.getByRole('link').getAttribute('href')).toBe(`/orders/${first!.id}`);
    await islandsReady(page);
    // Back brings the shopper to where they were, next to Pay: it says so there too.
    const nearPay = page.locator('[data-bought-again]');
    await shows(nearPay);
    expect(await nearPay.textContent()).toContain('You bought this less than a minute ago');
    const shots = [await screenshot(page, 'checkout-bought-already-near-pay')];
    await page.evaluate(() => window.scrollTo(0, 0));
    shots.push(await screenshot(page, 'checkout-bought-already'));
    await page.setViewportSize({ width: 1280, height: 900 });
    shots.push(await screenshot(page, 'checkout-bought-already'));
    console.log(`screenshots: ${shots.join(', ')}`);

    const again = await paymentsDuring(async () => {
      await page.getByRole('button', { name: /^Pay \$/ }).click();
      await page.waitForURL(/\/order-confirmation\/\d+$/);
    });
    expect(again).toHaveLength(1);
    expect((await ordersOf(page)).filter((o) => o.status === 'processing')).toHaveLength(2);
    await context.close();
  });
});
