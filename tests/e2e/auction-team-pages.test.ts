import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { islandsReady, screenshot, shows, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { Client, shopperWithCard } from '../helpers/http-client.ts';
import { E2E_ADMIN, type RunningServer } from '../helpers/server.ts';
import { openStoreFile } from '../helpers/store-file.ts';

/*
 * Issue 37 items 6, 7, 10 and 14 in the browser, two people at once where the seam is between
 * them: a bid takes Buy Now away from the other viewer's page live, and a Buy Now pressed on a
 * checkout opened before the bid is told to bid (nothing charged); the auction panel explains the
 * reserve and soft close; the team page after a join, for the joiner and the starter; the
 * detour from a bid to the profile and back with the amount still typed.
 */

setDefaultTimeout(180_000);

const store = storeAndBrowser();

async function signedIn(browser: Browser, server: RunningServer, client: Client, width: number): Promise<Page> {
  const [name, value] = client.cookie.split('=') as [string, string];
  const context = await browser.newContext({ viewport: { width, height: 1200 } });
  await context.addCookies([{ name, value, url: server.url }]);
  return context.newPage();
}

async function admin(): Promise<Client> {
  const client = new Client(store.server);
  await client.ok('POST', '/api/login', { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
  await client.ok('POST', '/api/admin/pin', { pin: E2E_ADMIN.pin });
  return client;
}

/** The store file, for what no page shows (the payments a refusal must not have written). */
function storeQuery<T>(sql: string, ...params: (number | string)[]): T {
  const db = openStoreFile(join(store.server.dataDir, 'data', 'store.db'));
  try {
    return db.query(sql).get(...params) as T;
  } finally {
    db.close();
  }
}

/** The store's `n`th product, bid-enabled with two units (one held by the auction), auctioned for an hour with Buy Now kept and a reserve. */
async function auctioned(n: number): Promise<number> {
  const db = openStoreFile(join(store.server.dataDir, 'data', 'store.db'));
  const productId = (db.query('select id from products where archived_at is null order by id limit 1 offset ?').get(n) as { id: number }).id;
  db.query('update products set bid_enabled = 1, quantity = 2 where id = ?').run(productId);
  db.close();
  const endsAt = new Date(Date.now() + 60 * 60_000).toISOString();
  await (await admin()).ok('PUT', `/api/admin/products/${productId}/auction`, { startingBid: 10, reservePrice: 100, keepBuyNow: true, endsAt });
  return productId;
}

const panel = (page: Page) => page.getByRole('region', { name: 'Auction' });

async function openProduct(page: Page, productId: number): Promise<void> {
  await page.goto(`${store.server.url}/product/${productId}`);
  await islandsReady(page);
  await shows(page.locator('[data-auction-status="running"]'));
}

async function panelShot(page: Page, name: string): Promise<void> {
  await panel(page).evaluate((element) => element.scrollIntoView({ block: 'start' }));
  await screenshot(page, name);
}

describe('the auction panel, two people at once', () => {
  test("one bids: the other's Buy Now goes without a reload; a checkout opened before is told to bid, and nothing is charged", async () => {
    const { server, browser } = store;
    const productId = await auctioned(0);
    const ava = await signedIn(browser, server, await shopperWithCard(server, 'ava_pages'), 390);
    const ben = await signedIn(browser, server, await shopperWithCard(server, 'ben_pages'), 1280);
    const errors = [...watchErrors(ava), ...watchErrors(ben)];
    await openProduct(ava, productId);
    await openProduct(ben, productId);
    // Reserve and soft close explained where people bid, with the words of /auctions.
    for (const page of [ava, ben]) {
      await shows(panel(page).locator('[data-reserve-help]', { hasText: 'the item sells only when the bidding reaches it' }));
      await shows(panel(page).locator('[data-soft-close]', { hasText: 'A bid in the last 2 minutes moves the end to 2 minutes after it' }));
      await shows(panel(page).getByRole('link', { name: /^Buy Now \$/ }));
    }
    await panelShot(ava, 'auction-panel-rules');
    await panelShot(ben, 'auction-panel-rules');
    // Ben opens the checkout in a second tab before anyone bids.
    const checkout = await ben.context().newPage();
    errors.push(...watchErrors(checkout));
    await checkout.goto(`${server.url}/checkout?productId=${productId}`);
    await islandsReady(checkout);

    await ava.getByLabel('Your maximum bid').fill('30');
    await ava.getByRole('button', { name: 'Place Bid' }).click();
    await shows(panel(ava).getByText("You're the highest bidder."));
    // Ben's product page follows the bid without a reload: Buy Now is gone, the bid form stays.
    await shows(panel(ben).locator('[data-bid-count]', { hasText: '1 bid' }));
    await panel(ben)
      .getByRole('link', { name: /^Buy Now \$/ })
      .waitFor({ state: 'detached' });
    expect(await ava.getByRole('link', { name: /^Buy Now \$/ }).count()).toBe(0);
    await shows(panel(ben).getByRole('button', { name: 'Place Bid' }));

    // The checkout opened before: Pay says to bid, in words, with the way to the bid form.
    const paymentsBefore = storeQuery<{ n: number }>('select count(*) as n from payments').n;
    await checkout.getByRole('button', { name: /^Pay \$/ }).click();
    const told = checkout.locator('[data-bid-instead]');
    await shows(told.getByText('Someone has just bid on this product, so Buy Now is no longer offered: place a bid instead.'));
    await shows(told.getByText('Nothing was charged.'));
    expect(await checkout.getByText('Payment Failed').count()).toBe(0);
    expect(storeQuery<{ n: number }>('select count(*) as n from payments').n).toBe(paymentsBefore);
    expect(storeQuery<{ n: number }>('select count(*) as n from orders where user_id = (select id from users where username = ?)', 'ben_pages').n).toBe(0);
    await told.getByRole('link', { name: 'Go to the auction and bid' }).click();
    await islandsReady(checkout);
    await shows(panel(checkout).getByLabel('Your maximum bid'));
    expect(errors).toEqual([]);
  });
});

describe('the team page after a join', () => {
  test("the joiner is in the list and not invited again; the starter sees the joiner and their order; the starter's own team is 'Your team'", async () => {
    const { server, browser } = store;
    const alice = await signedIn(browser, server, await shopperWithCard(server, 'alice_pages'), 1280);
    const bob = await signedIn(browser, server, await shopperWithCard(server, 'bob_pages'), 390);
    const errors = [...watchErrors(alice), ...watchErrors(bob)];
    await alice.goto(`${server.url}/products?q=Clifton`);
    const href = (await alice.locator('main article a').first().getAttribute('href'))!;
    await alice.goto(`${server.url}${href}`);
    await alice.locator('[data-team-buy]').scrollIntoViewIfNeeded();
    await alice.waitForFunction(() => document.querySelector<HTMLElement>('[data-island="TeamBuy"]')?.dataset.hydrated === 'true');
    await alice.getByRole('button', { name: 'Start a team' }).click();
    const url = await alice.locator('[data-share-link]').inputValue();
    // Read again: her own team is 'Your team', not one of the teams to join.
    await alice.reload();
    await alice.locator('[data-team-buy]').scrollIntoViewIfNeeded();
    await shows(alice.locator('[data-your-team]'));
    expect(await alice.locator('[data-open-teams]').count()).toBe(0);

    await bob.goto(url);
    await islandsReady(bob);
    await shows(bob.getByRole('heading', { name: /^Join a\*\*\*s's team/ }));
    await bob.getByRole('button', { name: /^Join for \$/ }).click();
    await shows(bob.getByRole('heading', { name: /^You're in a\*\*\*s's team/ }));
    await shows(bob.getByRole('list', { name: 'Members' }).getByText('b***s (you, joined)'));
    expect(await bob.getByText(/Join a\*\*\*s's team/).count()).toBe(0);
    await shows(bob.locator('[data-team-order]'));
    await screenshot(bob, 'team-page-joined', true);

    await alice.goto(url);
    await islandsReady(alice);
    await shows(alice.getByRole('list', { name: 'Members' }).getByText('b***s (joined)'));
    const order = alice.locator('[data-team-order]');
    await shows(order);
    await order.click();
    await alice.waitForURL(/\/orders\/\d+$/);
    const steps = await alice.locator('[data-step]').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
    expect(steps.slice(0, 2)).toEqual(['Placed', 'Paid']);
    await alice.goto(url);
    await screenshot(alice, 'team-page-joined', true);
    expect(errors).toEqual([]);
  });
});

describe('the detour from a bid', () => {
  test('a new bidder goes through the card and the details in one trip and comes back with the amount still typed', async () => {
    const { server, browser } = store;
    const productId = await auctioned(1);
    const client = new Client(server);
    await client.ok('POST', '/api/register', { username: 'dora_detour', password: 'secret-pass' });
    const page = await signedIn(browser, server, client, 390);
    const errors = watchErrors(page);
    await openProduct(page, productId);
    await page.getByLabel('Your maximum bid').fill('45');
    await page.getByRole('button', { name: 'Place Bid' }).click();
    const dialog = page.getByRole('dialog', { name: 'Payment method required' });
    await shows(dialog);
    await dialog.getByRole('link', { name: 'Add Payment Method' }).click();
    await page.waitForURL(/\/profile\?tab=payment/);
    await islandsReady(page);
    await shows(page.getByRole('link', { name: 'Back to the auction' }));
    await screenshot(page, 'profile-detour-card');
    await page.getByLabel('Card number').fill('4111 1111 1111 1111');
    await page.getByLabel(/^Expiry/).fill('12/30');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Save Card' }).click();
    // The details are missing too: on to them in the same trip, the way back kept.
    await page.waitForURL(/\/profile\?tab=personal/);
    await islandsReady(page);
    await shows(page.getByRole('link', { name: 'Back to the auction' }));
    await screenshot(page, 'profile-detour-details');
    const wide = await signedIn(browser, server, client, 1280);
    await wide.goto(page.url());
    await shows(wide.getByRole('link', { name: 'Back to the auction' }));
    await screenshot(wide, 'profile-detour-details');
    await page.getByLabel('Full name').fill('Dora Detour');
    await page.getByLabel('Email').fill('dora@example.com');
    await page.getByLabel('Phone').fill('949-555-0199');
    await page.getByLabel('Street address').fill('1 Coast Hwy');
    await page.getByLabel('City').fill('Laguna Beach');
    await page.getByLabel('State').selectOption('CA');
    await page.getByLabel('ZIP code').fill('92651');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    // Back where she was, the amount still typed: one press bids.
    await page.waitForURL(`${server.url}/product/${productId}?bid=45.00`);
    await islandsReady(page);
    expect(await page.getByLabel('Your maximum bid').inputValue()).toBe('45.00');
    await panelShot(page, 'auction-detour-back');
    await page.getByRole('button', { name: 'Place Bid' }).click();
    await shows(panel(page).getByText("You're the highest bidder."));
    expect(errors).toEqual([]);
  });
});
