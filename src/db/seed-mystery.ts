import type { Queryable } from './client.ts';
import { mysteryBoxes, type ProductType } from './schema.ts';
import { commitSeed } from '../domain/promotions/mystery-boxes.ts';

/*
 * The demo catalogue's mystery boxes (issue 29): a few products of two types go in their type's
 * box, each box priced at most its cheapest item, with its first seed committed, so a newcomer
 * finds /mystery open.
 */

/** The SKUs in a box. */
export const mysteryDemoModels: ReadonlySet<string> = new Set(['TF11-OGMGLP', 'B202-2M', 'PO0649-24/31', 'VN000D3HY28', 'CW2288-111', '1127895-BBLC']);

/** Box prices in cents: under the cheapest item of each (Tom Ford $209, Vans $70). */
const demoBoxPrices: Partial<Record<ProductType, number>> = { sunglasses: 19_900, shoe: 6_500 };

export function seedMysteryBoxes(tx: Queryable, now: number): void {
  for (const [type, priceCents] of Object.entries(demoBoxPrices) as [ProductType, number][]) {
    tx.insert(mysteryBoxes).values({ productType: type, priceCents, updatedAt: now }).run();
    commitSeed(tx, type, now);
  }
}
