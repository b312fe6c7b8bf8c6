import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { launchBrowser } from '../helpers/browser.ts';
import { E2E_ADMIN, startServer, type RunningServer } from '../helpers/server.ts';

/*
 * Every route of the spec's route table, visited signed out, signed in and as an admin who
 * passed the PIN: the page's heading, its title, and no serious or critical axe-core violation.
 */

setDefaultTimeout(300_000);

let server: RunningServer;
let browser: Browser;
const ids = { sunglasses: 0, tshirt: 0, shoe: 0, book: 0, order: 0, boxOrder: 0 };

type Role = 'visitor' | 'shopper' | 'admin';
type Expect = string | RegExp;
/** path → the h1 each role sees (a signed-out visitor sent to /auth sees 'Your account'). */
const routes: [string, Record<Role, Expect>][] = [];
const LOGIN = 'Your account';
const all = (h1: Expect): Record<Role, Expect> => ({ visitor: h1, shopper: h1, admin: h1 });
const signedIn = (h1: Expect): Record<Role, Expect> => ({ visitor: LOGIN, shopper: h1, admin: h1 });
const adminOnly = (h1: Expect): Record<Role, Expect> => ({ visitor: LOGIN, shopper: 'Access Denied', admin: h1 });

function buildRoutes() {
  routes.push(
    ['/', all('Pay for it, or play for it.')],
    ['/welcome', all('The Competitive Shopping Association')],
    ['/auth', { visitor: LOGIN, shopper: 'Pay for it, or play for it.', admin: 'Pay for it, or play for it.' }],
    [`/product/${ids.sunglasses}`, all(/./)],
    [`/product/${ids.book}?tab=competition`, all(/./)],
    [`/social-play/${ids.book}`, all(/./)],
    [`/play/${ids.book}`, all(/./)],
    ['/play', all('Games to join')],
    ['/products', all('All products')],
    ['/products?type=book', all('Books')],
    ['/auctions', all('Auctions')],
    ['/scoreboard', all('Scoreboard')],
    ['/scoreboard?tab=my-games', all('Scoreboard')],
    ['/scoreboard?tab=winners', all('Scoreboard')],
    // The cart and buy-now are open to everyone, with or without a profile (issue 27).
    ['/cart', { visitor: 'Your cart is empty', shopper: 'Your cart is empty', admin: 'Your cart is empty' }],
    [`/checkout?productId=${ids.sunglasses}`, { visitor: 'Checkout', shopper: 'Checkout', admin: 'Checkout' }],
    ['/business-portal', all('Partner with us in Laguna Beach')],
    ['/tutorial', all('How the CSA works')],
    ['/tutorial?tab=faqs', all('How the CSA works')],
    ['/sunglass-gallery', all('Laguna Sunglass Gallery')],
    ['/coach', all('Coach is coming soon')],
    ['/coach/twitter', all('Coach is coming soon')],
    ['/coach/instagram', all('Coach is coming soon')],
    ['/coach/youtube', all('Coach is coming soon')],
    ['/coach/tiktok', all('Coach is coming soon')],
    [`/order-confirmation/${ids.order}`, { visitor: LOGIN, shopper: 'Thank you! Your order is confirmed.', admin: 'Order Not Found' }],
    ['/profile', signedIn('My Profile')],
    ['/profile?tab=payment', signedIn('My Profile')],
    ['/profile?tab=orders', signedIn('My Profile')],
    ['/profile?tab=bids', signedIn('My Profile')],
    ['/admin', adminOnly('Admin Panel')],
    ['/admin?tab=orders', adminOnly('Admin Panel')],
    ['/admin?tab=applications', adminOnly('Admin Panel')],
    ['/admin?tab=auctions', adminOnly('Admin Panel')],
    [`/admin/products/${ids.sunglasses}/auction`, adminOnly('Auction')],
    ['/admin?tab=promotions', adminOnly('Admin Panel')],
    ['/mystery', all('Mystery Boxes')],
    ['/admin/product/new', adminOnly('Add Sunglasses')],
    [`/admin/product/${ids.sunglasses}`, adminOnly('Edit Sunglasses')],
    ['/admin/tshirt/new', adminOnly('Add T-Shirt')],
    [`/admin/tshirt/${ids.tshirt}`, adminOnly('Edit T-Shirt')],
    ['/admin/shoe/new', adminOnly('Add Shoe')],
    [`/admin/shoe/${ids.shoe}`, adminOnly('Edit Shoe')],
    ['/admin/book/new', adminOnly('Add Book')],
    [`/admin/book/${ids.book}`, adminOnly('Edit Book')],
    ['/rules', all('Official game rules')],
    ['/terms', all('Terms of Sale and Use')],
    ['/privacy', all('Privacy Policy')],
    ['/returns', all('Returns and the 30-Day Money-Back Guarantee')],
    ['/shipping', all('Shipping and Delivery')],
    ['/contact', all('Contact Us')],
    ['/auth/forgot', { visitor: 'Forgot password?', shopper: 'Forgot password?', admin: 'Forgot password?' }],
    ['/profile?tab=account', signedIn('My Profile')],
    [`/orders/${ids.order}`, { visitor: LOGIN, shopper: `Order #${ids.order}`, admin: 'Order Not Found' }],
    [`/orders/${ids.boxOrder}`, { visitor: LOGIN, shopper: `Order #${ids.boxOrder}`, admin: 'Order Not Found' }],
    ['/no/such/page', all('404 Page Not Found')],
  );
}

