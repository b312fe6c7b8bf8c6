import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { cartShippingCents, totalsFor, totalsInDollars } from '../../src/shared/pricing.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { islandsReady, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { type Client, shopperWithCard } from '../helpers/http-client.ts';
import { E2E_ADMIN } from '../helpers/server.ts';

setDefaultTimeout(120_000);

const store = storeAndBrowser();
const SCREENS = process.env.AFTER_SALE_SCREENS;

/** The Irvine shopper's cart order, paid by card with standard shipping (set up over HTTP: the journey is what comes after). */
async function irvineCartOrder(client: Client): Promise<number> {
  const products = (await client.ok('GET', '/api/products?q=Ray-Ban')) as { id: number; quantity: number }[];
  const productId = products.find((p) => p.quantity > 0)!.id;
  await client.ok('POST', '/api/cart', { productId, quantity: 1 });
  const cart = (await client.ok('GET', '/api/cart')) as { id: number; productId: number; quantity: number; price: number; type: 'regular' | 'play' }[];
  const priceCents = Math.round(cart[0]!.price * 100);
  const summary = totalsInDollars(totalsFor([{ priceCents, quantity: 1 }], cartShippingCents(cart, 'standard')));
  const placed = await client.ok('POST', '/api/checkout', {
    paymentMethod: 'square',
    items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
    shipping: { method: 'standard', cost: summary.shipping },
    summary,
    customer: {
      fullName: COMPLETE_PROFILE.name,
      email: COMPLETE_PROFILE.email,
      phone: COMPLETE_PROFILE.phone,
      address: '18 Technology Dr',
      city: 'Irvine',
      state: 'CA',
      zipCode: '92618',
    },
  });
  return placed.orderId as number;
}

async function adminPage(): Promise<Page> {
  // Its own context, so a second tab can share its session (a page from browser.newPage() cannot have one).
  const context = await store.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${store.server.url}/auth`);
  await islandsReady(page);
  const login = page.locator('form[action^="/auth/login"]');
  await login.getByLabel('Username').fill(E2E_ADMIN.username);
  await login.getByLabel('Password').fill(E2E_ADMIN.password);
  await login.getByRole('button', { name: 'Login' }).click();
  await page.waitForURL(`${store.server.url}/`);
  await page.goto(`${store.server.url}/admin?tab=orders`);
  await page.getByLabel('Admin PIN').fill(E2E_ADMIN.pin);
  await page.getByRole('button', { name: 'Verify PIN' }).click();
  await page.waitForURL(/\/admin/);
  return page;
}

async function shopperPage(client: Client): Promise<Page> {
  const context = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
  const [name, value] = client.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: store.server.url }]);
  return context.newPage();
}

async function look(page: Page, name: string) {
  if (!SCREENS) return;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENS}/${name}-${width}.png`, fullPage: true });
  }
}

