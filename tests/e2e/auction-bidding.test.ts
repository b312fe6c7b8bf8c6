import { openStoreFile } from '../helpers/store-file.ts';
import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { islandsReady, screenshot, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { seriousViolations } from '../helpers/axe.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { Client } from '../helpers/http-client.ts';
import { E2E_ADMIN } from '../helpers/server.ts';

/*
 * Issue 28: two shoppers bid against each other on one product page, each in their own browser.
 * Each sees the other's bid and their own standing without reloading; a bid in the last two
 * minutes (the manual clock) moves the end, and the OTHER page's countdown follows; a bidder
 * without a card is asked for one.
 */

setDefaultTimeout(180_000);

const MINUTE = 60_000;
const store = storeAndBrowser({ CLOCK: 'manual' });

interface Bidder {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

async function moveClock(body: { now?: number; advanceMs?: number }): Promise<number> {
  const response = await fetch(`${store.server.url}/api/test/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: store.server.url },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { now: number }).now;
}

/** A shopper in their own browser, signed in; with the approving test card on file unless `card` is false. */
async function bidder(name: string, card = true): Promise<Bidder> {
  // bypassCSP only so axe-core can be injected; the pages themselves are unchanged.
  const context = await store.browser.newContext({ bypassCSP: true, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = watchErrors(page);
  const registered = await page.request.post(`${store.server.url}/api/register`, { data: { username: name, password: 'beach-day-7' } });
  expect(registered.status()).toBe(201);
  const saved = await page.request.patch(`${store.server.url}/api/user/profile`, {
    data: { ...COMPLETE_PROFILE, ...(card ? { paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } } : {}) },
  });
  expect(saved.status()).toBe(200);
  return { context, page, errors };
}

async function openProduct(who: Bidder, productId: number) {
  await who.page.goto(`${store.server.url}/product/${productId}`);
  await islandsReady(who.page);
  await shows(who.page.locator('[data-auction-status="running"]'));
}

async function bid(who: Bidder, amount: string) {
  await who.page.getByLabel('Your maximum bid').fill(amount);
  await who.page.getByRole('button', { name: 'Place Bid' }).click();
}

const panel = (who: Bidder) => who.page.getByRole('region', { name: 'Auction' });

/** The panel in the middle of the screen, then the picture. */
async function shot(who: Bidder, name: string) {
  await panel(who).evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await screenshot(who.page, name);
}

/** The admin, signed in with the PIN, over HTTP. */
async function admin(): Promise<Client> {
  const client = new Client(store.server);
  await client.ok('POST', '/api/login', { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
  await client.ok('POST', '/api/admin/pin', { pin: E2E_ADMIN.pin });
  return client;
}

/** The store's `n`th product, one of a kind and bid-enabled. */
function oneOfAKind(n: number): number {
  const db = openStoreFile(join(store.server.dataDir, 'data', 'store.db'));
  const productId = (db.query('select id from products order by id limit 1 offset ?').get(n) as { id: number }).id;
  db.query('update products set bid_enabled = 1, quantity = 1 where id = ?').run(productId);
  db.close();
  return productId;
}

describe('bidding on the product page', () => {
  test('two shoppers bid against each other live; a late bid moves the end on the other page too; no card, the dialog', async () => {
    const productId = oneOfAKind(0);
    const now = await moveClock({ advanceMs: 0 });
    const endsAt = now + 60 * MINUTE;
    await (await admin()).ok('PUT', `/api/admin/products/${productId}/auction`, { startingBid: 10, endsAt: new Date(endsAt).toISOString() });

    const a = await bidder('ava_bids');
    const b = await bidder('ben_bids');
    await openProduct(a, productId);
    await openProduct(b, productId);
    await shows(panel(a).getByText('Starting bid'));
    expect(await a.page.getByRole('link', { name: 'Pay Now' }).count()).toBe(0);
    await shot(a, 'auction-panel-running');

    await bid(a, '30');
    await shows(panel(a).getByText("You're the highest bidder."));
    // B sees A's bid without reloading: the price, the count and A's masked name in the history.
    await shows(panel(b).locator('[data-bid-count]', { hasText: '1 bid' }));
    expect(await panel(b).locator('[data-current-price]').textContent()).toBe('$10.00');
    expect(await panel(b).locator('[data-bid]').first().textContent()).toContain('a***s');
    expect(await panel(b).locator('[data-standing]').count()).toBe(0);

    await bid(b, '50');
    await shows(panel(b).getByText("You're the highest bidder."));
    await shot(b, 'auction-panel-leader');
    // A was overtaken: told on the panel without reloading.
    await shows(panel(a).getByText("You've been outbid."));
    expect(await panel(a).locator('[data-current-price]').textContent()).toBe('$31.00');
    await shot(a, 'auction-panel-outbid');
    expect(await seriousViolations(a.page)).toEqual([]);

    // One minute left on the server's clock; A's bid there moves the end to two minutes after it.
    const late = await moveClock({ now: endsAt - MINUTE });
    await bid(a, '80');
    await shows(panel(a).getByText("You're the highest bidder."));
    const newEnd = new Date(late + 2 * MINUTE).toISOString();
    // B's countdown follows the new end without a reload, counted by the server's clock.
    await shows(panel(b).locator(`[data-ends-at="${newEnd}"]`));
    await shows(panel(b).getByText("You've been outbid."));
    const left = await panel(b).getByRole('timer').textContent();
    expect(left).toMatch(/^00:0[12]:\d\d$/);

    // A shopper without a card is asked for one, by the shop's own dialog.
    const c = await bidder('cleo_nocard', false);
    await openProduct(c, productId);
    await bid(c, '200');
    const dialog = c.page.getByRole('dialog', { name: 'Payment method required' });
    await shows(dialog);
    expect(await dialog.getByRole('link', { name: 'Add Payment Method' }).getAttribute('href')).toBe(
      // The way back keeps the amount typed and says it came from the auction (issue 37 item 14).
      `/profile?tab=payment&next=${encodeURIComponent(`/product/${productId}?bid=200.00`)}&from=auction`,
    );
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Under the least allowed: said by the field before anything is sent.
    await bid(b, '1');
    await shows(panel(b).locator('[data-field-error="maxAmount"]', { hasText: /^Enter \$\d+\.\d\d or more$/ }));
    // The leader may only raise their own maximum: said by the field, nothing sent.
    await bid(a, '80');
    await shows(panel(a).locator('[data-field-error="maxAmount"]', { hasText: 'Enter $80.01 or more' }));
    // A refusal of the server: its words by the field and in a toast.
    await bid(b, '100001');
    expect(await toastText(b.page, 'Bid not placed')).toContain('Your maximum bid can be at most $100,000');
    expect(await panel(b).locator('[data-field-error="maxAmount"]').textContent()).toBe('Your maximum bid can be at most $100,000');

    // Wide screens too.
    await b.page.setViewportSize({ width: 1280, height: 900 });
    await shot(b, 'auction-panel-outbid');
    await a.page.setViewportSize({ width: 1280, height: 900 });
    await shot(a, 'auction-panel-leader');

    // The end: the close job runs with the clock; the panel tells the outcome.
    await moveClock({ advanceMs: 3 * MINUTE });
    await shows(panel(b).locator('[data-outcome="ended"]'));
    await shot(b, 'auction-panel-ended');
    expect(await seriousViolations(b.page)).toEqual([]);
    await b.page.setViewportSize({ width: 390, height: 844 });
    await shot(b, 'auction-panel-ended');

    expect([...a.errors, ...b.errors, ...c.errors]).toEqual([]);
    for (const who of [a, b, c]) await who.context.close();
  });

  test("the winner's card is declined at the close: the panel offers Pay, which pays once and opens the order", async () => {
    const productId = oneOfAKind(1);
    const now = await moveClock({ advanceMs: 0 });
    await (await admin()).ok('PUT', `/api/admin/products/${productId}/auction`, { startingBid: 10, endsAt: new Date(now + 10 * MINUTE).toISOString() });
    const winner = await bidder('dora_declined');
    // Saved fine; every charge on it declines.
    expect(
      (
        await winner.page.request.patch(`${store.server.url}/api/user/profile`, {
          data: { paymentMethod: { type: 'card', token: 'cnon:card-nonce-declined' } },
        })
      ).status(),
    ).toBe(200);
    const other = await bidder('eli_second');
    await openProduct(winner, productId);
    await bid(winner, '30');
    await shows(panel(winner).getByText("You're the highest bidder."));
    expect((await other.page.request.post(`${store.server.url}/api/products/${productId}/bids`, { data: { maxAmount: 20 } })).status()).toBe(201);

    // The end passes on the server's clock; its close job charges the card on file, which declines.
    await moveClock({ advanceMs: 11 * MINUTE });
    const step = panel(winner).locator('[data-payment="retry"]');
    await shows(step);
    expect(await step.textContent()).toContain('Your card was declined. Update your card, then Pay.');
    expect(await panel(winner).locator('[data-outcome]').textContent()).toContain('You won at $21.00');
    await shot(winner, 'auction-panel-pay');

    expect(
      (
        await winner.page.request.patch(`${store.server.url}/api/user/profile`, { data: { paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } } })
      ).status(),
    ).toBe(200);
    // $21 (eli's $20 and the $1 step) plus 8% tax.
    await step.getByRole('button', { name: 'Pay $22.68' }).dblclick();
    await winner.page.waitForURL(/\/order-confirmation\/\d+$/);
    const orderId = Number(new URL(winner.page.url()).pathname.split('/').pop());
    expect(((await (await winner.page.request.get(`${store.server.url}/api/orders/${orderId}`)).json()) as { status: string }).status).toBe('processing');
    // One paid order for the auction, whatever the double click sent.
    const db = openStoreFile(join(store.server.dataDir, 'data', 'store.db'));
    const paid = db
      .query(
        "select count(*) as n from orders where checkout_key like 'auction:' || (select id from auctions where product_id = ?) || ':%' and status = 'processing'",
      )
      .get(productId) as { n: number };
    db.close();
    expect(paid.n).toBe(1);
    expect([...winner.errors, ...other.errors]).toEqual([]);
    for (const who of [winner, other]) await who.context.close();
  });
});