const contexts: Partial<Record<Role, BrowserContext>> = {};

async function context(role: Role): Promise<BrowserContext> {
  // bypassCSP only so axe-core can be injected; the pages themselves are unchanged.
  const ctx = await browser.newContext({ bypassCSP: true, viewport: { width: 390, height: 844 } });
  const api = ctx.request;
  if (role === 'shopper') {
    expect((await api.post(`${server.url}/api/register`, { data: { username: 'route_walker', password: 'walk-the-routes' } })).status()).toBe(201);
    expect(
      (
        await api.patch(`${server.url}/api/user/profile`, {
          data: {
            name: 'Route Walker',
            email: 'walker@example.com',
            phone: '9495550111',
            address: { line1: '1 Ocean Front', city: 'Laguna Beach', state: 'CA', postalCode: '92651', country: 'USA' },
            paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' },
          },
        })
      ).status(),
    ).toBe(200);
    const product = (await (await api.get(`${server.url}/api/products/${ids.book}`)).json()) as { price: number };
    const subtotal = product.price;
    const tax = Math.round(subtotal * 8) / 100;
    const order = await api.post(`${server.url}/api/orders`, {
      data: {
        productId: ids.book,
        quantity: 1,
        shipping: 0,
        subtotal,
        tax,
        total: Math.round((subtotal + tax) * 100) / 100,
        shippingMethod: 'standard',
        customerInfo: {
          name: 'Route Walker',
          email: 'walker@example.com',
          phone: '9495550111',
          address: { line1: '1 Ocean Front', city: 'Laguna Beach', state: 'CA', postalCode: '92651' },
        },
      },
    });
    expect(order.status()).toBe(201);
    ids.order = (await order.json()).id;
    // A mystery box order: its page shows the draw, the revealed seed and how to check it.
    const box = await api.post(`${server.url}/api/mystery-boxes/sunglasses/orders`, { data: {}, headers: { 'idempotency-key': crypto.randomUUID() } });
    expect(box.status()).toBe(201);
    ids.boxOrder = (await box.json()).orderId;
  }
  if (role === 'admin') {
    expect((await api.post(`${server.url}/api/login`, { data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password } })).status()).toBe(200);
    expect((await api.post(`${server.url}/api/admin/pin`, { data: { pin: E2E_ADMIN.pin } })).status()).toBe(200);
  }
  return ctx;
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const products = (await (await fetch(`${server.url}/api/products`)).json()) as {
    id: number;
    productType: keyof typeof ids;
    playEnabled: boolean;
    quantity: number;
  }[];
  for (const type of ['sunglasses', 'tshirt', 'shoe', 'book'] as const) {
    ids[type] = products.find((p) => p.productType === type && p.playEnabled && p.quantity > 1)!.id;
  }
  for (const role of ['visitor', 'shopper', 'admin'] as const) contexts[role] = await context(role);
  buildRoutes();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const checkedImages = new Map<string, string | null>();

