import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { islandsReady } from '../helpers/browser.ts';
import { storeAndBrowser } from '../helpers/e2e.ts';
import { shopperWithCard } from '../helpers/http-client.ts';
import { startNginx, type RunningNginx } from '../helpers/nginx.ts';
import { freePort } from '../helpers/server.ts';
import { readEvents } from '../helpers/sse.ts';

setDefaultTimeout(150_000);

/*
 * Issue 37, item 4: the live stream dropped about every 12 s on every live page (Bun closes a
 * connection idle for 10 s; the heartbeat came every 25 s), so Chromium logged
 * ERR_INCOMPLETE_CHUNKED_ENCODING and reconnected 3 s later. One stream to the real server and
 * one through nginx (the proxy block of docs/operations.md), and a live page in Chromium, all
 * held open for over a minute: heartbeats come, nothing ends, the page never reconnects, and a
 * change after the minute still arrives on the same streams. The file's one long wait.
 */

const store = storeAndBrowser();
let nginx: RunningNginx | undefined;
afterAll(async () => {
  await nginx?.stop();
});

const HELD_MS = 65_000;

async function openStream(url: string, cookie: string) {
  const response = await fetch(`${url}/api/events?scoreboard=1`, { headers: { cookie } });
  expect(response.status).toBe(200);
  const stream = readEvents(response);
  expect((await stream.next(5000))?.event).toBe('ready');
  // The state of its topics comes first (the scoreboard, the shopper's cart and bell).
  expect((await stream.drain(1500)).map((m) => m.event).sort()).toEqual(['scoreboard', 'user']);
  return stream;
}

describe('a live stream held open for over a minute', () => {
  test('direct and behind nginx: heartbeats, no end, no reconnect in Chromium, and the next change still arrives', async () => {
    nginx = await startNginx(freePort(), [Number(new URL(store.server.url).port)]);
    const shopper = await shopperWithCard(store.server, 'held_open');
    const direct = await openStream(store.server.url, shopper.cookie);
    const proxied = await openStream(nginx.url, shopper.cookie);

    const page = await store.browser.newPage({ viewport: { width: 390, height: 844 } });
    const streamsOpened: string[] = [];
    const failed: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/events')) streamsOpened.push(request.url());
    });
    page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
    page.on('console', (message) => {
      if (message.type() === 'error') failed.push(`console: ${message.text()}`);
    });
    await page.goto(`${nginx.url}/scoreboard`);
    await islandsReady(page);

    // Read both streams for the whole minute: only heartbeats come, and neither is ended.
    const [fromDirect, fromProxy] = await Promise.all([direct.drain(HELD_MS), proxied.drain(HELD_MS)]);
    expect(fromDirect).toEqual([]);
    expect(fromProxy).toEqual([]);
    for (const stream of [direct, proxied]) {
      expect(stream.ended).toBe(false);
      expect(stream.comments).toBeGreaterThanOrEqual(6);
    }
    expect(streamsOpened).toHaveLength(1);
    expect(failed).toEqual([]);

    // Still live: the shopper's cart changes and both streams say so.
    const { id: productId } = ((await shopper.ok('GET', '/api/products?q=aviator')) as { id: number }[])[0]!;
    await shopper.ok('POST', '/api/cart', { productId, quantity: 1 });
    for (const stream of [direct, proxied]) {
      const message = await stream.next(10_000);
      expect(message?.event).toBe('user');
      expect(JSON.parse(message!.data).cartCount).toBe(1);
      await stream.close();
    }
    await page.close();
  });
});
