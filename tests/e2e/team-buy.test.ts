import { expect, setDefaultTimeout, test } from 'bun:test';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { screenshot, shows, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { Client, shopperWithCard } from '../helpers/http-client.ts';
import { E2E_ADMIN, type RunningServer } from '../helpers/server.ts';

/*
 * Issue 29, the browser test of a team buy: shopper A starts a team on the product page ('Buy
 * with a friend'), shopper B opens the share link in another browser, joins, and both find their
 * own order on the profile's Orders tab.
 */

setDefaultTimeout(120_000);

const store = storeAndBrowser();

/** A browser context signed in as a new shopper with a complete profile and a card (made through the API). */
async function signedIn(browser: Browser, server: RunningServer, username: string): Promise<Page> {
  const client = await shopperWithCard(server, username);
  const [name, value] = client.cookie.split('=') as [string, string];
  // bypassCSP only so axe-core can be injected; the pages themselves are unchanged.
  const context = await browser.newContext({ viewport: { width: 390, height: 1400 }, bypassCSP: true });
  await context.addCookies([{ name, value, url: server.url }]);
  return context.newPage();
}

/** The island (a display: contents wrapper) hydrated, once what it shows is scrolled into view ('visible' islands wait for it). */
async function hydrated(page: Page, island: string, shown: string): Promise<void> {
  await page.locator(shown).first().scrollIntoViewIfNeeded();
  await page.waitForFunction((name) => document.querySelector<HTMLElement>(`[data-island="${name}"]`)?.dataset.hydrated === 'true', island);
}

test('A starts a team on the product page, B joins from the share link, both see their orders', async () => {
  const { server, browser } = store;
  const alice = await signedIn(browser, server, 'alice_team');
  const bob = await signedIn(browser, server, 'bob_team');
  const errors = [...watchErrors(alice), ...watchErrors(bob)];

  // A demo product with half price on (the seed turns it on for the Hoka Clifton 9: $145.00).
  await alice.goto(`${server.url}/products?q=Clifton`);
  const href = (await alice.locator('main article a').first().getAttribute('href'))!;
  await alice.goto(`${server.url}${href}`);
  await shows(alice.getByRole('heading', { name: 'Buy with a friend for $72.50' }));
  await hydrated(alice, 'TeamBuy', '[data-team-buy]');
  // B has the same product open: the new team appears in its list, live.
  await bob.goto(alice.url());
  await hydrated(bob, 'TeamBuy', '[data-team-buy]');
  expect(await bob.locator('[data-open-teams]').count()).toBe(0);
  await alice.getByRole('button', { name: 'Start a team' }).click();
  const link = alice.locator('[data-share-link]');
  await shows(link);
  const url = await link.inputValue();
  expect(url).toMatch(/\/team\/[a-z2-9]{10}$/);
  await screenshot(alice, 'team-started');
  expect(await seriousViolations(alice)).toEqual([]);

  await shows(bob.locator('[data-open-teams]').getByText('a***m'));
  await bob.goto(url);
  await shows(bob.getByRole('heading', { name: /^Join a\*\*\*m's team for \$72\.50$/ }));
  await hydrated(bob, 'TeamJoin', '[data-island="TeamJoin"] button');
  expect(await seriousViolations(bob)).toEqual([]);
  await bob.getByRole('button', { name: 'Join for $72.50' }).click();
  await shows(bob.getByText('Your team is full!'));
  await screenshot(bob, 'team-joined');

  for (const page of [alice, bob]) {
    await page.goto(`${server.url}/profile?tab=orders`);
    await shows(page.getByRole('link', { name: /^Order #\d+$/ }).first());
    await shows(page.locator('[data-status="processing"]').first());
  }
  expect(errors).toEqual([]);
});

test("the admin's Promotions tab shows the filled team with both orders, without serious axe violations", async () => {
  const { server, browser } = store;
  const admin = new Client(server);
  await admin.ok('POST', '/api/login', { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
  await admin.ok('POST', '/api/admin/pin', { pin: E2E_ADMIN.pin });
  const [name, value] = admin.cookie.split('=') as [string, string];
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();
  await page.goto(`${server.url}/admin?tab=promotions&teams=filled`);
  const section = page.locator('[data-admin-teams]');
  await shows(section.getByRole('heading', { name: 'Half price with a friend: teams' }));
  await shows(section.getByText(/alice_team \(starter, paid\)/));
  await shows(section.getByText(/bob_team \(joiner, paid\)/));
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, 'admin-promotions-teams');
});
