import { createHash, createHmac, randomBytes } from 'node:crypto';

/*
 * The mystery box's draw (docs/decisions.md "Mystery boxes"), pure and exact so anyone can redo
 * it with the revealed seed and the stock the order page lists:
 *
 * 1. The stock: the units the purchase draws from as [variantId, units], sorted by variant id
 *    (a tee or shoe box: each flagged product's variant of the size bought; other boxes: every
 *    variant of their flagged products); N = the sum of the units. Draws from before issue 38
 *    listed [productId, units]: the same steps over product ids (mystery-audit.ts reads both).
 * 2. x = HMAC-SHA256(key = the seed's 32 raw bytes, message = the order id in decimal), read as a
 *    256-bit big-endian unsigned integer.
 * 3. Exactly uniform ticket in [0, N): x mod N when x < 2^256 - (2^256 mod N); otherwise (odds
 *    below N / 2^256, i.e. never in practice) roll again with message '{orderId}:1', ':2', ...
 * 4. The ticket walks the stock in order: the first line whose running total of units exceeds
 *    it is drawn. So each line's chance is exactly its units / N, the odds /mystery shows.
 *
 * Changing a step changes past draws: tests/unit/mystery-draw.test.ts pins a known answer.
 */

/** [id, units] lines: variant ids (product ids in draws from before issue 38). */
export type BoxStock = [id: number, units: number][];

const SEED_BYTES = 32;
const SPACE = 1n << 256n;

/** A fresh secret seed (hex) and its public commitment: SHA-256 of the seed's raw bytes. */
export function newBoxSeed(): { seed: string; seedHash: string } {
  const seed = randomBytes(SEED_BYTES).toString('hex');
  return { seed, seedHash: boxSeedHash(seed) };
}

export function boxSeedHash(seed: string): string {
  return createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex');
}

/** The stock in draw order, empty lines left out. */
export function normalStock(stock: BoxStock): BoxStock {
  return stock.filter(([, units]) => units > 0).sort((a, b) => a[0] - b[0]);
}

/** The ticket, uniform over [0, total) given a secret seed; `total` must be at least 1. */
export function drawTicket(seed: string, orderId: number, total: number): bigint {
  return drawRoll(seed, orderId, total).ticket;
}

/** The roll that gave the ticket (steps 2 and 3): its HMAC message, the HMAC in hex, the ticket; the order page shows them to redo by hand. */
export function drawRoll(seed: string, orderId: number, total: number): { message: string; hmac: string; ticket: bigint } {
  const n = BigInt(total);
  const limit = SPACE - (SPACE % n);
  const key = Buffer.from(seed, 'hex');
  for (let roll = 0; ; roll++) {
    const message = roll === 0 ? String(orderId) : `${orderId}:${roll}`;
    const hmac = createHmac('sha256', key).update(message).digest('hex');
    const x = BigInt(`0x${hmac}`);
    if (x < limit) return { message, hmac, ticket: x % n };
  }
}

/** The product the ticket falls on. */
export function productAt(stock: BoxStock, ticket: bigint): number {
  let upTo = 0n;
  for (const [productId, units] of stock) {
    upTo += BigInt(units);
    if (ticket < upTo) return productId;
  }
  throw new Error('The ticket is beyond the stock.');
}

/** The draw: which product of `stock` the seed gives this order; undefined when nothing is in stock. */
export function drawProduct(seed: string, orderId: number, stock: BoxStock): number | undefined {
  const lines = normalStock(stock);
  const total = lines.reduce((sum, [, units]) => sum + units, 0);
  if (total === 0) return undefined;
  return productAt(lines, drawTicket(seed, orderId, total));
}

/** Each product's exact chance: units / total (the published odds are the draw's own distribution). */
export function oddsOf(stock: BoxStock): { productId: number; units: number; chance: number }[] {
  const lines = normalStock(stock);
  const total = lines.reduce((sum, [, units]) => sum + units, 0);
  return lines.map(([productId, units]) => ({ productId, units, chance: units / total }));
}
