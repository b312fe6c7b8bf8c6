import { describe, expect, test } from 'bun:test';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { type BoxStock, boxSeedHash, drawProduct, drawTicket, newBoxSeed, oddsOf, productAt } from '../../src/domain/promotions/mystery-draw.ts';

/*
 * The mystery box's draw (domain/promotions/mystery-draw.ts): the odds /mystery publishes are the
 * draw's own distribution, it never picks what is not in stock, and its steps are pinned.
 */

const SEED = `${'00'.repeat(31)}2a`;
const STOCK: BoxStock = [
  [3, 1],
  [5, 2],
  [9, 3],
  [12, 4],
];

/** A fixed-seed generator (mulberry32): random-looking order ids, the same every run. */
function orderIds(count: number, seed = 2026): number[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const ids = new Set<number>();
  while (ids.size < count) ids.add(1 + Math.floor(next() * 1_000_000_000));
  return [...ids];
}

describe('the published odds are the draw distribution', () => {
  test('each product is exactly units / total, and the tickets cover each product exactly units times', () => {
    expect(oddsOf(STOCK).map((line) => line.chance)).toEqual([0.1, 0.2, 0.3, 0.4]);
    const counts = new Map<number, number>();
    for (let ticket = 0n; ticket < 10n; ticket++) counts.set(productAt(STOCK, ticket), (counts.get(productAt(STOCK, ticket)) ?? 0) + 1);
    expect([...counts]).toEqual(STOCK);
  });

  test('10,000 draws (random order ids, one fixed seed) fit the published odds: chi-square below the 99.9% critical value', () => {
    const ids = orderIds(10_000);
    const seen = new Map<number, number>(STOCK.map(([id]) => [id, 0]));
    for (const id of ids) {
      const drawn = drawProduct(SEED, id, STOCK)!;
      seen.set(drawn, seen.get(drawn)! + 1);
    }
    const chiSquare = oddsOf(STOCK).reduce((sum, { productId, chance }) => {
      const expected = chance * ids.length;
      return sum + (seen.get(productId)! - expected) ** 2 / expected;
    }, 0);
    // 3 degrees of freedom: P(chi-square > 16.266) = 0.001 for a draw that follows the odds.
    expect(chiSquare).toBeLessThan(16.266);
    // And each item on its own within 4 standard deviations of its binomial mean.
    for (const { productId, chance } of oddsOf(STOCK)) {
      const sd = Math.sqrt(ids.length * chance * (1 - chance));
      expect(Math.abs(seen.get(productId)! - chance * ids.length)).toBeLessThan(4 * sd);
    }
  });
});

describe('the draw', () => {
  test('never picks a product with no units, whatever the seed, order and stock', () => {
    const stock = fc.array(fc.tuple(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 50 })), { minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.integer({ min: 1, max: 2 ** 40 }), stock, (bytes, orderId, raw) => {
        const lines = [...new Map(raw).entries()] as BoxStock;
        const drawn = drawProduct(Buffer.from(bytes).toString('hex'), orderId, lines);
        const inStock = lines.filter(([, units]) => units > 0).map(([id]) => id);
        if (inStock.length === 0) return drawn === undefined;
        return drawn !== undefined && inStock.includes(drawn);
      }),
      { numRuns: 500 },
    );
  });

  test('does not depend on the order the stock is listed in', () => {
    const shuffled: BoxStock = [STOCK[2]!, STOCK[0]!, STOCK[3]!, STOCK[1]!];
    for (const id of orderIds(50)) expect(drawProduct(SEED, id, shuffled)).toBe(drawProduct(SEED, id, STOCK));
  });

  test('known answers: the steps of docs/decisions.md, pinned', () => {
    const x = BigInt(`0x${createHmac('sha256', Buffer.from(SEED, 'hex')).update('42').digest('hex')}`);
    expect(drawTicket(SEED, 42, 10)).toBe(x % 10n);
    expect([1, 2, 3, 4, 5, 42].map((id) => drawProduct(SEED, id, STOCK))).toEqual([5, 12, 3, 12, 9, 5]);
  });

  test("a seed's commitment is the SHA-256 of its raw bytes", () => {
    const { seed, seedHash } = newBoxSeed();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    expect(seedHash).toBe(new Bun.CryptoHasher('sha256').update(Buffer.from(seed, 'hex')).digest('hex'));
    expect(boxSeedHash(seed)).toBe(seedHash);
  });
});
