import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDatabase } from '../../src/db/client.ts';
import { buyNowBody, COMPLETE_PROFILE } from '../helpers/actors.ts';
import { kill9, storeOnFakeSquare } from '../helpers/crash.ts';
import { type FakeSquare, startFakeSquare } from '../helpers/fake-square.ts';
import { Client } from '../helpers/http-client.ts';
import type { RunningServer } from '../helpers/server.ts';
import { ledgerBySize, paidUnitsOf, sizedTee } from '../helpers/variants.ts';

/*
 * Issue 38: kill -9 of the real server in the middle of a buy now of size M (after the claim
 * held the M, around its charge at Square), restart on the same data, let the reconciler run:
 * the M is sold once if Square took the money and back on the shelf if it did not, nothing is
 * left held, and S and L never move. (Every other money step: tests/e2e/crash-safety.test.ts.)
 */

const CHARGE = { method: 'POST', path: '/v2/payments' } as const;
const MINUTE = 60_000;
const SIZES = [
  { size: 'S', quantity: 2 },
  { size: 'M', quantity: 2 },
  { size: 'L', quantity: 1 },
];

// Each scenario has its own data and its own fake Square (as crash-safety.test.ts): the fake stamps
// payments with the wall clock, and the reconciler looks them up from the time the store's
// manual clock gave the order, so that clock is moved only after the kill.
let fake: FakeSquare;
let server: RunningServer;
let db: Db;
let shoppers = 0;

async function shopper(): Promise<Client> {
  const client = new Client(server);
  await client.ok('POST', '/api/register', { username: `sized-crash${++shoppers}-${crypto.randomUUID().slice(0, 6)}`, password: 'secret-pass' });
  await client.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
  return client;
}

const paidMs = (variantId: number) => paidUnitsOf(db, variantId);

type Scenario = { name: string; when: 'before' | 'after' | 'lost'; paid: boolean };
const scenarios: Scenario[] = [
  { name: 'killed after Square took the charge', when: 'after', paid: true },
  { name: 'killed while the charge was at Square, before it was taken', when: 'before', paid: true },
  { name: 'killed between the claim and a charge that never reached Square', when: 'lost', paid: false },
];

describe('kill -9 mid buy-now of size M, restart, reconcile', () => {
  for (const scenario of scenarios) {
    test(`${scenario.name}: M ${scenario.paid ? 'sold once' : 'back on the shelf'}, nothing held, S and L untouched`, async () => {
      fake = await startFakeSquare();
      const dataDir = mkdtempSync(join(tmpdir(), 'csa-sizes-crash-'));
      server = await storeOnFakeSquare(dataDir, fake);
      db = openDatabase(join(dataDir, 'data', 'store.db'));
      try {
        const startedAt = (await new Client(server).ok('POST', '/api/test/clock', { advanceMs: 0 })).now as number;
        const tee = sizedTee(db, SIZES);
        const before = ledgerBySize(db, tee.id);
        const client = await shopper();
        if (scenario.when === 'lost') fake.failNext({ hang: true }, CHARGE);
        else fake.setLatency(1500, { ...CHARGE, phase: scenario.when });
        const seen = fake.requests.filter((r) => r.method === CHARGE.method && r.path === CHARGE.path).length;
        client.request('POST', '/api/orders', { ...buyNowBody(tee.id, tee.priceCents), variantId: tee.variant.M }).catch(() => undefined);
        if (scenario.when === 'after') await fake.waitForProcessed(CHARGE, { count: seen + 1, timeoutMs: 20_000 });
        else await fake.waitForRequest(CHARGE, { count: seen + 1, timeoutMs: 20_000 });
        // The claim is made: the M is held for the order the charge pays.
        expect(ledgerBySize(db, tee.id).M).toMatchObject({ held: 1 });
        await kill9(server);
        if (scenario.when === 'before') await fake.waitForProcessed(CHARGE, { count: seen + 1, timeoutMs: 20_000 });
        fake.clearLatency();

        server = await storeOnFakeSquare(dataDir, fake);
        // Past every lease and the "never taken" window, twice, so backoffs come due too.
        for (const minutes of [10, 30]) await new Client(server).ok('POST', '/api/test/clock', { now: startedAt + minutes * MINUTE });

        const sold = scenario.paid ? 1 : 0;
        expect(paidMs(tee.variant.M!)).toBe(sold);
        expect(ledgerBySize(db, tee.id)).toEqual({ ...before, M: { stocked: 2, available: 2 - sold, held: 0, sold } });
        expect(fake.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(sold);
      } finally {
        db.$client.close();
        await kill9(server);
        fake.stop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 60_000);
  }
});
