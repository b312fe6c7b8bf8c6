import { afterAll, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { Client } from '../helpers/http-client.ts';
import { startNginx, type RunningNginx } from '../helpers/nginx.ts';
import { freePort, startServer, type RunningServer } from '../helpers/server.ts';

/*
 * A deploy as docs/operations.md describes it for nginx: two stores behind Debian's nginx,
 * restarted one after the other while shoppers keep browsing and writing: the operator marks
 * the store `down` and reloads nginx (open-source nginx reads no /readyz), sends SIGTERM, starts
 * the new process and puts it back. Every request gets its answer: no 5xx, no reset
 * connection. Before the drain, the listener closed at SIGTERM and kept-alive and queued
 * connections were cut under requests nginx had sent (POSTs: 502); without marking the store
 * down, a connection nginx opened in the instant the listener closed was reset (a POST 502 now
 * and then on a busy machine).
 */

const DRAIN_MS = 1500;
const env = { SHUTDOWN_DRAIN_MS: String(DRAIN_MS), SHUTDOWN_GRACE_MS: '15000', RATE_LIMIT: 'off', TRUST_PROXY: 'loopback' };
const ports = [freePort(), freePort()];
const stores: RunningServer[] = [];
let nginx: RunningNginx | undefined;

afterAll(async () => {
  await nginx?.stop();
  // Each store drains before it stops: stop them together, with time for it.
  await Promise.all(stores.map((store) => store.stop()));
  rmSync(stores[0]!.dataDir, { recursive: true, force: true });
}, 30_000);

interface Tally {
  answers: Map<string, number>;
  failures: string[];
  requests: number;
}

/** A shopper who, until told to stop, looks at products and puts one in the cart and takes it out again. */
async function shop(client: Client, productId: number, tally: Tally, running: () => boolean): Promise<void> {
  const send = async (method: string, path: string, body?: unknown) => {
    tally.requests++;
    try {
      const response = await client.request(method, path, body);
      const key = `${method} ${path.replace(/\d+$/, ':id')} ${response.status}`;
      tally.answers.set(key, (tally.answers.get(key) ?? 0) + 1);
      if (!response.ok) tally.failures.push(`${key} ${await response.text()}`);
      return response.ok ? await response.json() : undefined;
    } catch (error) {
      tally.failures.push(`${method} ${path}: ${String(error)}`);
      return undefined;
    }
  };
  while (running()) {
    await send('GET', '/api/products');
    const line = (await send('POST', '/api/cart', { productId, quantity: 1 })) as { id: number } | undefined;
    if (line) await send('DELETE', `/api/cart/${line.id}`);
  }
}

describe('restarts behind nginx', () => {
  test('two stores restarted one after the other with SIGTERM under load: every request answered, none 5xx or reset', async () => {
    stores[0] = await startServer({ env, port: ports[0] });
    stores[1] = await startServer({ env, port: ports[1], dataDir: stores[0].dataDir });
    // nginx lets go of an idle connection before a store's drain ends (docs/operations.md).
    nginx = await startNginx(freePort(), ports, { keepaliveTimeout: '1s' });
    const proxy = { url: nginx.url };

    const shoppers = await Promise.all(
      Array.from({ length: 4 }, async (_, i) => {
        // A new connection to nginx for every request: nginx's own reload closes its idle client
        // connections, and a request sent on one in that instant is reset between the client and
        // nginx (a browser sends it again; this client would not), which is not what this test is about.
        const client = new Client(proxy, { 'x-forwarded-for': `10.9.0.${i + 1}`, connection: 'close' });
        await client.ok('POST', '/api/register', { username: `restart-shopper-${i}`, password: 'secret-pass' });
        await client.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
        return client;
      }),
    );
    const products = (await (await fetch(`${proxy.url}/api/products`)).json()) as { id: number; quantity: number }[];
    const productId = products.find((p) => p.quantity > 0)!.id;

    const tally: Tally = { answers: new Map(), failures: [], requests: 0 };
    let running = true;
    const load = Promise.all(shoppers.map((client) => shop(client, productId, tally, () => running)));
    const requestsDone = async (n: number) => {
      const target = tally.requests + n;
      while (tally.requests < target) await Bun.sleep(20);
    };

    for (const i of [0, 1]) {
      await requestsDone(100);
      const leaving = stores[i]!;
      await nginx.setDown([ports[i]!]);
      leaving.child.kill('SIGTERM');
      // Draining: still answering, but no longer ready, so a balancer with health checks moves away.
      let ready = 200;
      for (const until = Date.now() + DRAIN_MS; ready === 200 && Date.now() < until; ) ready = (await fetch(`http://127.0.0.1:${ports[i]}/readyz`)).status;
      expect(ready).toBe(503);
      expect(await leaving.child.exited).toBe(0);
      stores[i] = await startServer({ env, port: ports[i], dataDir: stores[0]!.dataDir });
      await nginx.setDown([]);
    }
    await requestsDone(100);
    running = false;
    await load;

    expect(tally.failures).toEqual([]);
    const log = nginx.accessLog();
    expect(log.filter((line) => /^5/.test(line))).toEqual([]);
    // Both stores answered the POSTs, and both restarts happened under load.
    expect(tally.answers.get('POST /api/cart 201')).toBeGreaterThan(50);
    for (const port of ports) expect(log.some((line) => line.includes(`127.0.0.1:${port} POST`))).toBe(true);
    console.info(
      `restarts behind nginx: ${tally.requests} requests, ${log.filter((line) => line.includes(', ')).length} passed on to the other store by nginx`,
    );
  }, 90_000);
});
