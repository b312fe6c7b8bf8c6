import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { islandsReady, screenshot, watchErrors, shows } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(180_000);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const store = storeAndBrowser({ CLOCK: 'manual' });

interface Player {
  name: string;
  context: BrowserContext;
  page: Page;
  id: number;
  errors: string[];
}

async function moveClock(page: Page, body: { now?: number; advanceMs?: number }): Promise<number> {
  const response = await page.request.post(`${store.server.url}/api/test/clock`, { data: body });
  expect(response.status()).toBe(200);
  return (await response.json()).now;
}

/** A shopper with a complete profile and the approving test card on file. */
async function newPlayer(name: string): Promise<Player> {
  const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const registered = await page.request.post(`${store.server.url}/api/register`, { data: { username: name, password: 'beach-day-7' } });
  expect(registered.status()).toBe(201);
  const saved = await page.request.patch(`${store.server.url}/api/user/profile`, {
    data: {
      name: `${name} Player`,
      email: `${name}@example.com`,
      phone: '9495550199',
      address: { line1: '456 Coast Highway', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
      paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' },
    },
  });
  expect(saved.status()).toBe(200);
  return { name, context, page, id: (await registered.json()).id, errors };
}

async function join(player: Player, productId: number, first: number) {
  const { page } = player;
  await page.goto(`${store.server.url}/play/${productId}`);
  await islandsReady(page);
  await page.getByRole('button', { name: 'View More' }).click();
  const selects = page.getByRole('button', { name: /^Select / });
  for (let i = 0; i < 5; i++) await selects.nth(first).click();
  await page.getByRole('button', { name: 'Join Game - $1' }).click();
  // A first game asks once: 18 or older, and the official rules.
  const consent = page.getByRole('dialog', { name: 'Before your first game' });
  const competition = `${store.server.url}/product/${productId}?tab=competition`;
  if ((await Promise.race([consent.waitFor().then(() => 'dialog'), page.waitForURL(competition).then(() => 'joined')])) === 'dialog') {
    await consent.getByLabel('I am 18 or older').check();
    await consent.getByLabel('I accept the official rules').check();
    await consent.getByRole('button', { name: 'Confirm and join' }).click();
  }
  await page.waitForURL(competition);
  await page.locator('[data-toast]').getByText("You're in!").waitFor();
}

async function leaderboardScores(page: Page): Promise<number[]> {
  const scores = await page.locator('[data-play-id] [data-score]').allTextContents();
  return scores.map((text) => {
    const m = /(\d+(?:\.\d)?)(K|M)?/.exec(text)!;
    return Number(m[1]) * (m[2] === 'K' ? 1000 : m[2] === 'M' ? 1e6 : 1);
  });
}

async function openBell(page: Page) {
  await page.getByRole('button', { name: /^Notifications/ }).click();
  return page.getByRole('dialog');
}

describe('two people play a whole game from their phones', () => {
  test('join a $2 game, watch it live, and the winner claims the $1 prize', async () => {
    const alice = await newPlayer('alice_e2e');
    const bob = await newPlayer('bob_e2e');
    const ten = Math.floor(Date.now() / HOUR) * HOUR + HOUR + 10 * MINUTE;
    await moveClock(alice.page, { now: ten });

    const products = (await (await alice.page.request.get(`${store.server.url}/api/products?q=old%20man`)).json()) as { id: number; price: number }[];
    const book = products[0]!;
    expect(book.price).toBe(2);

    await join(alice, book.id, 0);
    await shows(alice.page.getByText('Waiting for 1 more participants. (1/2 entries)'));
    await join(bob, book.id, 5);
    await screenshot(bob.page, 'game-waiting');

    await moveClock(alice.page, { now: ten + 50 * MINUTE });
    for (const player of [alice, bob]) {
      await player.page.reload();
      await islandsReady(player.page);
      await shows(player.page.getByText('LIVE', { exact: true }));
      await shows(player.page.getByText(/Live competition in progress!/));
    }
    await moveClock(alice.page, { advanceMs: 10 * MINUTE });
    await alice.page.reload();
    await islandsReady(alice.page);
    const early = await leaderboardScores(alice.page);
    await moveClock(alice.page, { advanceMs: 20 * MINUTE });
    await alice.page.reload();
    await islandsReady(alice.page);
    const later = await leaderboardScores(alice.page);
    expect(early.length).toBe(2);
    expect(Math.max(...later)).toBeGreaterThan(Math.max(...early));
    await screenshot(alice.page, 'game-live');

    await moveClock(alice.page, { advanceMs: 31 * MINUTE });
    const competition = await (await alice.page.request.get(`${store.server.url}/api/products/${book.id}/competition`)).json();
    expect(competition.gameStatus).toBe('completed');
    const winnerUserId = competition.plays.find((p: { id: number }) => p.id === competition.winnerPlayId).userId;
    const [winner, loser] = winnerUserId === alice.id ? [alice, bob] : [bob, alice];

    await loser.page.reload();
    const loserBell = await openBell(loser.page);
    await shows(loserBell.getByText('Game over').first());
    await shows(loserBell.getByText('Play Again').first());

    await winner.page.reload();
    await shows(winner.page.getByText('Competition completed!'));
    const winnerBell = await openBell(winner.page);
    await shows(winnerBell.getByText('You won!').first());
    await screenshot(winner.page, 'game-won-bell');
    await winnerBell
      .getByRole('link', { name: /You won!/ })
      .first()
      .click();
    await winner.page.waitForURL(`${store.server.url}/cart`);
    await islandsReady(winner.page);
    await shows(winner.page.getByText('Prize · won for $1'));
    await winner.page.getByRole('tab', { name: 'Cash on Delivery' }).click();
    await winner.page.getByRole('button', { name: 'Complete Purchase' }).click();
    await winner.page.waitForURL(/\/order-confirmation\/\d+$/);
    await shows(winner.page.getByText('$1.00').first());

    for (const player of [alice, bob]) {
      expect(player.errors).toEqual([]);
      await player.context.close();
    }
  });
});
