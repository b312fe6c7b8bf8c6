import { describe, expect, test } from 'bun:test';
import { kill9, storeOnFakeSquare } from '../helpers/crash.ts';
import { Database } from 'bun:sqlite';
import { openStoreFile } from '../helpers/store-file.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/db/client.ts';
import { verifyDraw } from '../../src/domain/promotions/mystery-audit.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { startFakeSquare } from '../helpers/fake-square.ts';
import { Client } from '../helpers/http-client.ts';
import type { RunningServer } from '../helpers/server.ts';

/*
 * kill -9 while a mystery box is being charged (before Square processed the charge, and after it
 * did but before the answer came back), restart on the same data: one charge, one paid order,
 * one draw (the reconciler finishes the charge and never draws again), one unit taken, and the
 * draw still checks out.
 */

const MINUTE = 60_000;
/** The store's clock runs behind real time: the reconciler asks Square for payments since the row's time, and the fake dates them by the real clock. */
const START_BEFORE_MS = 3 * MINUTE;
const PAYMENTS_PATH = { method: 'POST', path: '/v2/payments' };

const setClock = (server: RunningServer, now: number) => new Client(server).ok('POST', '/api/test/clock', { now });

describe('kill -9 while a mystery box is charged, restart: one charge, one draw', () => {
  for (const phase of ['before', 'after'] as const) {
    test(`killed ${phase} Square processed the charge`, async () => {
      const fake = await startFakeSquare();
      const dataDir = mkdtempSync(join(tmpdir(), 'csa-box-crash-'));
      try {
        let server = await storeOnFakeSquare(dataDir, fake);
        const now = ((await new Client(server).ok('POST', '/api/test/clock', { advanceMs: 0 })).now as number) - START_BEFORE_MS;
        await setClock(server, now);
        const buyer = new Client(server);
        await buyer.ok('POST', '/api/register', { username: 'crashbox', password: 'secret-pass' });
        await buyer.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
        const before = openStoreFile(join(dataDir, 'data', 'store.db'));
        // The demo seeds were committed at start-up, by a clock this test then set back: commit them at its start.
        before.query('update mystery_seeds set committed_at = ? where used_at is null').run(now);
        const unitsBefore = (before.query('select sum(quantity) as n from products where mystery_box_enabled = 1').get() as { n: number }).n;
        before.close();

        const seen = fake.requests.filter((r) => r.method === 'POST' && r.path === PAYMENTS_PATH.path).length;
        fake.setLatency(1500, { ...PAYMENTS_PATH, phase });
        const buying = buyer.request('POST', '/api/mystery-boxes/sunglasses/orders', {}, { 'idempotency-key': crypto.randomUUID() }).catch(() => undefined);
        if (phase === 'after') await fake.waitForProcessed(PAYMENTS_PATH, { count: seen + 1, timeoutMs: 20_000 });
        else await fake.waitForRequest(PAYMENTS_PATH, { count: seen + 1, timeoutMs: 20_000 });
        await kill9(server);
        await buying;
        // Square finishes what it had in hand, as it would in real time.
        await fake.waitForProcessed(PAYMENTS_PATH, { count: seen + 1, timeoutMs: 20_000 });
        fake.reset();

        server = await storeOnFakeSquare(dataDir, fake);
        await setClock(server, now + 10 * MINUTE);
        await setClock(server, now + 30 * MINUTE);
        await kill9(server);

        const db = new Database(join(dataDir, 'data', 'store.db'), { readonly: true });
        const orders = db.query('select id, status from orders').all() as { id: number; status: string }[];
        const draws = (db.query('select count(*) as n from mystery_draws').get() as { n: number }).n;
        const between = (
          db.query("select count(*) as n from payments where status in ('charging', 'authorizing', 'capturing', 'voiding', 'refunding')").get() as { n: number }
        ).n;
        const unitsAfter = (db.query('select sum(quantity) as n from products where mystery_box_enabled = 1').get() as { n: number }).n;
        db.close();
        expect(fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
        expect(orders.map((o) => o.status)).toEqual(['processing']);
        expect(draws).toBe(1);
        expect(between).toBe(0);
        expect(unitsAfter).toBe(unitsBefore - 1);
        const store = openDatabase(join(dataDir, 'data', 'store.db'));
        expect(verifyDraw(store, orders[0]!.id).lines.filter((line) => line.startsWith('FAIL'))).toEqual([]);
        store.$client.close();
      } finally {
        fake.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 90_000);
  }
});
