import { afterEach, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { buyNowBody } from '../helpers/actors.ts';
import { shopperWithCard } from '../helpers/http-client.ts';
import { FAKE_SQUARE_LOCATION, FAKE_SQUARE_TOKEN, startFakeSquare, type FakeSquare } from '../helpers/fake-square.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

/*
 * SIGTERM (a deploy, `docker stop`) while a shopper's card is being charged through a slow
 * Square: the request completes 2xx, the order is paid, the process exits 0 and says so.
 */

let fake: FakeSquare | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  fake?.stop();
  server = undefined;
  fake = undefined;
});

describe('graceful shutdown', () => {
  test('SIGTERM with a slow charge in flight: the request completes 201, the order is paid, exit 0', async () => {
    fake = await startFakeSquare();
    server = await startServer({
      env: {
        PAYMENTS: 'square',
        SQUARE_ACCESS_TOKEN: FAKE_SQUARE_TOKEN,
        SQUARE_LOCATION_ID: FAKE_SQUARE_LOCATION,
        SQUARE_BASE_URL: fake.url,
        SHUTDOWN_GRACE_MS: '10000',
      },
    });
    const { url } = server;
    const cookie = (await shopperWithCard({ url }, 'leaving-soon')).cookie;
    const products = (await (await fetch(`${url}/api/products`)).json()) as { id: number; price: number; quantity: number }[];
    const product = products.find((p) => p.quantity > 0)!;
    fake.setLatency(1500, { method: 'POST', path: '/v2/payments', phase: 'before' });

    const ordering = fetch(`${url}/api/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, cookie },
      body: JSON.stringify(buyNowBody(product.id, Math.round(product.price * 100))),
    });
    await fake.waitForRequest({ method: 'POST', path: '/v2/payments' });
    server.child.kill('SIGTERM');
    await Bun.sleep(200);
    // New connections are refused while the charge finishes.
    const late = await fetch(`${url}/healthz`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(late).toBe('refused');

    const answer = await ordering;
    expect(answer.status).toBe(201);
    const { id } = (await answer.json()) as { id: number };
    expect(await server.child.exited).toBe(0);
    expect(fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);

    const db = new Database(join(server.dataDir, 'data', 'store.db'), { readonly: true });
    const order = db.query('select status from orders where id = ?').get(id) as { status: string };
    const charge = db.query("select status from payments where order_id = ? and kind = 'order_charge'").get(id) as { status: string };
    db.close();
    expect(order.status).toBe('processing');
    expect(charge.status).toBe('captured');

    const log = server.output();
    expect(log).toContain('shutdown: SIGTERM received, /readyz now answers 503');
    expect(log).toContain('shutdown: no longer accepting connections, 1 request in flight');
    expect(log).toContain('shutdown: requests drained');
    expect(log).toContain('shutdown: jobs finished');
    expect(log).toContain('shutdown: database closed');
  }, 20_000);

  test('SIGTERM starts a drain: /readyz answers 503 at once, pages are still served with Connection: close, then the store stops', async () => {
    server = await startServer({ env: { SHUTDOWN_DRAIN_MS: '1500' } });
    const { url } = server;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const kept = await fetch(`${url}/ping`);
    expect(kept.headers.get('connection')).not.toBe('close');
    server.child.kill('SIGTERM');
    await server.outputContaining('shutdown: SIGTERM received');
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'draining', draining: true });
    // A balancer that has not noticed yet still gets its answers, each ending its connection.
    const served = await fetch(`${url}/api/products`);
    expect(served.status).toBe(200);
    expect(served.headers.get('connection')).toBe('close');
    expect(await server.child.exited).toBe(0);
    const log = server.output();
    expect(log).toContain('serving 1500 ms more with Connection: close');
    expect(log.indexOf('no longer accepting connections')).toBeGreaterThan(log.indexOf('SIGTERM received'));
  }, 20_000);

  test('SIGTERM when idle exits 0 at once', async () => {
    server = await startServer();
    const started = Date.now();
    server.child.kill('SIGTERM');
    expect(await server.child.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(server.output()).toContain('shutdown: database closed');
  }, 15_000);
});