/** The og:image answers with its declared type and size (each URL fetched once). */
async function previewImageProblems(page: Page, path: string, image: string): Promise<string[]> {
  const meta = (property: string) => page.locator(`meta[property="${property}"]`).getAttribute('content');
  const declared = `${await meta('og:image:type')} ${await meta('og:image:width')}x${await meta('og:image:height')}`;
  const key = `${image} ${declared}`;
  if (!checkedImages.has(key)) {
    const response = await page.request.get(image.replace(/^https?:\/\/[^/]+/, server.url));
    const bytes = await response.body();
    const actual = `${response.headers()['content-type']} ${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
    checkedImages.set(
      key,
      response.status() === 200 && actual === declared ? null : `${path}: og:image ${image} is ${response.status()} ${actual}, declared ${declared}`,
    );
  }
  const problem = checkedImages.get(key);
  return problem ? [problem] : [];
}

// The three roles walk the routes at once (a context and a page each): a page's wait for a quiet
// network leaves the two cores idle, and one role's waits are another's work.
describe.concurrent('every route of the route table', () => {
  for (const role of ['visitor', 'shopper', 'admin'] as const) {
    test(`as ${role === 'admin' ? 'an' : 'a'} ${role}: heading, title and no serious axe violation`, async () => {
      const page = await contexts[role]!.newPage();
      const problems: string[] = [];
      for (const [path, expected] of routes) {
        await page.goto(`${server.url}${path}`, { waitUntil: 'networkidle' });
        const headings = await page.locator('h1').allTextContents();
        const title = await page.title();
        const want = expected[role];
        if (headings.length !== 1) problems.push(`${path}: ${headings.length} h1 elements`);
        else if (typeof want === 'string' ? headings[0]!.trim() !== want : !want.test(headings[0]!))
          problems.push(`${path}: h1 "${headings[0]}" is not ${want}`);
        const isHome = new URL(page.url()).pathname === '/';
        if (isHome ? title !== 'CSA' : !/^.+ \| CSA$/.test(title)) problems.push(`${path}: title "${title}"`);
        const description = await page.locator('meta[name="description"]').getAttribute('content');
        const image = await page.locator('meta[property="og:image"]').getAttribute('content');
        if (!description || !image?.startsWith('http')) problems.push(`${path}: description or preview image missing`);
        else problems.push(...(await previewImageProblems(page, path, image)));
        for (const v of await seriousViolations(page)) problems.push(`${path}: axe ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
      }
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});

describe('nothing is wider than a 320 px phone', () => {
  for (const role of ['visitor', 'shopper', 'admin'] as const) {
    test(`as ${role === 'admin' ? 'an' : 'a'} ${role}: no route scrolls sideways at 320 px`, async () => {
      const page = await contexts[role]!.newPage();
      await page.setViewportSize({ width: 320, height: 640 });
      const problems: string[] = [];
      for (const [path] of routes) {
        await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
        const overflow = await page.evaluate(() => {
          const wide = [...document.querySelectorAll<HTMLElement>('body *')]
            .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
            .filter((element) => getComputedStyle(element).position !== 'fixed' && !element.closest('.sr-only, [aria-hidden="true"], dialog:not([open])'))
            .slice(0, 3)
            .map(
              (element) =>
                `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${String(element.className).split(' ').slice(0, 3).join('.')}`,
            );
          return { scrollWidth: document.documentElement.scrollWidth, wide };
        });
        if (overflow.scrollWidth > 320) problems.push(`${path}: ${overflow.scrollWidth} px wide (${overflow.wide.join(', ')})`);
      }
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
