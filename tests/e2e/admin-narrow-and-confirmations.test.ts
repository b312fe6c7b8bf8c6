import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { islandsReady, screenshot, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { donationBody } from '../helpers/donations.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { Client, shopperWithCard } from '../helpers/http-client.ts';
import { E2E_ADMIN } from '../helpers/server.ts';

/*
 * Issue 37, item 16, in Chromium at 390 px: the Promotions tab (with a team, a box and a donation
 * in its tables) and an auction's admin page do not scroll sideways; End auction early and Refund
 * to card ask first as Mark Delivered does, by keyboard (Not Yet leaves everything as it was, Yes
 * acts); and the bell's 'Complete Your Profile' leaves once the shopper completes the profile.
 */

setDefaultTimeout(180_000);

const store = storeAndBrowser();
const PHONE = { width: 390, height: 844 };
const key = () => ({ 'idempotency-key': crypto.randomUUID() });

async function signInAdmin(page: Page) {
  const url = store.server.url;
  await page.goto(`${url}/auth`);
  await islandsReady(page);
  const login = page.locator('form[action^="/auth/login"]');
  await login.getByLabel('Username').fill(E2E_ADMIN.username);
  await login.getByLabel('Password').fill(E2E_ADMIN.password);
  await login.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`${url}/`);
  await page.goto(`${url}/admin?tab=promotions`);
  await page.getByLabel('Admin PIN').fill(E2E_ADMIN.pin);
  await page.getByRole('button', { name: 'Verify PIN' }).click();
  await page.waitForURL(`${url}/admin?tab=promotions`);
}

/** How far the page scrolls sideways: 0 when nothing is wider than the window. */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Activates a link or button from the keyboard: focused, then Enter. */
async function pressEnterOn(page: Page, name: string, role: 'link' | 'button') {
  await page.getByRole(role, { name, exact: true }).focus();
  await page.keyboard.press('Enter');
}

