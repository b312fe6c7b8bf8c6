import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { islandsReady, screenshot, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { shopperWithCard, type Client } from '../helpers/http-client.ts';
import { E2E_ADMIN } from '../helpers/server.ts';

setDefaultTimeout(180_000);

/*
 * Issue 34, item 4, as the admin meets it: she deletes a product whose game is being played.
 * The delete is refused in words that name the game, the toast says so, and the product stays.
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

describe('the admin deletes a product with a game being played', () => {
  test('the toast names the game and the product stays in the shop', async () => {
    const start = Math.floor(Date.now() / HOUR) * HOUR + HOUR;
    await moveClock({ now: start - 50 * MINUTE });
    const first = await shopperWithCard(store.server, 'player_a');
    const second = await shopperWithCard(store.server, 'player_b');
    const book = ((await first.ok('GET', '/api/products?q=old%20man')) as { id: number }[])[0]!;
    const influencers = ((await first.ok('GET', '/api/influencers')) as { id: number | string }[]).map((i) => String(i.id));
    await enterGame(first, book.id, influencers.slice(0, 5));
    await enterGame(second, book.id, influencers.slice(5, 10));
    await moveClock({ now: start + MINUTE });
    const competition = (await first.ok('GET', `/api/products/${book.id}/competition`)) as { gameStatus: string; gameId: number };
    expect(competition.gameStatus).toBe('active');

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
    await row.getByRole('link', { name: /^(Archive|Delete)/ }).click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByRole('button', { name: /^(Archive|Delete)$/ }).click();
    await admin.waitForURL(`${store.server.url}/admin?tab=book`);
    const words = `This product has a game being played (game #${competition.gameId}). It can be deleted once the game ends.`;
    expect(await toastText(admin, 'Deletion failed')).toContain(words);
    await screenshot(admin, 'admin-delete-refused');
    await shows(row.getByRole('link', { name: /^(Archive|Delete)/ }));
    expect(await row.getByText('Archived: not in the shop').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
