import { afterAll, beforeAll } from 'bun:test';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

/**
 * A browser test file's store: a real server (fresh DATA_DIR) and Chromium, started before the
 * file's tests and stopped after them.
 */
export function storeAndBrowser(env: Record<string, string> = {}): { readonly server: RunningServer; readonly browser: Browser } {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer({ env });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return {
    get server() {
      return server!;
    },
    get browser() {
      return browser!;
    },
  };
}
