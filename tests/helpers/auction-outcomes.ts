import { eq } from 'drizzle-orm';
import { products, userProfiles } from '../../src/db/schema.ts';
import { closeDueAuctions } from '../../src/domain/auctions/close.ts';
import type { AuctionStore } from './auctions.ts';

/*
 * Auctions that have run their course, for the pages' tests: another bid-enabled product, a
 * bidder whose card on file declines (the test gateway reads the outcome from the card id), and
 * the close job as the jobs lease holder runs it.
 */

export function auctionProduct(ctx: AuctionStore, name: string) {
  return ctx.db
    .insert(products)
    .values({ brand: 'Atelier', model: `AT-${name}`, name, quantity: 1, priceCents: 10_000, bidEnabled: true, createdAt: ctx.clock.now() })
    .returning()
    .get();
}

/** Every charge on this user's card on file is declined from now on (or approved again). */
export function setCardOutcome(ctx: AuctionStore, userId: number, outcome: 'declined' | 'ok'): void {
  ctx.db
    .update(userProfiles)
    .set({ gatewayCardId: `ccof:test-user${userId}.${outcome}.VISA.1111.12.2030` })
    .where(eq(userProfiles.userId, userId))
    .run();
}

export const closeAuctions = (ctx: AuctionStore) => closeDueAuctions({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway });
