import { describe, expect, test } from 'bun:test';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { owners, reserve, setAvailable, stockNewVariant } from '../../src/domain/inventory/stock.ts';
import { ledgerBySize, sizedTee } from '../helpers/variants.ts';

/*
 * Counts that are not a number of units, handed to the ledger directly (the forms refuse them
 * first, but the ledger is the last line): a negative or fractional hold used to put units ON the
 * shelf with a "held" row of minus units, a negative new size's count made its available count
 * negative. Each is refused now, nothing written.
 */

const NOW = 1_800_000_000_000;

async function tee() {
  const db = await openMigratedDatabase();
  const product = sizedTee(
    db,
    [
      { size: 'S', quantity: 2 },
      { size: 'M', quantity: 1 },
    ],
    2200,
    NOW,
  );
  return { db, product, before: ledgerBySize(db, product.id) };
}

function domainError(run: () => unknown): DomainError {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('the ledger refuses counts that are not units', () => {
  test('a hold of 0, -2 or 1.5 units: thrown, nothing held, nothing put on the shelf', async () => {
    const { db, product, before } = await tee();
    for (const quantity of [0, -2, 1.5])
      expect(() =>
        db.transaction((tx) =>
          reserve(tx, { productId: product.id, variantId: product.variant.M!, quantity, reason: 'order_line', owner: owners.order(1), orderId: 1, now: NOW }),
        ),
      ).toThrow('is not a number of units to hold');
    expect(ledgerBySize(db, product.id)).toEqual(before);
  });

  test("the admin's count for a size, negative or fractional: 400 under the size's field, nothing changed", async () => {
    const { db, product, before } = await tee();
    const field = `variants.${product.variant.M}.quantity`;
    const negative = domainError(() => db.transaction((tx) => setAvailable(tx, product.variant.M!, { quantity: -1, seen: 1, now: NOW, field })));
    expect([negative.status, negative.message, negative.fields]).toEqual([400, 'Quantity cannot be negative', { [field]: 'Quantity cannot be negative' }]);
    const fraction = domainError(() => db.transaction((tx) => setAvailable(tx, product.variant.M!, { quantity: 2.5, seen: 1, now: NOW })));
    expect([fraction.status, fraction.fields]).toEqual([400, { quantity: 'Quantity must be a whole number' }]);
    expect(ledgerBySize(db, product.id)).toEqual(before);
  });

  test("a new size's first count, negative: 400, nothing stocked", async () => {
    const { db, product, before } = await tee();
    const refused = domainError(() => db.transaction((tx) => stockNewVariant(tx, product.variant.M!, -3, 'variants.new.quantity')));
    expect([refused.status, refused.fields]).toEqual([400, { 'variants.new.quantity': 'Quantity cannot be negative' }]);
    expect(ledgerBySize(db, product.id)).toEqual(before);
  });
});
