import { and, count, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type Auction, auctionStrikes, auctions, products, users } from '../../db/schema.ts';
import type { Clock } from '../clock.ts';
import { DomainError } from '../errors.ts';
import { auctionItemLabel } from './auction-rows.ts';
import { tell } from './messages.ts';

/*
 * Unpaid auctions (issue 36, eBay's unpaid item rule). Winning and not paying cost nothing, so two
 * accounts could end every auction unsold: a winner whose time to pay runs out gets a strike on
 * their account, and with two in 12 months (not lifted by an admin) they cannot bid.
 */

export const STRIKES_TO_BLOCK = 2;
export const UNPAID_AUCTIONS_BLOCK = 'You cannot bid while you have unpaid auctions';

/** The start of the 12 months a strike counts for, by the store's clock. */
export function strikeWindowStart(now: number): number {
  const date = new Date(now);
  date.setUTCFullYear(date.getUTCFullYear() - 1);
  return date.getTime();
}

/** Strikes on the account that count now: within 12 months, not lifted. */
export function countingStrikes(db: Queryable, userId: number, now: number): number {
  return (
    db
      .select({ n: count() })
      .from(auctionStrikes)
      .where(and(eq(auctionStrikes.userId, userId), isNull(auctionStrikes.liftedAt), gt(auctionStrikes.createdAt, strikeWindowStart(now))))
      .get()?.n ?? 0
  );
}

/** A bid's refusal (403, nothing written) for an account with two counting strikes. */
export function requireNoUnpaidStrikes(db: Queryable, userId: number, now: number): void {
  if (countingStrikes(db, userId, now) >= STRIKES_TO_BLOCK) throw new DomainError(403, UNPAID_AUCTIONS_BLOCK, undefined, { code: 'UNPAID_AUCTIONS' });
}

/**
 * In the transaction that passes the auction on from its winner: the strike, once per auction
 * (the unique index makes a step run again a no-op), and the winner told what it means.
 */
export function recordStrike(tx: Queryable, clock: Clock, auction: Auction, winnerId: number, label: string): void {
  const now = clock.now();
  const written = tx
    .insert(auctionStrikes)
    .values({ userId: winnerId, auctionId: auction.id, createdAt: now })
    .onConflictDoNothing()
    .returning({ id: auctionStrikes.id })
    .get();
  if (!written) return;
  const counting = countingStrikes(tx, winnerId, now);
  const standing =
    counting >= STRIKES_TO_BLOCK
      ? `You now have ${counting} unpaid auctions in 12 months, so you cannot bid until one of them is more than 12 months old.`
      : `It is your first in 12 months. With ${STRIKES_TO_BLOCK} unpaid auctions in 12 months you cannot bid until one of them is more than 12 months old.`;
  tell(tx, clock, auction, {
    userId: winnerId,
    key: `strike:${winnerId}`,
    title: `Unpaid auction: ${label}`,
    message: `You won ${label} but did not pay in time, so it counts as an unpaid auction on your account. ${standing} If you think this is a mistake, contact the shop.`,
    action: { label: 'View Product', path: `/product/${auction.productId}` },
  });
}

export interface StrikeRow {
  id: number;
  userId: number;
  username: string;
  auctionId: number;
  productId: number;
  label: string;
  createdAt: number;
  liftedAt: number | null;
  liftedBy: string | null;
  /** Within 12 months and not lifted. */
  counting: boolean;
}

const STRIKES_SHOWN = 100;

/** The admin's list: the newest strikes first, with who, for what, and whether an admin lifted them. */
export function strikesForAdmin(db: Queryable, now: number, only: { userId?: number; strikeId?: number } = {}): StrikeRow[] {
  const from = strikeWindowStart(now);
  const rows = db
    .select({ strike: auctionStrikes, username: users.username, auction: auctions, product: products })
    .from(auctionStrikes)
    .innerJoin(users, eq(users.id, auctionStrikes.userId))
    .innerJoin(auctions, eq(auctions.id, auctionStrikes.auctionId))
    .innerJoin(products, eq(products.id, auctions.productId))
    .where(
      and(
        only.userId === undefined ? undefined : eq(auctionStrikes.userId, only.userId),
        only.strikeId === undefined ? undefined : eq(auctionStrikes.id, only.strikeId),
      ),
    )
    .orderBy(desc(auctionStrikes.id))
    .limit(STRIKES_SHOWN)
    .all();
  const lifters = new Map<number, string>();
  for (const { strike } of rows) {
    if (strike.liftedBy === null || lifters.has(strike.liftedBy)) continue;
    const admin = db.select({ username: users.username }).from(users).where(eq(users.id, strike.liftedBy)).get();
    lifters.set(strike.liftedBy, admin?.username ?? 'an admin');
  }
  return rows.map(({ strike, username, auction, product }) => ({
    id: strike.id,
    userId: strike.userId,
    username,
    auctionId: auction.id,
    productId: auction.productId,
    label: auctionItemLabel(db, product, auction.variantId),
    createdAt: strike.createdAt,
    liftedAt: strike.liftedAt,
    liftedBy: strike.liftedBy === null ? null : (lifters.get(strike.liftedBy) ?? null),
    counting: strike.liftedAt === null && strike.createdAt > from,
  }));
}

/** An admin lifts a strike (kept, with who and when): 404 for none, 409 when already lifted. */
export function liftStrike(db: Queryable, clock: Clock, strikeId: number, adminId: number | null): number {
  const lifted = db
    .update(auctionStrikes)
    .set({ liftedAt: clock.now(), liftedBy: adminId })
    .where(and(eq(auctionStrikes.id, strikeId), isNull(auctionStrikes.liftedAt)))
    .returning({ id: auctionStrikes.id })
    .get();
  if (lifted) return lifted.id;
  const exists = db.select({ id: auctionStrikes.id }).from(auctionStrikes).where(eq(auctionStrikes.id, strikeId)).get();
  if (!exists) throw new DomainError(404, 'Strike not found');
  throw new DomainError(409, 'This strike was already lifted.');
}
