import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { islandsReady, screenshot, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { shopperWithCard } from '../helpers/http-client.ts';
import { E2E_ADMIN } from '../helpers/server.ts';

/*
 * The admin runs an auction from the panel (issue 28, items 1 and 6): Bid ticked in a product's
 * form, the auction set up on its page, seen on the Auctions tab with a shopper's bid, then ended
 * early with a reason the shopper is told.
 */

setDefaultTimeout(120_000);

// The manual clock lets the Retry test run the close job at once (POST /api/test/clock).
const store = storeAndBrowser({ CLOCK: 'manual' });

async function signInAdmin(page: Page) {
  await page.goto(`${store.server.url}/auth`);
  await islandsReady(page);
  const login = page.locator('form[action^="/auth/login"]');
  await login.getByLabel('Username').fill(E2E_ADMIN.username);
  await login.getByLabel('Password').fill(E2E_ADMIN.password);
  await login.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`${store.server.url}/`);
  await page.goto(`${store.server.url}/admin?tab=shoe`);
  await page.getByLabel('Admin PIN').fill(E2E_ADMIN.pin);
  await page.getByRole('button', { name: 'Verify PIN' }).click();
  await page.waitForURL(`${store.server.url}/admin?tab=shoe`);
}

/** Ticks Bid (auction) on the shoe in row `row` of the Shoes tab, and opens its auction page; the product's id. */
async function bidOnShoe(page: Page, row: number): Promise<number> {
  // Shoes without an auction of their own (the demo store opens one on each shoe marked for bidding).
  const running = new Set(((await (await fetch(`${store.server.url}/api/auctions`)).json()) as { productId: number }[]).map((a) => a.productId));
  // ...and sold in one size (the demo's On Cloud 5 comes in four: the auction form's size choice is another part's).
  const sized = ((await (await fetch(`${store.server.url}/api/products?type=shoe`)).json()) as { id: number; size: string }[])
    .filter((p) => p.size.includes(','))
    .map((p) => p.id);
  for (const id of sized) running.add(id);
  await page.goto(`${store.server.url}/admin?tab=shoe`);
  const hrefs = await page
    .locator('main li')
    .getByRole('link', { name: /Edit/ })
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')!));
  const editHref = hrefs.filter((href) => !running.has(Number(href.split('/').pop())))[row]!;
  await page.goto(`${store.server.url}${editHref}`);
  await islandsReady(page);
  // Shoes are edited by size (issue 38): the one size's stock.
  await page
    .getByLabel(/^Stock, size /)
    .first()
    .fill('3');
  await page.getByLabel('Bid (auction)').check();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await page.waitForURL(`${store.server.url}/admin?tab=shoe`);
  expect(await toastText(page, 'Shoe updated')).toContain('Shoe updated');
  await page.goto(`${store.server.url}${editHref}`);
  await page.getByRole('link', { name: "Set up or manage this product's auction" }).click();
  const productId = Number(editHref.split('/').pop());
  await page.waitForURL(`${store.server.url}/admin/products/${productId}/auction`);
  await islandsReady(page);
  return productId;
}

