import { describe, expect, setDefaultTimeout, test } from 'bun:test';
import { islandsReady, screenshot, toastText, watchErrors, shows } from '../helpers/browser.ts';
import { E2E_ADMIN } from '../helpers/server.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';

setDefaultTimeout(120_000);

const store = storeAndBrowser();

describe('a local business applies to partner', () => {
  test('submits with mistakes, reads the messages, corrects them and is received', async () => {
    const page = await store.browser.newPage({ viewport: { width: 390, height: 844 } });
    const errors = watchErrors(page);
    await page.goto(`${store.server.url}/business-portal`);
    await islandsReady(page);
    await page.getByLabel('Business name').fill('A');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    for (const message of [
      'Business name must be at least 2 characters',
      'Contact name must be at least 2 characters',
      'Please enter a valid email',
      'Please enter a valid phone number',
      'Address is required',
      'Valid ZIP code is required',
      'Please select a business type',
      'Please provide a brief description of your business',
      'You must agree to the terms and conditions',
    ]) {
      await shows(page.getByText(message).first());
    }
    await screenshot(page, 'business-errors');

    await page.getByLabel('Business name').fill('Heisler Park Surf Co.');
    await page.getByLabel('Contact name').fill('Marina Vega');
    await page.getByLabel('Email').fill('marina@heislersurf.example');
    await page.getByLabel('Phone').fill('949 555 0177');
    await page.getByLabel('Street address').fill('350 South Coast Highway');
    await page.getByLabel('ZIP code').fill('92651');
    await page.getByLabel('Business type').selectOption('retail');
    await page.getByLabel('About your business').fill('Surfboards, wetsuits and lessons one block from the beach.');
    await page.getByLabel('I agree to the terms and conditions').check();
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await page.getByRole('heading', { name: 'Application Received' }).waitFor();
    expect(await toastText(page, 'Application submitted successfully')).toContain('Application submitted successfully');
    await shows(page.getByRole('link', { name: 'Return to Home' }));
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('a fan signs up for Coach', () => {
  test('leaves an e-mail on a coach page and is thanked', async () => {
    const page = await store.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${store.server.url}/coach/instagram`);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Coach' }).getAttribute('aria-current')).toBe('page');
    await page.getByLabel('Email address').fill('fan@example.com');
    await page.getByRole('button', { name: 'Notify Me' }).click();
    await page.locator('main').getByText("Thanks! We'll e-mail you when Coach launches.").waitFor();
    await screenshot(page, 'coach-thanks');
    const again = await page.request.post(`${store.server.url}/api/coach/signups`, { data: { email: 'FAN@example.com' } });
    expect(again.status()).toBe(200);
    await page.close();
  });
});

describe('an admin delivers an order', () => {
  test('the customer sees the status change in their orders and under the bell', async () => {
    const customer = await store.browser.newContext({ viewport: { width: 390, height: 844 } });
    const shopper = await customer.newPage();
    const api = customer.request;
    expect((await api.post(`${store.server.url}/api/register`, { data: { username: 'delivery_fan', password: 'beach-day-5' } })).status()).toBe(201);
    await api.patch(`${store.server.url}/api/user/profile`, {
      data: {
        name: 'Dee Livery',
        email: 'dee@example.com',
        phone: '9495550142',
        address: { line1: '9 Cliff Drive', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
        paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' },
      },
    });
    const products = (await (await api.get(`${store.server.url}/api/products?q=cannery`)).json()) as { id: number; price: number }[];
    const book = products[0]!;
    const tax = Math.round(book.price * 8) / 100;
    const order = await api.post(`${store.server.url}/api/orders`, {
      data: {
        productId: book.id,
        quantity: 1,
        shipping: 0,
        subtotal: book.price,
        tax,
        total: Math.round((book.price + tax) * 100) / 100,
        shippingMethod: 'standard',
        customerInfo: {
          name: 'Dee Livery',
          email: 'dee@example.com',
          phone: '9495550142',
          address: { line1: '9 Cliff Drive', city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
        },
      },
    });
    expect(order.status()).toBe(201);
    const orderId = (await order.json()).id as number;

    const admin = await store.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await admin.goto(`${store.server.url}/auth`);
    await islandsReady(admin);
    const login = admin.locator('form[action^="/auth/login"]');
    await login.getByLabel('Username').fill(E2E_ADMIN.username);
    await login.getByLabel('Password').fill(E2E_ADMIN.password);
    await login.getByRole('button', { name: 'Login' }).click();
    await admin.waitForURL(`${store.server.url}/`);
    await admin.goto(`${store.server.url}/admin?tab=orders`);
    await admin.getByLabel('Admin PIN').fill(E2E_ADMIN.pin);
    await admin.getByRole('button', { name: 'Verify PIN' }).click();
    await admin.waitForURL(`${store.server.url}/admin?tab=orders`);
    await admin.getByRole('button', { name: `Mark Delivered (order #${orderId})` }).click();
    // Nothing changes on the first click: the admin reads who and where, then confirms.
    await shows(admin.getByRole('heading', { name: `Mark Delivered: order #${orderId}?` }));
    await admin.getByRole('button', { name: 'Yes, Mark Delivered' }).click();
    await admin.waitForURL(/\/admin\?tab=orders/);
    expect(await toastText(admin)).toContain(`Order #${orderId} marked as delivered.`);
    await screenshot(admin, 'admin-orders');

    await shopper.goto(`${store.server.url}/profile?tab=orders`);
    await shows(shopper.locator('[data-status="completed"]').first());
    await shows(shopper.getByText('Delivered').first());
    await islandsReady(shopper);
    await shopper.getByRole('button', { name: /^Notifications/ }).click();
    await shows(shopper.getByRole('dialog').getByText('Order delivered').first());
    await admin.close();
    await customer.close();
  });
});
