import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { join } from 'node:path';
import { buyNowBody, COMPLETE_PROFILE } from '../helpers/actors.ts';
import { Client } from '../helpers/http-client.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';

/* What an operator reads: the real server's stdout is JSON lines, one per request, job run and payment step. */

let server: RunningServer;

// Starting servers takes seconds on a busy machine: more than the hooks' default 5 s.
beforeAll(async () => {
  server = await startServer({ env: { LOG_LEVEL: 'info' } });
}, 60_000);

afterAll(async () => {
  await server?.stop();
}, 30_000);

type Line = Record<string, unknown>;

function logLines(): Line[] {
  return server
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as Line;
      } catch {
        throw new Error(`a log line that is not JSON: ${line}`);
      }
    });
}

async function waitForLine(match: (line: Line) => boolean): Promise<Line> {
  for (let i = 0; i < 100; i++) {
    const found = logLines().find(match);
    if (found) return found;
    await Bun.sleep(20);
  }
  throw new Error('no such log line');
}

describe('structured logs', () => {
  test('every line is JSON; a request line carries its id, status, duration and the signed-in user', async () => {
    const visitor = await fetch(`${server.url}/products`);
    expect(visitor.status).toBe(200);
    const visitorId = visitor.headers.get('x-request-id');
    const line = await waitForLine((l) => l.reqId === visitorId);
    expect(line).toMatchObject({ level: 'info', event: 'request', method: 'GET', path: '/products', status: 200, userId: null });
    expect(typeof line.time).toBe('string');
    expect(Number.isNaN(Date.parse(line.time as string))).toBe(false);
    expect(line.ms).toBeNumber();

    const shopper = new Client(server);
    const registered = await shopper.ok('POST', '/api/register', { username: `logged-${crypto.randomUUID().slice(0, 6)}`, password: 'secret-pass' });
    await shopper.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
    const db = new Database(join(server.dataDir, 'data', 'store.db'), { readonly: true });
    const product = db.query("select id, price_cents as priceCents from products where model = 'RB3025-L0205'").get() as { id: number; priceCents: number };
    db.close();
    const order = await shopper.request('POST', '/api/orders', buyNowBody(product.id, product.priceCents));
    expect(order.status).toBe(201);
    const orderLine = await waitForLine((l) => l.event === 'request' && l.reqId === order.headers.get('x-request-id'));
    expect(orderLine).toMatchObject({ event: 'request', method: 'POST', path: '/api/orders', status: 201, userId: registered.user?.id ?? expect.any(Number) });

    // The payment step: the gateway call with its key and amount, never the card token.
    const charge = await waitForLine((l) => l.event === 'gateway_call' && l.operation === 'charge');
    const { orderId } = (await order.json()) as { orderId: number };
    // With the ids that find it again: the request, the shopper, the order and our payment row.
    expect(charge).toMatchObject({
      component: 'payments',
      outcome: 'ok',
      status: 'COMPLETED',
      reqId: order.headers.get('x-request-id'),
      userId: orderLine.userId,
      orderId,
      paymentId: expect.any(Number),
    });
    expect(charge.idempotencyKey).toBeString();
    expect(server.output()).not.toContain('cnon:card-nonce-ok');

    // The jobs: one line per job run.
    for (const job of ['metrics', 'games', 'payments', 'retention']) await waitForLine((l) => l.event === 'job_run' && l.job === job && l.ok === true);
    expect(logLines().length).toBeGreaterThan(8);
  }, 30_000);

  test('/metrics from this machine parses and counts the requests by route', async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    expect(text).toContain('# TYPE csa_http_requests_total counter');
    expect(text).toMatch(/csa_http_requests_total\{method="GET",route="\/products",status="200"\} [1-9]/);
    expect(text).toMatch(/csa_orders\{status="processing"\} 1/);
    expect(text).toMatch(/csa_job_last_success_timestamp_seconds\{job="games"\} \d/);
    expect(text).toMatch(/csa_process_resident_memory_bytes \d/);
  });

  const promtool = Bun.which('promtool');
  if (!promtool) console.warn('promtool is not installed (apt-get install prometheus; .ci/run does): the /metrics lint is skipped');
  test.skipIf(!promtool)('`promtool check metrics` accepts /metrics', async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const check = Bun.spawnSync([promtool!, 'check', 'metrics'], { stdin: new TextEncoder().encode(text), stdout: 'pipe', stderr: 'pipe' });
    expect(`${check.stdout.toString()}${check.stderr.toString()}`).toBe('');
    expect(check.exitCode).toBe(0);
  });
});