describe('an admin runs an auction from the panel', () => {
  test('Bid on through the form, set up, a bid shows on the Auctions tab, ended early: the bidder is told why', async () => {
    // bypassCSP: axe is injected as a script the store's CSP rightly refuses.
    const page = await store.browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const errors = watchErrors(page);
    await signInAdmin(page);

    // A shoe with stock: tick Bid (auction) in its form and save, then its auction page.
    const productId = await bidOnShoe(page, 0);
    await page.getByLabel('Starting bid ($)').fill('20');
    await page.getByLabel('Reserve price ($, optional)').fill('10');
    await page.getByRole('button', { name: 'Start auction' }).click();
    // The reserve below the start is refused by its field; nothing is saved.
    await shows(page.locator('#field-reservePrice-error').getByText('The reserve price cannot be below the starting bid'));
    await screenshot(page, 'admin-auction-form-error', true);
    await page.getByLabel('Reserve price ($, optional)').fill('');
    await page.getByRole('button', { name: 'Start auction' }).click();
    expect(await toastText(page, 'Auction saved')).toContain('Bidding is open from $20.00');
    await shows(page.getByRole('heading', { name: 'This auction' }));
    await screenshot(page, 'admin-auction-page', true);
    expect(await seriousViolations(page)).toEqual([]);

    const shopper = await shopperWithCard(store.server, 'bidder_e2e');
    const bid = await shopper.request('POST', `/api/products/${productId}/bids`, { maxAmount: 35 });
    expect(bid.status).toBe(201);

    await page.goto(`${store.server.url}/admin?tab=auctions`);
    const row = page.locator(`article[data-product-id="${productId}"]`);
    await shows(row);
    expect(await row.locator('[data-fact="Leader"]').textContent()).toBe('bidder_e2e');
    expect(await row.locator('[data-fact="Bids"]').textContent()).toBe('1');
    expect(await row.getByRole('button', { name: /Cancel auction/ }).count()).toBe(0);
    await screenshot(page, 'admin-auctions-tab');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'admin-auctions-tab', true);
    await page.setViewportSize({ width: 1280, height: 900 });

    await row.getByText('End early').click();
    await row.getByLabel('Reason (every bidder is told)').fill('The pair was damaged in the studio');
    await row.getByRole('button', { name: 'End auction early' }).click();
    await page.getByRole('button', { name: 'Yes, End auction early' }).click();
    expect(await toastText(page, 'Auction ended')).toContain('Every bidder is told why');

    const told = await shopper.ok('GET', '/api/notifications');
    expect(told.notifications.map((n: { message: string }) => n.message).join(' ')).toContain('The pair was damaged in the studio');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${store.server.url}/admin/products/${productId}/auction`);
    await shows(page.getByRole('heading', { name: /Bids \(1\)/ }));
    expect(await page.locator('[data-bid-history]').textContent()).toContain('bidder_e2e');
    await screenshot(page, 'admin-auction-page', true);
    expect(errors).toEqual([]);
  });

  test('the winner whose card declined retries from the order page: declined again, then paid once', async () => {
    const admin = await store.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInAdmin(admin);
    const productId = await bidOnShoe(admin, 1);
    await admin.getByLabel('Starting bid ($)').fill('20');
    await admin.getByRole('button', { name: 'Start auction' }).click();
    expect(await toastText(admin, 'Auction saved')).toContain('Auction saved');

    const winner = await shopperWithCard(store.server, 'winner_e2e');
    await winner.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-declined' } });
    expect((await winner.request('POST', `/api/products/${productId}/bids`, { maxAmount: 30 })).status).toBe(201);
    await admin.reload();
    await admin.getByLabel('Reason (every bidder is told)').fill('Closing early for the holiday sale');
    await admin.getByRole('button', { name: 'End auction early' }).click();
    await admin.getByRole('button', { name: 'Yes, End auction early' }).click();
    expect(await toastText(admin, 'Auction ended')).toContain('Auction ended');
    // The close job (run by the manual clock's route) charges the card on file: declined.
    expect(
      (
        await fetch(`${store.server.url}/api/test/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: store.server.url },
          body: JSON.stringify({ advanceMs: 1000 }),
        })
      ).status,
    ).toBe(200);
    // The scheduler's own tick may be running the same close: wait for its declined order, not for a time.
    let failed: { id: number; status: string } | undefined;
    for (const deadline = Date.now() + 20_000; !failed && Date.now() < deadline; ) {
      const orders: { id: number; status: string }[] = await winner.ok('GET', '/api/user/orders');
      failed = orders.find((order) => order.status === 'failed');
      if (!failed) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!failed) throw new Error('the declined auction order never appeared');

    const context = await store.browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'csa_session', value: winner.cookie.split('=')[1]!, url: store.server.url }]);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${store.server.url}/orders/${failed.id}`);
    await islandsReady(page);
    const retry = page.getByRole('button', { name: 'Retry payment' });
    await shows(retry);
    await screenshot(page, 'auction-retry', true);
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'auction-retry', true);

    await retry.click();
    await shows(page.getByRole('alert').getByText('Your card was declined again. Nothing was charged.'));
    expect(await page.getByRole('link', { name: 'Update your card' }).getAttribute('href')).toBe('/profile?tab=payment');
    await screenshot(page, 'auction-retry-declined');

    // My Orders leads back to it.
    await page.goto(`${store.server.url}/profile?tab=orders`);
    await page.getByRole('link', { name: `Retry payment for order #${failed.id}` }).click();
    await page.waitForURL(`${store.server.url}/orders/${failed.id}#payment-title`);
    await islandsReady(page);

    await winner.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
    await retry.click();
    await page.waitForURL(/\/order-confirmation\/\d+$/);
    await page.goto(`${store.server.url}/orders/${failed.id}`);
    await shows(page.getByRole('heading', { name: `Order #${failed.id}` }));
    expect(await page.getByRole('button', { name: 'Retry payment' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