describe('after the sale', () => {
  test('the admin ships a cart order and the shopper sees the tracking; the shopper asks for a return, the admin refunds part, the shopper sees it', async () => {
    const client = await shopperWithCard(store.server, 'irvine_sam');
    const orderId = await irvineCartOrder(client);
    const admin = await adminPage();
    const errors = watchErrors(admin);
    const row = admin.locator(`article[data-order-id="${orderId}"]`);
    await admin.goto(`${store.server.url}/admin?tab=orders`);
    await row.getByLabel('Carrier').selectOption('USPS');
    await row.getByLabel('Tracking number').fill('9400 1118 9922 3100 0000 00');
    await look(admin, 'after-sale-admin-ship-form');
    await row.getByRole('button', { name: 'Mark Shipped' }).click();
    expect(await toastText(admin, 'Order shipped')).toContain('Order shipped');
    await shows(row.getByText('with USPS, tracking number 9400111899223100000000'));
    await look(admin, 'after-sale-admin-shipped');

    const shopper = await shopperPage(client);
    await shopper.goto(`${store.server.url}/orders/${orderId}`);
    await shows(shopper.getByText('Shipped with USPS'));
    await shows(shopper.getByText('9400111899223100000000', { exact: true }));
    expect(await shopper.getByRole('link', { name: 'Track it with USPS' }).getAttribute('href')).toBe(
      'https://tools.usps.com/go/TrackConfirmAction?tLabels=9400111899223100000000',
    );
    await look(shopper, 'after-sale-shopper-tracking');

    // The parcel arrives: the admin marks it delivered (with its confirmation step).
    await row.getByRole('button', { name: 'Mark Delivered' }).click();
    await admin.getByRole('button', { name: 'Yes, Mark Delivered' }).click();
    expect(await toastText(admin, 'marked as delivered')).toContain('marked as delivered');

    await shopper.reload();
    await shopper.getByLabel('What is wrong with it?').fill('One arm is bent and the lens is scratched.');
    await shopper.getByRole('button', { name: 'Request a return' }).click();
    expect(await toastText(shopper, 'Return requested')).toContain('Return requested');
    await shows(shopper.getByText('"One arm is bent and the lens is scratched."', { exact: false }));
    expect(await shopper.getByRole('button', { name: 'Request a return' }).count()).toBe(0);
    await look(shopper, 'after-sale-shopper-return');

    await admin.goto(`${store.server.url}/admin?tab=orders`);
    const needs = admin.getByRole('region', { name: /Needs attention: Return requests/ });
    await shows(needs.getByText('One arm is bent and the lens is scratched.', { exact: false }));
    await row.locator('summary', { hasText: 'Refund' }).click();
    await row.getByLabel('Amount ($)').fill('20');
    await row.getByLabel('Reason (the customer sees it)').fill('Partial refund for the bent arm');
    await look(admin, 'after-sale-admin-refund-form');
    await row.getByRole('button', { name: 'Refund to card' }).click();
    await admin.getByRole('button', { name: 'Yes, Refund to card' }).click();
    expect(await toastText(admin)).toContain(`Refunded $20.00 of order #${orderId}.`);
    expect(await needs.count()).toBe(0);
    await look(admin, 'after-sale-admin-refunded');

    await shopper.reload();
    await shows(shopper.getByText('-$20.00'));
    await shows(shopper.getByText('Partial refund for the bent arm', { exact: false }));
    await look(shopper, 'after-sale-shopper-refunded');
    expect(errors).toEqual([]);
  });
  test('two admin tabs refund the same order: each form refunds once, two refunds in all', async () => {
    const client = await shopperWithCard(store.server, 'irvine_two');
    const orderId = await irvineCartOrder(client);
    const tabA = await adminPage();
    const errors = watchErrors(tabA);
    const rowIn = (tab: Page) => tab.locator(`article[data-order-id="${orderId}"]`);
    await tabA.goto(`${store.server.url}/admin?tab=orders`);
    await rowIn(tabA).getByLabel('Carrier').selectOption('UPS');
    await rowIn(tabA).getByLabel('Tracking number').fill('1Z999AA10123456784');
    await rowIn(tabA).getByRole('button', { name: 'Mark Shipped' }).click();
    expect(await toastText(tabA, 'Order shipped')).toContain('Order shipped');

    // The second tab opens the same order's refund form before the first sends its own.
    const tabB = await tabA.context().newPage();
    await tabB.goto(`${store.server.url}/admin?tab=orders`);
    for (const [tab, amount, reason] of [
      [tabA, '10', 'Scratched lens'],
      [tabB, '5', 'Late parcel'],
    ] as const) {
      await rowIn(tab).locator('summary', { hasText: 'Refund' }).click();
      await rowIn(tab).getByLabel('Amount ($)').fill(amount);
      await rowIn(tab).getByLabel('Reason (the customer sees it)').fill(reason);
    }
    await rowIn(tabA).getByRole('button', { name: 'Refund to card' }).click();
    await tabA.getByRole('button', { name: 'Yes, Refund to card' }).click();
    expect(await toastText(tabA)).toContain(`Refunded $10.00 of order #${orderId}.`);
    await rowIn(tabB).getByRole('button', { name: 'Refund to card' }).click();
    await tabB.getByRole('button', { name: 'Yes, Refund to card' }).click();
    expect(await toastText(tabB)).toContain(`Refunded $5.00 of order #${orderId}.`);
    await shows(rowIn(tabB).getByText('Refunded $10.00', { exact: false }));
    await shows(rowIn(tabB).getByText('Refunded $5.00', { exact: false }));
    expect(errors).toEqual([]);
  });
});