describe('the admin at 390 px, and confirmations by keyboard', () => {
  test('Promotions tab and the auction page fit the phone; End auction early and Refund to card ask first', async () => {
    const url = store.server.url;
    const listed = (await (await fetch(`${url}/api/products`)).json()) as {
      id: number;
      price: number;
      quantity: number;
      halfPriceEnabled: boolean;
      donateEnabled: boolean;
    }[];
    // Rows in each Promotions table: a team started, a box bought, a donation paid.
    const buyer = await shopperWithCard(store.server, 'narrow_buyer');
    const teamProduct = listed.find((p) => p.halfPriceEnabled && p.quantity > 0)!;
    expect((await buyer.request('POST', `/api/products/${teamProduct.id}/teams`, undefined, key())).status).toBe(201);
    expect((await buyer.request('POST', '/api/mystery-boxes/sunglasses/orders', {}, key())).status).toBe(201);
    const gift = listed.find((p) => p.donateEnabled && p.quantity > 0)!;
    const donated = await buyer.request('POST', '/api/orders', donationBody(gift.id, Math.round(gift.price * 100)), key());
    expect(donated.status).toBe(201);
    const { orderId } = (await donated.json()) as { orderId: number };

    const page = await store.browser.newPage({ viewport: PHONE });
    const errors = watchErrors(page);
    await signInAdmin(page);
    await shows(page.getByRole('region', { name: 'Teams', exact: true }));
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'admin-promotions', true);

    // An auction running in the demo store: its page, then End auction early, Not Yet, then Yes.
    const [auction] = (await (await fetch(`${url}/api/auctions`)).json()) as { productId: number }[];
    const auctionPage = `${url}/admin/products/${auction!.productId}/auction`;
    const state = async () => ((await (await fetch(`${url}/api/products/${auction!.productId}/auction`)).json()) as { status: string }).status;
    await page.goto(auctionPage);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await screenshot(page, 'admin-auction-narrow', true);
    await page.getByLabel('Reason (every bidder is told)').fill('Photographed with the wrong lenses');
    await page.getByRole('button', { name: 'End auction early' }).click();
    await shows(page.getByRole('heading', { name: /^End auction early: .+\?$/ }));
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    await shows(page.getByText(': “Photographed with the wrong lenses”. This cannot be undone.', { exact: false }));
    await pressEnterOn(page, 'Not Yet', 'link');
    await page.waitForURL(auctionPage);
    expect(await state()).toBe('running');
    await page.getByLabel('Reason (every bidder is told)').fill('Photographed with the wrong lenses');
    await page.getByRole('button', { name: 'End auction early' }).click();
    await pressEnterOn(page, 'Yes, End auction early', 'button');
    expect(await toastText(page, 'Auction ended')).toContain('Auction ended');
    expect(await state()).not.toBe('running');

    // The donation: handed over (Mark handed over asks as before), then part refunded, asked first.
    await page.goto(`${url}/admin?tab=orders`);
    const row = page.locator(`article[data-order-id="${orderId}"]`);
    await row.getByRole('button', { name: /Mark handed over/ }).click();
    await pressEnterOn(page, 'Yes, Mark handed over', 'button');
    await shows(page.locator(`article[data-order-id="${orderId}"][data-status="completed"]`));
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    const refund = async () => {
      await row.locator('summary', { hasText: 'Refund' }).click();
      await row.getByLabel('Amount ($)').fill('5');
      await row.getByLabel('Reason (the customer sees it)').fill('Tag was torn');
      await row.getByRole('button', { name: /Refund to card/ }).click();
      await shows(page.getByRole('heading', { name: `Refund to card: order #${orderId}?` }));
      expect(await sideways(page)).toBeLessThanOrEqual(0);
    };
    await refund();
    await shows(page.getByText('is refunded $5.00. This cannot be undone.', { exact: false }));
    await pressEnterOn(page, 'Not Yet', 'link');
    await shows(row);
    expect(await row.textContent()).not.toContain('Refunded $5.00');
    await refund();
    await pressEnterOn(page, 'Yes, Refund to card', 'button');
    expect(await toastText(page, 'Refunded')).toContain(`Refunded $5.00 of order #${orderId}.`);
    await shows(row.getByText('Refunded $5.00', { exact: false }).first());
    expect(errors).toEqual([]);

    // The same pages on a wide screen, for the record.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${url}/admin?tab=promotions`);
    await screenshot(page, 'admin-promotions', true);
    await page.goto(auctionPage);
    await screenshot(page, 'admin-auction-narrow', true);
    await page.close();
  });

  test("the bell's 'Complete Your Profile' is gone once the shopper completes the profile", async () => {
    const url = store.server.url;
    // A shopper with a card but no address asks to bid: refused, and told in the bell.
    const shopper = new Client(store.server);
    await shopper.ok('POST', '/api/register', { username: 'notice_e2e', password: 'secret-pass' });
    await shopper.ok('PATCH', '/api/user/profile', {
      name: 'Ria Shore',
      email: 'ria@example.com',
      phone: '949-555-0177',
      paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' },
    });
    const [auction] = (await (await fetch(`${url}/api/auctions`)).json()) as { productId: number; minimumBid: number }[];
    expect((await shopper.request('POST', `/api/products/${auction!.productId}/bids`, { maxAmount: auction!.minimumBid })).status).toBe(403);

    const context = await store.browser.newContext({ viewport: PHONE });
    const [name, value] = shopper.cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url }]);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${url}/`);
    await islandsReady(page);
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const list = page.getByRole('list', { name: 'Notification list' });
    // The notice leads to the profile (and is read from then on).
    await list.getByRole('link', { name: /Complete Your Profile/ }).click();
    await page.waitForURL(`${url}/profile`);
    await islandsReady(page);
    await page.getByLabel('Street address').fill('77 Glenneyre St');
    await page.getByLabel('City').fill('Laguna Beach');
    await page.getByLabel('State').selectOption({ label: 'California' });
    await page.getByLabel('ZIP code').fill('92651');
    await page.getByRole('button', { name: 'Save Profile' }).click();
    expect(await toastText(page, 'Profile updated')).toContain('Profile updated');

    await page.goto(`${url}/`);
    await islandsReady(page);
    await page.getByRole('button', { name: /^Notifications/ }).click();
    await shows(page.getByRole('heading', { name: 'Notifications' }));
    expect(await page.getByText('Complete Your Profile').count()).toBe(0);
    expect((await shopper.ok('GET', '/api/notifications')).notifications.map((n: { title: string }) => n.title)).not.toContain('Complete Your Profile');
    expect(errors).toEqual([]);
    await context.close();
  });
});
