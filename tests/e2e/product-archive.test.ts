import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { islandsReady, screenshot, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { shopperWithCard, type Client } from '../helpers/http-client.ts';
import { E2E_ADMIN } from '../helpers/server.ts';

setDefaultTimeout(180_000);

/*
 * Issue 27, item 11, as the admin walks it: she removes a product whose game has been played
 * and settled. The dialog says it will be archived, not deleted; it leaves the shop, and the
 * player who won still finds the game under My Games and its public record.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const store = storeAndBrowser({ CLOCK: 'manual' });

async function moveClock(body: { now?: number; advanceMs?: number }) {
  const response = await fetch(`${store.server.url}/api/test/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: store.server.url },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
}

async function enterGame(player: Client, productId: number, influencerIds: string[]) {
  await player.ok('POST', '/api/user/play-consent', { adult: true, acceptRules: true });
  await player.ok('POST', '/api/plays', { productId, influencerIds });
  await player.ok('POST', '/api/payments', { productId, amount: 1, type: 'play' });
}

/** A browser page signed in as the player the API client registered. */
async function pageOf(player: Client): Promise<Page> {
  const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
  const [name, value] = player.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: store.server.url }]);
  return context.newPage();
}

describe('the admin archives a product whose game was played', () => {
  test('the dialog says archive, the shop no longer sells it, the players keep their game', async () => {
    const start = Math.floor(Date.now() / HOUR) * HOUR + HOUR;
    await moveClock({ now: start - 50 * MINUTE });
    const visitor = await shopperWithCard(store.server, 'reader_a');
    const second = await shopperWithCard(store.server, 'reader_b');
    const book = ((await visitor.ok('GET', '/api/products?q=old%20man')) as { id: number; price: number }[])[0]!;
    const influencers = ((await visitor.ok('GET', '/api/influencers')) as { id: number | string }[]).map((i) => String(i.id));
    await enterGame(visitor, book.id, influencers.slice(0, 5));
    await enterGame(second, book.id, influencers.slice(5, 10));
    await moveClock({ now: start });
    await moveClock({ advanceMs: HOUR + MINUTE });
    const competition = (await visitor.ok('GET', `/api/products/${book.id}/competition`)) as { gameStatus: string; gameId: number };
    expect(competition.gameStatus).toBe('completed');

    const admin = await store.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors = watchErrors(admin);
    await admin.goto(`${store.server.url}/auth`);
    await islandsReady(admin);
    const login = admin.locator('form[action^="/auth/login"]');
    await login.getByLabel('Username').fill(E2E_ADMIN.username);
    await login.getByLabel('Password').fill(E2E_ADMIN.password);
    await login.getByRole('button', { name: 'Login' }).click();
    await admin.waitForURL(`${store.server.url}/`);
    await admin.goto(`${store.server.url}/admin?tab=book`);
    await admin.getByLabel('Admin PIN').fill(E2E_ADMIN.pin);
    await admin.getByRole('button', { name: 'Verify PIN' }).click();
    await admin.waitForURL(`${store.server.url}/admin?tab=book`);
    await islandsReady(admin);

    const row = admin.locator('main li').filter({ hasText: 'The Old Man and the Sea' });
    await row.getByRole('link', { name: /^Archive/ }).click();
    const dialog = admin.getByRole('dialog');
    await shows(dialog.getByText('This product has 0 orders and 1 game: it will be archived, not deleted.'));
    await screenshot(admin, 'admin-archive-dialog');
    await dialog.getByRole('button', { name: 'Archive' }).click();
    await admin.waitForURL(`${store.server.url}/admin?tab=book`);
    expect(await toastText(admin, 'Product archived')).toContain('Product archived');
    await shows(row.getByText('Archived: not in the shop'));
    await shows(row.getByRole('button', { name: /^Restore/ }));

    // The shop no longer offers it.
    const shopper = await store.browser.newPage({ viewport: { width: 390, height: 844 } });
    await shopper.goto(`${store.server.url}/products?type=book`);
    await shows(shopper.getByRole('heading', { name: 'Cannery Row' }));
    expect(await shopper.getByRole('heading', { name: 'The Old Man and the Sea' }).count()).toBe(0);
    const gone = await shopper.goto(`${store.server.url}/product/${book.id}`);
    expect(gone?.status()).toBe(404);
    await shows(shopper.getByText('The Old Man and the Sea is no longer sold in the shop.'));

    // Both players still have the game, with its product, under My Games and its record.
    for (const player of [visitor, second]) {
      const page = await pageOf(player);
      await page.goto(`${store.server.url}/scoreboard?tab=my-games`);
      await shows(page.locator('main').getByText('The Old Man and the Sea').first());
      await screenshot(page, 'archived-product-my-games');
      await page.goto(`${store.server.url}/games/${competition.gameId}`);
      await shows(page.locator('main').getByText('The Old Man and the Sea').first());
      await page.context().close();
    }
    expect(errors).toEqual([]);
  });
});
