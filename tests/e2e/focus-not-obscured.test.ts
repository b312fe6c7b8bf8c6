import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import type { BrowserContext, Page } from 'playwright-core';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { E2E_ADMIN } from '../helpers/server.ts';

/*
 * WCAG 2.4.11 (Focus Not Obscured): a keyboard-only user tabs through every page of the route
 * table, at 1280 px and at 390 px, and no control that takes focus is covered by the fixed
 * bottom tab bar (or the play page's join bar above it). On wide screens the bar is gone and the
 * header carries its links.
 */

setDefaultTimeout(600_000);

const store = storeAndBrowser();
const ids = { product: 0 };
/** The most Tab presses per page: enough to pass every control of the longest page here. */
const MAX_TABS = 120;

function routes(): string[] {
  return [
    '/',
    '/welcome',
    `/product/${ids.product}`,
    `/product/${ids.product}?tab=competition`,
    `/play/${ids.product}`,
    '/products',
    '/scoreboard',
    '/scoreboard?tab=my-games',
    '/scoreboard?tab=winners',
    '/cart',
    `/checkout?productId=${ids.product}`,
    '/business-portal',
    '/tutorial',
    '/tutorial?tab=faqs',
    '/sunglass-gallery',
    '/coach',
    '/coach/twitter',
    '/profile',
    '/profile?tab=payment',
    '/profile?tab=orders',
    '/profile?tab=play',
    '/profile?tab=account',
    '/auth/forgot',
    '/rules',
    '/terms',
    '/privacy',
    '/returns',
    '/shipping',
    '/contact',
    '/no/such/page',
  ];
}

/** The admin's pages, walked by the admin who passed the PIN. */
const adminRoutes = () => ['/admin', '/admin?tab=orders', '/admin?tab=applications', '/admin/product/new', `/admin/product/${ids.product}`];

async function adminContext(width: number, height: number): Promise<BrowserContext> {
  const { server, browser } = store;
  const context = await browser.newContext({ viewport: { width, height } });
  expect((await context.request.post(`${server.url}/api/login`, { data: { username: E2E_ADMIN.username, password: E2E_ADMIN.password } })).status()).toBe(200);
  expect((await context.request.post(`${server.url}/api/admin/pin`, { data: { pin: E2E_ADMIN.pin } })).status()).toBe(200);
  return context;
}

async function signedInContext(width: number, height: number): Promise<BrowserContext> {
  const { server, browser } = store;
  const context = await browser.newContext({ viewport: { width, height } });
  const username = `keys_${width}`;
  expect((await context.request.post(`${server.url}/api/register`, { data: { username, password: 'tab-tab-tab' } })).status()).toBe(201);
  return context;
}

/**
 * Tabs from the top of the page until focus comes round again (or MAX_TABS); returns each
 * focused control that a fixed bar at the bottom covers, even in part.
 */
async function coveredWhileTabbing(page: Page, path: string): Promise<string[]> {
  const covered: string[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < MAX_TABS; i++) {
    await page.keyboard.press('Tab');
    const found = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (!active || active === document.body) return { key: 'body', covered: null };
      const bars = [...document.querySelectorAll<HTMLElement>('nav[aria-label="Main"], [data-join-bar]')].filter(
        (bar) => getComputedStyle(bar).position === 'fixed' && bar.getBoundingClientRect().height > 0,
      );
      const rect = active.getBoundingClientRect();
      const key = `${active.tagName}:${active.id}:${active.getAttribute('href') ?? ''}:${active.textContent?.trim().slice(0, 30)}:${Math.round(rect.top + window.scrollY)}`;
      const over = bars.find((bar) => {
        if (bar.contains(active)) return false;
        const b = bar.getBoundingClientRect();
        return rect.bottom > b.top + 0.5 && rect.top < b.bottom && rect.right > b.left && rect.left < b.right;
      });
      const label = `${active.tagName.toLowerCase()} "${(active.getAttribute('aria-label') ?? active.textContent ?? '').trim().slice(0, 40)}"`;
      return { key, covered: over ? `${label} under ${over.getAttribute('aria-label') ?? 'the join bar'}` : null };
    });
    if (found.covered) covered.push(`${path}: ${found.covered}`);
    if (seen.has(found.key)) break;
    seen.add(found.key);
  }
  return covered;
}

beforeAll(async () => {
  const products = (await (await fetch(`${store.server.url}/api/products`)).json()) as { id: number; playEnabled: boolean; quantity: number }[];
  ids.product = products.find((p) => p.playEnabled && p.quantity > 1)!.id;
});

describe('focus is never hidden by the bottom tab bar', () => {
  test('at 1280 px the bar is gone, the header carries its links, and nothing focused is covered', async () => {
    const context = await signedInContext(1280, 800);
    const page = await context.newPage();
    const problems: string[] = [];
    for (const path of routes()) {
      await page.goto(`${store.server.url}${path}`, { waitUntil: 'load' });
      if (await page.locator('nav.fixed[aria-label="Main"]').isVisible()) problems.push(`${path}: the bottom tab bar shows at 1280 px`);
      if (!(await page.locator('header nav[aria-label="Main"]').isVisible())) problems.push(`${path}: the header has no main links`);
      problems.push(...(await coveredWhileTabbing(page, path)));
    }
    const header = page.locator('header nav[aria-label="Main"]');
    for (const name of ['Home', 'Coach', 'Scoreboard']) expect(await header.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('at 390 px every focused control scrolls clear of the bar', async () => {
    const context = await signedInContext(390, 844);
    const page = await context.newPage();
    const problems: string[] = [];
    for (const path of routes()) {
      await page.goto(`${store.server.url}${path}`, { waitUntil: 'load' });
      expect(await page.locator('nav.fixed[aria-label="Main"]').isVisible()).toBe(true);
      problems.push(...(await coveredWhileTabbing(page, path)));
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    test(`the admin's pages at ${width} px: nothing focused is covered`, async () => {
      const context = await adminContext(width, height);
      const page = await context.newPage();
      const problems: string[] = [];
      for (const path of adminRoutes()) {
        await page.goto(`${store.server.url}${path}`, { waitUntil: 'load' });
        problems.push(...(await coveredWhileTabbing(page, path)));
      }
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
