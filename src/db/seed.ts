import { count } from 'drizzle-orm';
import type { Clock } from '../domain/clock.ts';
import { dollarsToCents } from '../shared/money.ts';
import type { Db } from './client.ts';
import { influencers, products } from './schema.ts';
import { seedInfluencers } from './seed-influencers.ts';
import { seedProducts } from './seed-products.ts';
import { seedVariants } from './seed-variants.ts';
import { mysteryDemoModels, seedMysteryBoxes } from './seed-mystery.ts';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Fills an empty store: the influencers the game needs always, the demo catalogue only when
 * asked (development, or SEED_DEMO=1: a production store starts with no made-up products).
 */
export function seedIfEmpty(db: Db, clock: Clock, options: { demoProducts?: boolean } = {}): { seeded: boolean } {
  const demoProducts = options.demoProducts ?? true;
  const now = clock.now();
  // The check and the inserts share one IMMEDIATE transaction: processes started together on an
  // empty folder seed it once.
  return db.transaction((tx) => {
    const existing = tx.select({ n: count() }).from(products).get()?.n ?? 0;
    const existingInfluencers = tx.select({ n: count() }).from(influencers).get()?.n ?? 0;
    if (existing > 0 || existingInfluencers > 0) return { seeded: false };
    for (const p of demoProducts ? seedProducts : []) {
      const { id } = tx
        .insert(products)
        .values({
          productType: p.productType,
          brand: p.brand,
          name: p.name ?? null,
          model: p.model,
          size: p.size,
          quantity: p.quantity,
          priceCents: dollarsToCents(p.price),
          imageUrl: p.imageUrl,
          description: p.description,
          playEnabled: p.playEnabled,
          bidEnabled: p.bidEnabled ?? false,
          halfPriceEnabled: p.halfPriceEnabled ?? false,
          donateEnabled: p.donateEnabled ?? false,
          mysteryBoxEnabled: mysteryDemoModels.has(p.model),
          buyOnePlayFreeEnabled: p.buyOnePlayFreeEnabled ?? false,
          createdAt: now - p.createdDaysAgo * DAY,
        })
        .returning({ id: products.id })
        .get();
      seedVariants(tx, id, p.model, now);
    }
    if (demoProducts) seedMysteryBoxes(tx, now);
    for (const i of seedInfluencers) {
      tx.insert(influencers)
        .values({
          name: i.name,
          handle: i.handle,
          avatar: i.avatar,
          platforms: i.platforms as Record<string, string>,
          engagementRate: i.engagementRate,
          category: i.category,
          createdAt: now,
        })
        .run();
    }
    return { seeded: true };
  });
}
