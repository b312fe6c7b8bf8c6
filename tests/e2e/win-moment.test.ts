import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { islandsReady, screenshot, shows, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

/*
 * A win is a moment: two players wait for their game with the store open, one on My Games and
 * one on the catalogue. Nobody reloads. When the game starts My Games says Live; when it settles
 * the winner sees 'You won!' (a banner and a toast) wherever they are, My Games shows Won or Lost,
 * and the game stays under Winners, every page naming the players by username or 'You'.
 */

setDefaultTimeout(180_000);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const store = storeAndBrowser({ CLOCK: 'manual' });

interface Player {
  name: string;
  id: number;
  context: BrowserContext;
  myGames: Page;
  elsewhere: Page;
  errors: string[];
}

async function moveClock(page: Page, body: { now?: number; advanceMs?: number }): Promise<void> {
  expect((await page.request.post(`${store.server.url}/api/test/clock`, { data: body })).status()).toBe(200);
}

/** A player with a complete profile, a card and play consent, entered in the product's game through the API. */
async function enteredPlayer(name: string, productId: number, picks: string[]): Promise<Player> {
  const { url } = store.server;
  const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
  const api = context.request;
  const registered = await api.post(`${url}/api/register`, { data: { username: name, password: 'we-will-win' } });
  expect(registered.status()).toBe(201);
  const profile = await api.patch(`${url}/api/user/profile`, {
    data: {
      name: `${name} Winner`,
      email: `${name}@example.com`,
      phone: '9495550142',
      address: { line1: '12 Cliff Drive', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
      paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' },
    },
  });
  expect(profile.status()).toBe(200);
  expect((await api.post(`${url}/api/user/play-consent`, { data: { adult: true, acceptRules: true } })).status()).toBe(200);
  expect((await api.post(`${url}/api/plays`, { data: { productId, influencerIds: picks } })).status()).toBe(201);
  expect((await api.post(`${url}/api/payments`, { data: { productId, amount: 1, type: 'play' } })).status()).toBe(201);
  const myGames = await context.newPage();
  const elsewhere = await context.newPage();
  const errors = [...watchErrors(myGames), ...watchErrors(elsewhere)];
  return { name, id: (await registered.json()).id, context, myGames, elsewhere, errors };
}

/** Opens the page and waits until its live stream (with the topics it needs) is open. */
async function openLive(page: Page, path: string, streamQuery: RegExp): Promise<void> {
  const stream = page.waitForResponse((response) => response.url().includes('/api/events') && streamQuery.test(response.url()));
  await page.goto(`${store.server.url}${path}`);
  await islandsReady(page);
  await stream;
}

describe('a win is a moment', () => {
  test('the winner sees You won! the second the game settles, and My Games follows without a reload', async () => {
    const { url } = store.server;
    const setup = await store.browser.newPage();
    const ten = Math.floor(Date.now() / HOUR) * HOUR + HOUR + 10 * MINUTE;
    await moveClock(setup, { now: ten });
    const book = ((await (await setup.request.get(`${url}/api/products?q=old%20man`)).json()) as { id: number }[])[0]!;
    const influencers = ((await (await setup.request.get(`${url}/api/influencers`)).json()) as { id: string | number }[]).map((i) => String(i.id));

    const sally = await enteredPlayer('sally', book.id, influencers.slice(0, 5));
    const tom = await enteredPlayer('tom_reader', book.id, influencers.slice(5, 10));
    for (const player of [sally, tom]) {
      await openLive(player.myGames, '/scoreboard?tab=my-games', /scoreboard=1/);
      await shows(player.myGames.getByText('Waiting for players'));
      await openLive(player.elsewhere, '/products', /\/api\/events$/);
    }

    // The top of the hour: the game starts, and My Games says so by itself.
    await moveClock(setup, { now: ten + 50 * MINUTE });
    for (const player of [sally, tom]) await shows(player.myGames.locator('[data-play-id]').getByText('Live', { exact: true }));

    // The hour is over: the game settles.
    await moveClock(setup, { advanceMs: 61 * MINUTE });
    const competition = await (await setup.request.get(`${url}/api/products/${book.id}/competition`)).json();
    expect(competition.gameStatus).toBe('completed');
    const winnerId = competition.plays.find((p: { id: number }) => p.id === competition.winnerPlayId).userId;
    const [winner, loser] = winnerId === sally.id ? [sally, tom] : [tom, sally];

    // Wherever the winner is, without a reload: the banner and the toast.
    for (const page of [winner.elsewhere, winner.myGames]) {
      const banner = page.locator(`[data-win-banner="${competition.gameId}"]`);
      await shows(banner);
      expect(await banner.getByRole('heading').textContent()).toBe('You won!');
      await shows(banner.getByRole('link', { name: 'Claim Prize' }));
    }
    await shows(winner.elsewhere.locator('[data-toast]').getByText('You won!'));
    await screenshot(winner.elsewhere, 'win-moment');
    expect(new URL(winner.elsewhere.url()).pathname).toBe('/products');

    // My Games shows each result by itself; the loser gets no banner.
    await shows(winner.myGames.locator('[data-play-id]').getByText('Won', { exact: true }));
    await shows(loser.myGames.locator('[data-play-id]').getByText('Lost', { exact: true }));
    expect(await loser.myGames.getByText('Waiting for players').count()).toBe(0);
    expect(await loser.myGames.locator('[data-win-banner]').count()).toBe(0);
    expect(await loser.elsewhere.locator('[data-win-banner]').count()).toBe(0);

    // Celebrated once: the next page the winner opens does not repeat it.
    await winner.elsewhere.goto(`${url}/scoreboard?tab=winners`);
    await islandsReady(winner.elsewhere);
    expect(await winner.elsewhere.locator('[data-win-banner]').count()).toBe(0);
    // The settled game stays under Winners, with the winner's username.
    const row = winner.elsewhere.locator(`li[data-game-id="${competition.gameId}"]`);
    await shows(row);
    expect(await row.textContent()).toContain(winner.name);

    // Active Games says it just finished, and who won.
    await loser.elsewhere.goto(`${url}/scoreboard`);
    await shows(loser.elsewhere.locator('[data-just-finished]').getByText(winner.name));
    await screenshot(loser.elsewhere, 'just-finished');

    // One display name: the product page names the winner as the scoreboard does, and 'You' for the winner.
    await loser.elsewhere.goto(`${url}/product/${book.id}?tab=competition`);
    await shows(loser.elsewhere.getByText(`Winner: ${winner.name} with`));
    await winner.elsewhere.goto(`${url}/product/${book.id}?tab=competition`);
    await shows(winner.elsewhere.getByText('Winner: You with'));
    expect(
      await winner.elsewhere
        .locator('main')
        .getByText(/Player \d/)
        .count(),
    ).toBe(0);

    for (const player of [sally, tom]) {
      expect(player.errors).toEqual([]);
      await player.context.close();
    }
    await setup.close();
  });
});
