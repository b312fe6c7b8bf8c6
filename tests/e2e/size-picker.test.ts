import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe.ts';
import { islandsReady, launchBrowser, shows, toastText, watchErrors } from '../helpers/browser.ts';
import { type RunningServer, startServer } from '../helpers/server.ts';

setDefaultTimeout(120_000);

/*
 * Issue 38, the seam between the size picker and the order: a shopper picks a size with the
 * keyboard on the real page (the island submits the GET form, the URL gets ?size=), adds it to
 * the cart with the page's own form, checks out, and the order line in the store is that size.
 */

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const storeDb = (readonly = false) => new Database(join(server.dataDir, 'data', 'store.db'), { readonly });

/** A tee in stock made a tee in S, M, L and XL (XL sold out), written as another process would: its page shows them at once. */
function teeInSizes(): number {
  const db = storeDb();
  db.exec('PRAGMA busy_timeout = 5000');
  const tee = db
    .query("select id from products where product_type = 'tshirt' and archived_at is null and buy_now_enabled = 1 and quantity > 0 limit 1")
    .get() as {
    id: number;
  };
  const now = Date.now();
  db.transaction(() => {
    db.query("update product_variants set size = 'S', quantity = 2, stocked = 2, position = 0 where product_id = ?").run(tee.id);
    for (const [position, size, quantity] of [
      [1, 'M', 3],
      [2, 'L', 2],
      [3, 'XL', 0],
    ] as const) {
      db.query('insert into product_variants (product_id, sku, size, quantity, stocked, position, created_at) values (?, ?, ?, ?, ?, ?, ?)').run(
        tee.id,
        `E2E-${tee.id}-${size}`,
        size,
        quantity,
        quantity,
        position,
        now,
      );
    }
    db.query("update products set quantity = 7, size = 'S, M, L, XL' where id = ?").run(tee.id);
  })();
  db.close();
  return tee.id;
}

/** The radio that has focus: its value. */
const focusedSize = (page: Page) => page.evaluate(() => (document.activeElement instanceof HTMLInputElement ? document.activeElement.value : null));

describe('a shopper picks a size with the keyboard and gets it', () => {
  test('arrow keys choose M then L, the URL follows, XL is sold out; Add to Cart and the order line are size L', async () => {
    const id = teeInSizes();
    // bypassCSP: axe is injected as an inline script (tests/helpers/axe.ts).
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/product/${id}`);
    await islandsReady(page);
    const group = page.getByRole('group', { name: 'Size' });
    expect(await group.getByRole('radio', { name: 'XL, sold out' }).isDisabled()).toBe(true);
    // With the picker's script, the change sends itself: no Choose button.
    expect(await page.getByRole('button', { name: 'Choose', exact: true }).isVisible()).toBe(false);
    expect(await page.getByText('Choose a size').count()).toBe(2);
    // The picker and the waiting buy controls pass axe's serious and critical rules.
    expect(await seriousViolations(page)).toEqual([]);

    await group.getByRole('radio', { name: 'S', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(`${server.url}/product/${id}?size=M#size`);
    await islandsReady(page);
    // Back on the page, focus is on the chosen size, so the next arrow goes on from there.
    expect(await focusedSize(page)).toBe('M');
    await page.keyboard.press('ArrowRight');
    await page.waitForURL(`${server.url}/product/${id}?size=L#size`);
    await islandsReady(page);
    expect(await group.getByRole('radio', { name: 'L', exact: true }).isChecked()).toBe(true);
    await shows(page.getByText('2 left in size L'));

    await page.getByRole('button', { name: 'Add to Cart' }).click();
    expect(await toastText(page, 'Added to cart')).toContain('Added to cart');
    expect(new URL(page.url()).search).toBe('?size=L');
    await page.goto(`${server.url}/cart`);
    await islandsReady(page);
    await page.getByLabel('Full name').fill('Sam Size');
    await page.getByLabel('Email').fill('sam@example.com');
    await page.getByLabel('Phone').fill('949-555-0138');
    await page.getByLabel('Street address').fill('3 Cliff Dr');
    await page.getByLabel('City').fill('Laguna Beach');
    const state = page.getByLabel('State', { exact: true });
    if ((await state.evaluate((element) => element.tagName)) === 'SELECT') await state.selectOption('CA');
    else await state.fill('CA');
    await page.getByLabel('ZIP code').fill('92651');
    await page.getByRole('tab', { name: 'Cash on Delivery' }).click();
    await page.getByRole('button', { name: 'Complete Purchase' }).click();
    await page.waitForURL(/\/order-confirmation\/\d+$/);
    const orderId = Number(page.url().split('/').pop());
    await context.close();

    const db = storeDb(true);
    const lines = db.query('select product_id as productId, size_label as sizeLabel, quantity from order_items where order_id = ?').all(orderId);
    const left = db.query('select size, quantity from product_variants where product_id = ? order by position').all(id);
    db.close();
    expect(lines).toEqual([{ productId: id, sizeLabel: 'L', quantity: 1 }]);
    // The unit came off L's shelf alone.
    expect(left).toEqual([
      { size: 'S', quantity: 2 },
      { size: 'M', quantity: 3 },
      { size: 'L', quantity: 1 },
      { size: 'XL', quantity: 0 },
    ]);
    expect(errors).toEqual([]);
  });
});
