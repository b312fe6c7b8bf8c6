import { and, eq, inArray, or } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { auctionMaximums, auctions, products } from '../../db/schema.ts';
import { auctionItemLabel, LIVE_STATUSES } from './auction-rows.ts';

/*
 * The auctions not over in which a shopper has bid (issue 34): an account with any of them is
 * not deleted, as eBay keeps an account with open bids or unpaid items (docs/decisions.md).
 * The leader or the winner owes the sale; any other bidder may still be offered it (second chance).
 */

export interface OpenBid {
  auctionId: number;
  label: string;
  /** Leads a running auction, or won one still being paid for. */
  leading: boolean;
}

export function openBidsOf(db: Queryable, userId: number): OpenBid[] {
  const bidOn = db.selectDistinct({ id: auctionMaximums.auctionId }).from(auctionMaximums).where(eq(auctionMaximums.userId, userId));
  return db
    .select({ auction: auctions, product: products })
    .from(auctions)
    .innerJoin(products, eq(products.id, auctions.productId))
    .where(and(inArray(auctions.status, LIVE_STATUSES), or(inArray(auctions.id, bidOn), eq(auctions.winnerId, userId))))
    .orderBy(auctions.endsAt)
    .all()
    .map(({ auction, product }) => ({
      auctionId: auction.id,
      label: auctionItemLabel(db, product, auction.variantId),
      leading: auction.status === 'running' || auction.status === 'scheduled' ? auction.leaderId === userId : auction.winnerId === userId,
    }));
}
