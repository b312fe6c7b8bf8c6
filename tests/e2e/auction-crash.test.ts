import { describe, expect, test } from 'bun:test';
import { kill9, storeOnFakeSquare } from '../helpers/crash.ts';
import { Database } from 'bun:sqlite';
import { openStoreFile } from '../helpers/store-file.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { startFakeSquare } from '../helpers/fake-square.ts';
import { Client } from '../helpers/http-client.ts';
import { E2E_ADMIN, type RunningServer } from '../helpers/server.ts';

/*
 * Issue 28, item 5: kill -9 while the close job charges the winner (before Square processed
 * the charge, and after it did but before the answer came back), restart on the same data:
 * the winner is charged once, one paid order, the auction ended, nothing left in between.
 */

const MINUTE = 60_000;
/**
 * The auction runs on the manual clock from 3 minutes before real time for 2.5 minutes (longer
 * than the soft close, so the bids do not move the end), and so ends before real time: the
 * reconciler asks Square for payments since the row's time less a minute, and the fake Square
 * dates its payments by the real clock.
 */
const START_BEFORE_MS = 3 * MINUTE;
const END_IN_MS = 150_000;
const PAYMENTS_PATH = { method: 'POST', path: '/v2/payments' };

const setClock = (server: RunningServer, now: number) => new Client(server).ok('POST', '/api/test/clock', { now });

async function shopper(server: RunningServer, username: string): Promise<Client> {
  const client = new Client(server);
  await client.ok('POST', '/api/register', { username, password: 'secret-pass' });
  await client.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
  return client;
}

describe('kill -9 during the auction close, restart: one charge', () => {
  for (const phase of ['before', 'after'] as const) {
    test(`killed ${phase} Square processed the winner's charge`, async () => {
      const fake = await startFakeSquare();
      const dataDir = mkdtempSync(join(tmpdir(), 'csa-auction-crash-'));
      try {
        let server = await storeOnFakeSquare(dataDir, fake);
        const now = ((await new Client(server).ok('POST', '/api/test/clock', { advanceMs: 0 })).now as number) - START_BEFORE_MS;
        await setClock(server, now);
        const writable = openStoreFile(join(dataDir, 'data', 'store.db'));
        const productId = (writable.query('select id from products order by id limit 1').get() as { id: number }).id;
        writable.query('update products set bid_enabled = 1, quantity = 1 where id = ?').run(productId);
        writable.close();

        const admin = new Client(server);
        await admin.ok('POST', '/api/login', { username: E2E_ADMIN.username, password: E2E_ADMIN.password });
        await admin.ok('POST', '/api/admin/pin', { pin: E2E_ADMIN.pin });
        await admin.ok('PUT', `/api/admin/products/${productId}/auction`, { startingBid: 100, endsAt: new Date(now + END_IN_MS).toISOString() });
        const alice = await shopper(server, 'alice1');
        const bob = await shopper(server, 'bob22');
        await alice.ok('POST', `/api/products/${productId}/bids`, { maxAmount: 300 });
        await bob.ok('POST', `/api/products/${productId}/bids`, { maxAmount: 200 });

        const seen = fake.requests.filter((r) => r.method === 'POST' && r.path === PAYMENTS_PATH.path).length;
        fake.setLatency(1500, { ...PAYMENTS_PATH, phase });
        const closing = setClock(server, now + END_IN_MS).catch(() => undefined);
        if (phase === 'after') await fake.waitForProcessed(PAYMENTS_PATH, { count: seen + 1, timeoutMs: 20_000 });
        else await fake.waitForRequest(PAYMENTS_PATH, { count: seen + 1, timeoutMs: 20_000 });
        await kill9(server);
        await closing;
        // Square finishes what it had in hand, as it would in real time.
        await fake.waitForProcessed(PAYMENTS_PATH, { count: seen + 1, timeoutMs: 20_000 });
        fake.reset();

        server = await storeOnFakeSquare(dataDir, fake);
        await setClock(server, now + END_IN_MS + 10 * MINUTE);
        await setClock(server, now + END_IN_MS + 30 * MINUTE);
        await kill9(server);

        const db = new Database(join(dataDir, 'data', 'store.db'), { readonly: true });
        const auction = db.query('select status, winner_order_id from auctions where product_id = ?').get(productId) as {
          status: string;
          winner_order_id: number;
        };
        const orders = db.query('select id, status from orders').all() as { id: number; status: string }[];
        const between = db
          .query("select count(*) as n from payments where status in ('charging', 'authorizing', 'capturing', 'voiding', 'refunding')")
          .get() as {
          n: number;
        };
        db.close();
        expect(fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
        expect(orders.filter((o) => o.status === 'processing')).toHaveLength(1);
        expect(orders.filter((o) => o.status === 'pending')).toEqual([]);
        expect(auction).toEqual({ status: 'ended', winner_order_id: orders.find((o) => o.status === 'processing')!.id });
        expect(between.n).toBe(0);
      } finally {
        fake.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 90_000);
  }
});
