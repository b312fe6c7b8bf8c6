import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { buyNowBody, COMPLETE_PROFILE } from '../helpers/actors.ts';
import { islandsReady, shows } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { Client } from '../helpers/http-client.ts';
import { E2E_ADMIN } from '../helpers/server.ts';

setDefaultTimeout(90_000);

/* The LIVE panel and the bell move when something changes, without a reload and without a poll request. */
const store = storeAndBrowser();

const PROFILE = { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } };

async function shopper(name: string): Promise<Client> {
  const client = new Client(store.server);
  await client.ok('POST', '/api/register', { username: name, password: 'live-pass-1' });
  await client.ok('PATCH', '/api/user/profile', PROFILE);
  await client.ok('POST', '/api/user/play-consent', { adult: true, acceptRules: true });
  return client;
}

describe('live updates by server-sent events', () => {
  test('the competition panel shows a new entry within a second, and nothing polls', async () => {
    const url = store.server.url;
    const page = await store.browser.newPage({ viewport: { width: 390, height: 844 } });
    const polls: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/products\/\d+\/competition|\/api\/notifications/.test(request.url())) polls.push(request.url());
    });
    const player = await shopper('live_player');
    const book = ((await player.ok('GET', '/api/products?q=old%20man')) as { id: number }[])[0]!;
    await page.goto(`${url}/product/${book.id}?tab=competition`);
    await islandsReady(page);
    await page.waitForFunction(() => document.querySelector('[data-game-status]') !== null);

    const influencers = ((await player.ok('GET', '/api/influencers')) as { id: string }[]).map((i) => i.id);
    const entered = Date.now();
    await player.ok('POST', '/api/plays', { productId: book.id, influencerIds: influencers.slice(0, 5) });
    await player.ok('POST', '/api/payments', { productId: book.id, amount: 1, type: 'play' });
    await page.getByText('(1/2 entries)').waitFor({ timeout: 5000 });
    const seenAfterMs = Date.now() - entered;
    expect(seenAfterMs).toBeLessThan(3000);
    expect(polls).toEqual([]);
    await page.close();
  });

  test('the scoreboard shows a game that opens elsewhere, without a reload or a poll', async () => {
    const url = store.server.url;
    const page = await store.browser.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto(`${url}/scoreboard`);
    await islandsReady(page);
    const reads: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/scoreboard')) reads.push(request.url());
    });
    const player = await shopper('live_board');
    const products = (await player.ok('GET', '/api/products')) as { id: number; brand: string; playEnabled: boolean; quantity: number }[];
    const listed = (await page.locator('[data-live-region="scoreboard"]').textContent()) ?? '';
    const product = products.find((p) => p.playEnabled && p.quantity > 2 && !listed.includes(p.brand))!;
    const influencers = ((await player.ok('GET', '/api/influencers')) as { id: string }[]).map((i) => i.id);
    await player.ok('POST', '/api/plays', { productId: product.id, influencerIds: influencers.slice(0, 5) });
    await player.ok('POST', '/api/payments', { productId: product.id, amount: 1, type: 'play' });
    await page.locator('[data-live-region="scoreboard"]').getByText(product.brand).first().waitFor({ timeout: 5000 });
    // One read of the page per change, not a timer.
    expect(reads.length).toBeLessThanOrEqual(2);
    await page.close();
  });

  test('the bell and the cart badge follow what happens elsewhere, without a reload or a poll', async () => {
    const url = store.server.url;
    const context = await store.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const client = await shopper('live_bell');
    // The browser shares the shopper's session.
    const cookie = client.cookie.split('=');
    await context.addCookies([{ name: cookie[0]!, value: cookie.slice(1).join('='), url }]);
    const page = await context.newPage();
    const polls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/notifications')) polls.push(request.url());
    });
    const products = (await client.ok('GET', '/api/products')) as { id: number; price: number; quantity: number; buyNowEnabled: boolean }[];
    const product = products.find((p) => p.quantity > 3 && p.buyNowEnabled)!;
    const order = (await client.ok('POST', '/api/orders', buyNowBody(product.id, Math.round(product.price * 100)))) as { id: number };

    await page.goto(`${url}/`);
    await islandsReady(page);
    const bell = page.getByRole('button', { name: /^Notifications/ });
    const before = await bell.getAttribute('aria-label');

    const admin = new Client(store.server);
    await admin.ok('POST', '/api/login', { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
    await admin.ok('POST', '/api/admin/pin', { pin: E2E_ADMIN.pin });
    await admin.ok('POST', `/api/admin/orders/${order.id}/status`, { status: 'completed' });
    await page.waitForFunction((label) => document.querySelector('[aria-label^="Notifications"]')?.getAttribute('aria-label') !== label, before, {
      timeout: 5000,
    });
    await bell.click();
    await shows(page.getByRole('dialog').getByText('Order delivered').first());

    await client.ok('POST', '/api/cart', { productId: product.id, quantity: 2 });
    await page.getByRole('link', { name: 'Cart, 2 items' }).waitFor({ timeout: 5000 });
    expect(polls).toEqual([]);
    await context.close();
  });
});
