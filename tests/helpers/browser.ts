import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/runtime-files.ts';

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A step that waits longer than this fails on its own, naming itself, well inside a test's 90 s. */
export const STEP_TIMEOUT_MS = 30_000;

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(STEP_TIMEOUT_MS);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(STEP_TIMEOUT_MS);
    return page;
  };
  return browser;
}

export const SCREENSHOT_DIR = join(projectRoot, 'test-results', 'screenshots');

export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const path = join(SCREENSHOT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path, fullPage });
  return path;
}

/** Collects uncaught page errors and console errors, which a test expects to stay empty. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  // The page's path too: a hydration mismatch (React #418) names no island, only where it happened.
  const where = () => {
    try {
      return new URL(page.url()).pathname;
    } catch {
      return page.url();
    }
  };
  page.on('pageerror', (error) => errors.push(`pageerror on ${where()}: ${error.message}`));
  page.on('console', (message) => {
    // A refused request (a 401 on a wrong password) is logged by Chromium; that is the app working.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(`console: ${message.text()}`);
  });
  return errors;
}

/** Waits until every island on the page has hydrated. */
export async function islandsReady(page: Page): Promise<void> {
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLElement>('[data-island]')].every((el) => el.dataset.hydrated === 'true'));
}

/** The text of the visible toast, once one shows. */
export async function toastText(page: Page, saying?: string | RegExp): Promise<string> {
  // An earlier toast may still be showing (they stay a few seconds): with `saying`, the one that says it.
  const element = saying === undefined ? page.locator('[data-toast]') : page.locator('[data-toast]').filter({ hasText: saying }).first();
  await element.waitFor({ state: 'visible' });
  return (await element.textContent()) ?? '';
}

/**
 * Waits until what the locator finds is visible; the step timeout names it when it never is.
 * (`isVisible()` answers at once, so after a click that navigates it can read the old page.)
 */
export async function shows(locator: Locator): Promise<void> {
  await locator.waitFor({ state: 'visible' });
}
