import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { join } from 'node:path';
import { type Db, openDatabase } from '../../src/db/client.ts';
import { products } from '../../src/db/schema.ts';
import { type StockCount, stockOf, variantStockOf } from '../../src/domain/inventory/stock-counts.ts';
import { variantsOf } from '../../src/domain/inventory/variants.ts';
import { buyNowBody, COMPLETE_PROFILE } from '../helpers/actors.ts';
import { Client } from '../helpers/http-client.ts';
import { type RunningServer, startServer } from '../helpers/server.ts';
import { ledgerBySize, paidUnitsOf, sizedTee } from '../helpers/variants.ts';

/*
 * Issue 38: stock belongs to a size, and two real server processes on one DATA_DIR (the
 * operator's zero-downtime set-up, docs/operations.md) sell it. Shoppers spread over both buy
 * the last unit of one size at once, then different sizes of one product at once: every unit is
 * sold once, a size's sold units are its own paid lines, and the sizes nobody asked for are
 * untouched. (One process, many interleavings: tests/api/stock-ledger-flows.property.test.ts.)
 */

const env = { TRUST_PROXY: 'loopback', RATE_LIMIT: 'off' };
const PRICE_CENTS = 2200;
let a: RunningServer;
let b: RunningServer;
let db: Db;
let shoppers = 0;

beforeAll(async () => {
  a = await startServer({ env });
  b = await startServer({ env, dataDir: a.dataDir });
  db = openDatabase(join(a.dataDir, 'data', 'store.db'));
}, 60_000);

afterAll(async () => {
  db?.$client.close();
  await b?.stop();
  await a?.stop();
});

const tee = (sizes: { size: string; quantity: number }[]) => sizedTee(db, sizes, PRICE_CENTS);

/** A signed-up shopper with a card on file, on server A or B, from an address of its own. */
async function shopperOn(server: RunningServer): Promise<Client> {
  const n = ++shoppers;
  const client = new Client(server, { 'x-forwarded-for': `10.38.${n >> 8}.${n & 255}` });
  await client.ok('POST', '/api/register', { username: `size${n}-${crypto.randomUUID().slice(0, 6)}`, password: 'secret-pass' });
  await client.ok('PATCH', '/api/user/profile', { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', token: 'cnon:card-nonce-ok' } });
  return client;
}

/** Each shopper buys one unit of their size at once; answers the statuses in the same order. */
async function buyAtOnce(productId: number, sizes: number[]): Promise<number[]> {
  const clients = await Promise.all(sizes.map((_, i) => shopperOn(i % 2 ? b : a)));
  const answers = await Promise.all(
    clients.map((client, i) => client.request('POST', '/api/orders', { ...buyNowBody(productId, PRICE_CENTS), variantId: sizes[i] })),
  );
  return answers.map((answer) => answer.status);
}

const paidUnits = (variantId: number) => paidUnitsOf(db, variantId);

function checkSums(productId: number): void {
  const sum: StockCount = { stocked: 0, available: 0, held: 0, sold: 0 };
  for (const variant of variantsOf(db, productId)) {
    const ledger = variantStockOf(db, variant.id)!;
    expect(ledger.stocked).toBe(ledger.available + ledger.held + ledger.sold);
    expect(ledger.sold).toBe(paidUnits(variant.id));
    for (const key of Object.keys(sum) as (keyof StockCount)[]) sum[key] += ledger[key];
  }
  expect(stockOf(db, productId)).toEqual(sum);
  expect(db.select().from(products).where(eq(products.id, productId)).get()!.quantity).toBe(sum.available);
}

describe('two processes on one database, selling by size', () => {
  test('the last M, wanted by 8 shoppers over both processes at once: sold once; S, L and XL untouched', async () => {
    const product = tee([
      { size: 'S', quantity: 3 },
      { size: 'M', quantity: 1 },
      { size: 'L', quantity: 2 },
      { size: 'XL', quantity: 1 },
    ]);
    const before = ledgerBySize(db, product.id);

    const statuses = await buyAtOnce(product.id, Array(8).fill(product.variant.M));
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    // The others are told it is gone (409), never a crash.
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    expect(variantStockOf(db, product.variant.M!)).toEqual({ stocked: 1, available: 0, held: 0, sold: 1 });
    expect(ledgerBySize(db, product.id)).toEqual({ ...before, M: { stocked: 1, available: 0, held: 0, sold: 1 } });
    checkSums(product.id);
  }, 60_000);

  test('different sizes of one product bought at once over both processes: each size sells exactly what it had', async () => {
    const stock = { S: 3, M: 1, L: 2, XL: 0 };
    const product = tee(Object.entries(stock).map(([size, quantity]) => ({ size, quantity })));
    // 4 shoppers for each size, interleaved: S S.. M.. L.. XL.., dealt round the two processes.
    const wanted = Array.from({ length: 16 }, (_, i) => (['S', 'M', 'L', 'XL'] as const)[i % 4]!);
    const statuses = await buyAtOnce(
      product.id,
      wanted.map((size) => product.variant[size]!),
    );
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    for (const [size, had] of Object.entries(stock)) {
      const bought = statuses.filter((s, i) => s === 201 && wanted[i] === size).length;
      expect({ size, bought }).toEqual({ size, bought: had });
      expect(variantStockOf(db, product.variant[size]!)).toEqual({ stocked: had, available: 0, held: 0, sold: had });
    }
    checkSums(product.id);
  }, 60_000);
});
