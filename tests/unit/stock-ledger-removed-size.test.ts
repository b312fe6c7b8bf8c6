import { beforeEach, describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { type Db, openMigratedDatabase } from '../../src/db/client.ts';
import { products, productVariants, stockReservations } from '../../src/db/schema.ts';
import {
  attachOrder,
  owners,
  release,
  releaseOrder,
  removeVariant,
  reserve,
  returnOrder,
  sellOrder,
  setAvailable,
  stockNewVariant,
} from '../../src/domain/inventory/stock.ts';
import { stockOf, variantStockOf } from '../../src/domain/inventory/stock-counts.ts';
import { variantsOf } from '../../src/domain/inventory/variants.ts';
import { addSizes, ledgerBySize, sizedTee } from '../helpers/variants.ts';

/*
 * Issue 38, a size removed (docs/decisions.md, "Ledger by size"): removeVariant refuses while
 * any of the size's units is held or sold. Once it goes, its
 * released and returned reservations stay as history naming no variant (ON DELETE SET NULL);
 * they are finished, so a second release, sale or return of their order moves nothing and
 * throws nothing, and no unit of another size moves with them.
 */

const NOW = 1_800_000_000_000;
let db: Db;
let tee: ReturnType<typeof sizedTee>;

beforeEach(async () => {
  db = await openMigratedDatabase();
  tee = sizedTee(
    db,
    [
      { size: 'S', quantity: 3 },
      { size: 'M', quantity: 2 },
      { size: 'L', quantity: 1 },
    ],
    2200,
    NOW,
  );
});

/** An order for one S and one M, its units held (the claim of a card order). */
function orderSAndM(orderId: number): void {
  db.transaction((tx) => {
    for (const size of ['S', 'M'])
      expect(
        reserve(tx, { productId: tee.id, variantId: tee.variant[size]!, quantity: 1, reason: 'order_line', owner: owners.order(orderId), orderId, now: NOW }),
      ).toBe(true);
  });
}

const remove = (size: string) => db.transaction((tx) => removeVariant(tx, tee.variant[size]!));
const listed = () => db.select({ quantity: products.quantity }).from(products).where(eq(products.id, tee.id)).get()!.quantity;

/** The product's ledger is its sizes' ledgers added up, and its listed count their available units. */
function expectSumsHold(): void {
  const sizes = Object.values(ledgerBySize(db, tee.id));
  const sum = (key: 'stocked' | 'available' | 'held' | 'sold') => sizes.reduce((n, ledger) => n + ledger[key], 0);
  expect(stockOf(db, tee.id)).toEqual({ stocked: sum('stocked'), available: sum('available'), held: sum('held'), sold: sum('sold') });
  expect(listed()).toBe(sum('available'));
}

describe('removing a size', () => {
  test('refused while one of its units is held, then while it is sold; nothing written', () => {
    orderSAndM(1);
    const before = ledgerBySize(db, tee.id);
    expect(remove('M')).toBe(false);
    sellOrder(db, 1, NOW);
    expect(remove('M')).toBe(false);
    expect(ledgerBySize(db, tee.id)).toEqual({ ...before, S: { ...before.S!, held: 0, sold: 1 }, M: { ...before.M!, held: 0, sold: 1 } });
    expectSumsHold();
  });

  test("a prize's unit kept out by a refund stays sold: the size cannot go", () => {
    expect(reserve(db, { productId: tee.id, variantId: tee.variant.M!, quantity: 1, reason: 'prize', owner: owners.game(7), now: NOW })).toBe(true);
    attachOrder(db, owners.game(7), 1, NOW);
    expect(sellOrder(db, 1, NOW)).toBe(1);
    expect(returnOrder(db, 1, NOW, ['prize'])).toBe(0);
    expect(remove('M')).toBe(false);
  });

  test("the last size goes with its replacement added in the same transaction (the form's remove-and-add); an unknown id is refused", () => {
    expect(remove('S')).toBe(true);
    expect(remove('M')).toBe(true);
    const xl = db.transaction((tx) => {
      expect(removeVariant(tx, tee.variant.L!)).toBe(true);
      const id = tx.insert(productVariants).values({ productId: tee.id, sku: 'TEE-XL', size: 'XL', createdAt: NOW }).returning().get().id;
      stockNewVariant(tx, id, 4);
      return id;
    });
    expect(variantsOf(db, tee.id).map((v) => [v.id, v.size])).toEqual([[xl, 'XL']]);
    expect(db.transaction((tx) => removeVariant(tx, 999_999))).toBe(false);
    expect(listed()).toBe(4);
    expectSumsHold();
  });

  test('its available units leave the product with it; the other sizes keep theirs', () => {
    expect(remove('M')).toBe(true);
    expect(variantStockOf(db, tee.variant.M!)).toBeUndefined();
    expect(ledgerBySize(db, tee.id)).toEqual({ S: { stocked: 3, available: 3, held: 0, sold: 0 }, L: { stocked: 1, available: 1, held: 0, sold: 0 } });
    expect(listed()).toBe(4);
    expect(() => db.transaction((tx) => setAvailable(tx, tee.variant.M!, { quantity: 5, seen: 2, now: NOW }))).toThrow('Size not found');
    expectSumsHold();
  });
});

describe('a size removed after its order was refunded or failed', () => {
  test('refunded, then M removed: the returned reservation names no size; a second refund, sale or release moves nothing and does not throw', () => {
    orderSAndM(1);
    sellOrder(db, 1, NOW);
    expect(returnOrder(db, 1, NOW)).toBe(2);
    expect(remove('M')).toBe(true);
    const history = db.select().from(stockReservations).where(eq(stockReservations.orderId, 1)).all();
    expect(history.map((r) => [r.variantId, r.state])).toEqual([
      [tee.variant.S!, 'returned'],
      [null, 'returned'],
    ]);
    const after = ledgerBySize(db, tee.id);
    expect(returnOrder(db, 1, NOW)).toBe(0);
    expect(sellOrder(db, 1, NOW)).toBe(0);
    expect(releaseOrder(db, 1, NOW)).toBe(0);
    expect(ledgerBySize(db, tee.id)).toEqual(after);
    expect(after).toEqual({ S: { stocked: 3, available: 3, held: 0, sold: 0 }, L: { stocked: 1, available: 1, held: 0, sold: 0 } });
    expectSumsHold();
  });

  test('card failed (units released), then M removed: a late release or payment of that order moves nothing', () => {
    orderSAndM(2);
    expect(releaseOrder(db, 2, NOW)).toBe(2);
    expect(remove('M')).toBe(true);
    const after = ledgerBySize(db, tee.id);
    expect(release(db, owners.order(2), NOW)).toBe(0);
    expect(sellOrder(db, 2, NOW)).toBe(0);
    expect(returnOrder(db, 2, NOW)).toBe(0);
    expect(ledgerBySize(db, tee.id)).toEqual(after);
    expectSumsHold();
  });

  test('a size added again after removal is a new variant: the old history does not count against it', () => {
    orderSAndM(3);
    sellOrder(db, 3, NOW);
    returnOrder(db, 3, NOW);
    expect(remove('M')).toBe(true);
    const [again] = addSizes(db, tee.id, [{ size: 'M', quantity: 2 }], NOW);
    expect(again).not.toBe(tee.variant.M);
    expect(variantStockOf(db, again!)).toEqual({ stocked: 2, available: 2, held: 0, sold: 0 });
    expect(returnOrder(db, 3, NOW)).toBe(0);
    expect(variantStockOf(db, again!)).toEqual({ stocked: 2, available: 2, held: 0, sold: 0 });
    expectSumsHold();
  });
});
