import { describe, expect, test } from 'bun:test';
import { kill9, storeOnFakeSquare } from '../helpers/crash.ts';
import { Database } from 'bun:sqlite';
import { openStoreFile } from '../helpers/store-file.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RequestMatch, startFakeSquare } from '../helpers/fake-square.ts';
import { Client, shopperWithCard } from '../helpers/http-client.ts';
import type { RunningServer } from '../helpers/server.ts';

/*
 * Issue 29, the team tests: kill -9 between the second member's hold and the captures, restart
 * on the same data. Killed while Square authorizes the second hold (before it processed it, and
 * after it did but before the answer came back), or while the first capture is on its way: the
 * restarted store finishes it with both holds captured, one paid order each, the team filled,
 * no payment left in between; never one member charged and the other not.
 */

const MINUTE = 60_000;
const PAYMENTS_PATH = { method: 'POST', path: '/v2/payments' };
const COMPLETE_PATH = { method: 'POST', path: /\/complete$/ };

const advance = (server: RunningServer, advanceMs: number) => new Client(server).ok('POST', '/api/test/clock', { advanceMs });

const cases: { name: string; match: RequestMatch; phase: 'before' | 'after'; count: number }[] = [
  { name: 'before Square processed the second hold', match: PAYMENTS_PATH, phase: 'before', count: 2 },
  { name: 'after Square processed the second hold, before its answer', match: PAYMENTS_PATH, phase: 'after', count: 2 },
  { name: 'while the first capture is on its way', match: COMPLETE_PATH, phase: 'before', count: 1 },
];

describe('kill -9 between the second hold and the captures, restart: both captured, one order each', () => {
  for (const { name, match, phase, count } of cases) {
    test(`killed ${name}`, async () => {
      const fake = await startFakeSquare();
      const dataDir = mkdtempSync(join(tmpdir(), 'csa-team-crash-'));
      try {
        let server = await storeOnFakeSquare(dataDir, fake);
        const writable = openStoreFile(join(dataDir, 'data', 'store.db'));
        const productId = (writable.query('select id from products where buy_now_enabled = 1 order by id limit 1').get() as { id: number }).id;
        writable.query('update products set half_price_enabled = 1, quantity = 4 where id = ?').run(productId);
        writable.close();

        const alice = await shopperWithCard(server, 'alice1');
        const bob = await shopperWithCard(server, 'bob22');
        const { code } = await alice.ok('POST', `/api/products/${productId}/teams`);

        fake.setLatency(1500, { ...match, phase });
        const joining = bob.request('POST', `/api/teams/${code}/join`, undefined, { 'idempotency-key': 'bob-join' }).catch(() => undefined);
        if (phase === 'after') await fake.waitForProcessed(match, { count, timeoutMs: 20_000 });
        else await fake.waitForRequest(match, { count, timeoutMs: 20_000 });
        await kill9(server);
        await joining;
        // Square finishes what it had in hand, as it would in real time.
        await fake.waitForProcessed(match, { count, timeoutMs: 20_000 });
        fake.reset();

        server = await storeOnFakeSquare(dataDir, fake);
        // Past every lease and the lost hold's lookup window: the reconciler and the teams job run on each move.
        await advance(server, 10 * MINUTE);
        await advance(server, 10 * MINUTE);
        await kill9(server);

        const db = new Database(join(dataDir, 'data', 'store.db'), { readonly: true });
        const team = db.query('select status from teams').get() as { status: string };
        const orders = db
          .query("select o.user_id as userId, o.status from orders o join order_items i on i.order_id = o.id where i.purchase_type = 'team'")
          .all() as {
          userId: number;
          status: string;
        }[];
        const between = db
          .query("select count(*) as n from payments where status in ('charging', 'authorizing', 'capturing', 'voiding', 'refunding')")
          .get() as {
          n: number;
        };
        const stock = db.query('select quantity from products where id = ?').get(productId) as { quantity: number };
        db.close();
        expect(fake.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
        expect(team.status).toBe('filled');
        expect(orders.map((o) => o.status)).toEqual(['processing', 'processing']);
        expect(new Set(orders.map((o) => o.userId)).size).toBe(2);
        expect(between.n).toBe(0);
        expect(stock.quantity).toBe(2);
      } finally {
        fake.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 90_000);
  }
});
