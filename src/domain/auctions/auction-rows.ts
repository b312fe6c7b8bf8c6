import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { type Auction, auctionMaximums, auctions, bids, LIVE_STATUSES, OPEN_STATUSES, products, productVariants } from '../../db/schema.ts';
import { productLabel } from '../catalog/catalog.ts';
import { owners, release } from '../inventory/stock.ts';
import { sizeLabelFor, sizeLabelOf, variantsByProduct } from '../inventory/variants.ts';
import { type AuctionRules, type Maximum, type Standing, standingFrom, standingOf } from './proxy.ts';

/*
 * The auction rows every auction file reads: the open auction of a product, its maximums in
 * acceptance order, its bidders, and the product's unit held back while it runs.
 */

export { LIVE_STATUSES, OPEN_STATUSES };

export function openAuctionOf(db: Queryable, productId: number): Auction | undefined {
  return openAuctionQuery(db).get({ productId });
}

/** The product's auction not over yet (scheduled, running, or waiting for its winner's payment). */
export function liveAuctionOf(db: Queryable, productId: number): Auction | undefined {
  return liveAuctionQuery(db).get({ productId });
}

/** The auction a product's page shows: the one not over, else the latest. */
export function currentAuctionOf(db: Queryable, productId: number): Auction | undefined {
  return liveAuctionOf(db, productId) ?? latestAuctionQuery(db).get({ productId });
}

/* Every product page and every bid asks: built once (db/prepared.ts). */
const openAuctionQuery = preparedOnce((db) =>
  db
    .select()
    .from(auctions)
    .where(and(eq(auctions.productId, sql.placeholder('productId')), inArray(auctions.status, OPEN_STATUSES)))
    .prepare(),
);
const liveAuctionQuery = preparedOnce((db) =>
  db
    .select()
    .from(auctions)
    .where(and(eq(auctions.productId, sql.placeholder('productId')), inArray(auctions.status, LIVE_STATUSES)))
    .prepare(),
);
const latestAuctionQuery = preparedOnce((db) =>
  db
    .select()
    .from(auctions)
    .where(eq(auctions.productId, sql.placeholder('productId')))
    .orderBy(desc(auctions.id))
    .limit(1)
    .prepare(),
);

export function rulesOf(auction: Auction): AuctionRules {
  return { startingBidCents: auction.startingBidCents, incrementCents: auction.incrementCents, reserveCents: auction.reserveCents };
}

/**
 * Where the auction stands before the next bid, from its own row: O(1) however many bids it has.
 * A row that does not keep its leader's maximum (bid on before the column existed, or its leader's
 * account deleted with their maximums) is rebuilt once by replaying the maximums.
 */
export function standingNow(db: Queryable, auction: Auction): Standing {
  const rules = rulesOf(auction);
  if (auction.bidCount > 0 && (auction.leaderId === null || auction.leaderMaxCents === null)) return standingOf(rules, maximumsOf(db, auction.id));
  return standingFrom(rules, { priceCents: auction.currentPriceCents, leaderId: auction.leaderId, leaderMaxCents: auction.leaderMaxCents });
}

/** Every accepted maximum, in the order the database accepted them (ids), which the proxy rule needs. */
export function maximumsOf(db: Queryable, auctionId: number): Maximum[] {
  return db
    .select({ bidderId: auctionMaximums.userId, maxCents: auctionMaximums.maxCents, at: auctionMaximums.createdAt })
    .from(auctionMaximums)
    .where(eq(auctionMaximums.auctionId, auctionId))
    .orderBy(asc(auctionMaximums.id))
    .all();
}

/** Everyone who bid, once each. */
export function biddersOf(db: Queryable, auctionId: number): number[] {
  return db
    .selectDistinct({ userId: auctionMaximums.userId })
    .from(auctionMaximums)
    .where(eq(auctionMaximums.auctionId, auctionId))
    .all()
    .map((row) => row.userId);
}

/** The newest `limit` rows of the public history (bids_auction_idx), never the whole of a long auction's. */
export function bidRowsOf(db: Queryable, auctionId: number, limit = 50) {
  return db.select().from(bids).where(eq(bids.auctionId, auctionId)).orderBy(desc(bids.id)).limit(limit).all();
}

/** Gives the unit held for an auction back to the shelf, once. */
export function releaseStock(tx: Queryable, auction: Auction, now: number): void {
  const released = tx
    .update(auctions)
    .set({ stockReserved: false, updatedAt: now })
    .where(and(eq(auctions.id, auction.id), eq(auctions.stockReserved, true)))
    .returning({ id: auctions.id })
    .get();
  if (!released) return;
  release(tx, owners.auction(auction.id), now);
}

/** The size an auction sells ('M'), or '' when its product is not sold by size: one statement, as a product page reads it. */
export function auctionSizeOf(db: Queryable, auction: Pick<Auction, 'productId' | 'variantId'>): string {
  if (auction.variantId === null) return '';
  const row = db
    .select({
      productType: products.productType,
      size: productVariants.size,
      sizes: sql<number>`(select count(*) from ${productVariants} where ${productVariants.productId} = ${products.id})`,
    })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, auction.variantId))
    .get();
  return row ? sizeLabelOf(row.productType, Number(row.sizes), row) : '';
}

/**
 * The auction's item as its notices, e-mails and pages name it: the product, and its size when
 * the product is sold by size ('Classic Tee in size M', issue 38).
 */
export function auctionItemLabel(db: Queryable, product: Parameters<typeof productLabel>[0], variantId: number | null): string {
  const size = sizeLabelFor(db, product.productType, variantId);
  return size ? `${productLabel(product)} in size ${size}` : productLabel(product);
}

type Labelled = Parameters<typeof productLabel>[0] & { id: number };

/** Many auctions' item labels, by auction id, from one read of their products' sizes (the lists). */
export function auctionItemLabels(db: Queryable, rows: readonly { auction: Pick<Auction, 'id' | 'variantId'>; product: Labelled }[]): Map<number, string> {
  const sizes = variantsByProduct(
    db,
    rows.map((row) => row.product.id),
  );
  return new Map(
    rows.map(({ auction, product }) => {
      const variants = sizes.get(product.id) ?? [];
      const variant = variants.find((one) => one.id === auction.variantId);
      const size = variant ? sizeLabelOf(product.productType, variants.length, variant) : '';
      return [auction.id, size ? `${productLabel(product)} in size ${size}` : productLabel(product)] as const;
    }),
  );
}
