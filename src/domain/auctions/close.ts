import { and, asc, eq, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Queryable } from '../../db/client.ts';
import { type Auction, auctions, products } from '../../db/schema.ts';
import { DomainError } from '../errors.ts';
import { yieldToRequests } from '../operations/slices.ts';
import type { OrderDeps } from '../orders/orders.ts';
import { auctionItemLabel, biddersOf, maximumsOf, OPEN_STATUSES, releaseStock } from './auction-rows.ts';
import { tellAddressNeeded, tellNoSecondChance, tellPaymentNeeded, tellSecondChance, tellSold, tellUnsold } from './messages.ts';
import { buyerOrders, buyerOutsideArea, chargeBuyer, OWING_STATUSES, owedPriceCents } from './payment.ts';
import { rankMaximums } from './proxy.ts';
import { recordStrike } from './strikes.ts';

import { formatStoreDateTime } from '../../shared/store-time.ts';

/*
 * The close job (issue 28, item 5), run by the jobs lease holder every minute. Every step is a
 * conditional update on the auction's status and on everything its decision read (issue 34, item 5),
 * and the charge is claimed with its order (payment.ts), so running it twice, in two processes or
 * again after a crash, changes nothing the first did, and a bid or a payment committed by another
 * process between the read and the update is never overwritten: the step reads again and decides anew.
 *
 *   running, past its end -> unsold (no bid, or the reserve not met) | awaiting_payment (winner)
 *   awaiting_payment -> ended (paid) | second_chance (unpaid after PAYMENT_WINDOW_MS)
 *   second_chance    -> ended (the runner-up paid) | unsold (they did not, in time)
 */

export const PAYMENT_WINDOW_MS = 24 * 60 * 60 * 1000;
const BATCH = 100;

export interface CloseReport {
  closed: number;
  settled: number;
}

const labelOf = (deps: OrderDeps, auction: Auction) => {
  const product = deps.db.select().from(products).where(eq(products.id, auction.productId)).get();
  return product ? auctionItemLabel(deps.db, product, auction.variantId) : 'the item';
};

const dueText = (at: number) => formatStoreDateTime(at);

const sameAs = (column: SQLiteColumn, value: number | null): SQL => (value === null ? isNull(column) : eq(column, value));

/**
 * What a closing decision read of a running auction: its end (a soft close moves it), its bids and
 * its leader at its price. A bid committed since changes one of them, and the move does not happen.
 */
const closingRead = (auction: Auction): SQL[] => [
  eq(auctions.status, auction.status),
  eq(auctions.endsAt, auction.endsAt),
  eq(auctions.bidCount, auction.bidCount),
  sameAs(auctions.leaderId, auction.leaderId),
  sameAs(auctions.currentPriceCents, auction.currentPriceCents),
];

/**
 * What a settling decision read of an auction owed its price: whom it owes, the claim of their last
 * attempt (a Retry or the reconciler's charge writes a new one) and until when. A payment begun since
 * changes `winnerOrderId`, and neither the second-chance move nor the unsold end takes its unit.
 */
const owingRead = (auction: Auction): SQL[] => [
  eq(auctions.status, auction.status),
  sameAs(auctions.winnerId, auction.winnerId),
  sameAs(auctions.winnerOrderId, auction.winnerOrderId),
  sameAs(auctions.paymentDueAt, auction.paymentDueAt),
];

const reread = (deps: OrderDeps, auctionId: number) => deps.db.select().from(auctions).where(eq(auctions.id, auctionId)).get();

/** How often a step that lost a race reads again and decides anew in one run; the next run carries on. */
const RACES = 3;

/** Moves the auction only if it is still as the decision read it (`read`); false when it is not. */
function move(
  deps: OrderDeps,
  auction: Auction,
  read: SQL[],
  set: Partial<typeof auctions.$inferInsert>,
  after?: (tx: Queryable, moved: Auction) => void,
): boolean {
  return deps.db.transaction((tx) => {
    const moved = tx
      .update(auctions)
      .set({ ...set, updatedAt: deps.clock.now() })
      .where(and(eq(auctions.id, auction.id), ...read))
      .returning()
      .get();
    if (!moved) return false;
    after?.(tx, moved);
    return true;
  });
}

function endUnsold(deps: OrderDeps, auction: Auction, read: SQL[], why: string, also?: (tx: Queryable, moved: Auction, label: string) => number[]): boolean {
  return move(deps, auction, read, { status: 'unsold', offerCents: null }, (tx, moved) => {
    releaseStock(tx, moved, deps.clock.now());
    const label = labelOf(deps, moved);
    // `also` tells some bidders in its own words and names them, so they are not told twice.
    const toldApart = also?.(tx, moved, label) ?? [];
    tellUnsold(
      tx,
      deps.clock,
      moved,
      label,
      biddersOf(tx, moved.id).filter((id) => !toldApart.includes(id)),
      why,
    );
  });
}

/** The clock ran out on the auction as read: no sale, or the winner owes the final price. */
function endAsRead(deps: OrderDeps, auction: Auction, now: number): boolean {
  const read = closingRead(auction);
  if (auction.leaderId === null) return endUnsold(deps, auction, read, 'nobody bid.');
  if (!auction.reserveMet) return endUnsold(deps, auction, read, 'the reserve price was not met.');
  return move(deps, auction, read, { status: 'awaiting_payment', winnerId: auction.leaderId, paymentDueAt: now + PAYMENT_WINDOW_MS });
}

/**
 * Ends an auction past its end, as `auction` was read. A bid committed since the read (by another
 * process, in its last milliseconds) makes the move miss: the auction is read again and closed with
 * that bid, or left running when the bid's soft close moved its end past `now`.
 */
export function endRunning(deps: OrderDeps, auction: Auction, now: number): boolean {
  let read: Auction | undefined = auction;
  for (let race = 0; read && race < RACES; race++) {
    if (!OPEN_STATUSES.includes(read.status) || read.endsAt > now) return false;
    if (endAsRead(deps, read, now)) return true;
    read = reread(deps, auction.id);
  }
  return false;
}

/**
 * The winner did not pay in time: a strike on their account, then the best other bidder is offered
 * it at their maximum, but only at or above the reserve (issue 36: two accounts must not defeat a
 * reserve); below it, or with nobody else, it is unsold and the runner-up is told nothing was offered.
 */
export function offerSecondChance(deps: OrderDeps, auction: Auction, now: number): boolean {
  const winnerId = auction.winnerId;
  const strike = (tx: Queryable, moved: Auction, label: string) => {
    if (winnerId !== null) recordStrike(tx, deps.clock, moved, winnerId, label);
  };
  const runnerUp = rankMaximums(maximumsOf(deps.db, auction.id)).find((max) => max.bidderId !== winnerId);
  if (!runnerUp) {
    return endUnsold(deps, auction, owingRead(auction), 'the winner did not pay.', (tx, moved, label) => {
      strike(tx, moved, label);
      return [];
    });
  }
  if (auction.reserveCents !== null && runnerUp.maxCents < auction.reserveCents) {
    return endUnsold(deps, auction, owingRead(auction), 'the winner did not pay.', (tx, moved, label) => {
      strike(tx, moved, label);
      tellNoSecondChance(tx, deps.clock, moved, label, runnerUp.bidderId);
      return [runnerUp.bidderId];
    });
  }
  const dueAt = now + PAYMENT_WINDOW_MS;
  return move(
    deps,
    auction,
    owingRead(auction),
    // The offer's price is the runner-up's secret: the public price stays the final bid.
    { status: 'second_chance', winnerId: runnerUp.bidderId, winnerOrderId: null, offerCents: runnerUp.maxCents, paymentDueAt: dueAt },
    (tx, moved) => {
      const label = labelOf(deps, moved);
      strike(tx, moved, label);
      tellSecondChance(tx, deps.clock, moved, label, runnerUp.bidderId, runnerUp.maxCents, dueText(dueAt));
    },
  );
}

/** Nobody paid in time: a second chance after the winner, unsold after the runner-up. */
function passOn(deps: OrderDeps, auction: Auction, now: number): boolean {
  if (auction.status === 'awaiting_payment') return offerSecondChance(deps, auction, now);
  return endUnsold(deps, auction, owingRead(auction), 'nobody paid.');
}

/**
 * An auction owed its price: paid -> ended; a charge under way -> the reconciler's; the winner's
 * first charge not made yet -> made now; declined -> told, until the window closes. A move that
 * misses (a Retry or a second-chance payment began after the read) reads again and decides anew.
 */
export async function settleOwing(deps: OrderDeps, auction: Auction, now: number): Promise<void> {
  let read: Auction | undefined = auction;
  for (let race = 0; read && race < RACES; race++) {
    if (!(OWING_STATUSES as readonly string[]).includes(read.status)) return;
    if (await settleAsRead(deps, read, now)) return;
    read = reread(deps, auction.id);
  }
}

/** One settling decision on the auction as read (the auction first, then its orders); false when a move missed. */
async function settleAsRead(deps: OrderDeps, auction: Auction, now: number): Promise<boolean> {
  const buyerId = auction.winnerId;
  if (buyerId === null) return passOn(deps, auction, now);
  let orders = buyerOrders(deps.db, auction.id, buyerId);
  // Moved out of the delivery area since bidding: no charge, told why, as after a decline.
  const away = buyerOutsideArea(deps.db, buyerId);
  if (!orders.paid && !orders.latest && auction.status === 'awaiting_payment' && !away) {
    try {
      await chargeBuyer(deps, auction, buyerId, owedPriceCents(auction));
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
    // The charge's claim changed the row: what follows decides on it as it is now.
    const after = reread(deps, auction.id);
    if (!after) return true;
    auction = after;
    orders = buyerOrders(deps.db, auction.id, buyerId);
  }
  if (orders.paid) {
    const orderId = orders.paid.id;
    const owedToBuyer = [inArray(auctions.status, [...OWING_STATUSES]), eq(auctions.winnerId, buyerId)];
    // Sold: the price paid becomes the auction's price (a second chance's offer, no longer an open maximum).
    const sold = { status: 'ended' as const, winnerOrderId: orderId, paymentDueAt: null, currentPriceCents: owedPriceCents(auction), offerCents: null };
    move(deps, auction, owedToBuyer, sold, (tx, moved) => tellSold(tx, deps.clock, moved, labelOf(deps, moved), buyerId, biddersOf(tx, moved.id), orderId));
    return true;
  }
  if (orders.latest?.status === 'pending') return true;
  const dueAt = auction.paymentDueAt ?? now;
  if (now >= dueAt) return passOn(deps, auction, now);
  if (auction.status !== 'awaiting_payment') return true;
  return deps.db.transaction((tx) => {
    // Told only while nothing was begun since the read: a Retry under way needs no reminder.
    const still = tx
      .select({ id: auctions.id })
      .from(auctions)
      .where(and(eq(auctions.id, auction.id), ...owingRead(auction)))
      .get();
    if (!still) return false;
    if (away && !orders.latest) tellAddressNeeded(tx, deps.clock, auction, labelOf(deps, auction), buyerId, dueText(dueAt));
    else tellPaymentNeeded(tx, deps.clock, auction, labelOf(deps, auction), buyerId, orders.attempts, dueText(dueAt));
    return true;
  });
}

/**
 * The job: every auction past its end, then every auction owed its price, soonest due first. Both
 * are read in slices of BATCH after the last one served (by time, then id), until none is left: a
 * hundred owed auctions must not keep a later winner's charge, or its due time, waiting a run.
 */
export async function closeDueAuctions(deps: OrderDeps, now = deps.clock.now()): Promise<CloseReport> {
  let closed = 0;
  let after: [number, number] = [Number.MIN_SAFE_INTEGER, 0];
  for (;;) {
    const due = deps.db
      .select()
      .from(auctions)
      .where(and(inArray(auctions.status, OPEN_STATUSES), lte(auctions.endsAt, now), sql`(${auctions.endsAt}, ${auctions.id}) > (${after[0]}, ${after[1]})`))
      .orderBy(asc(auctions.endsAt), asc(auctions.id))
      .limit(BATCH)
      .all();
    for (const auction of due) {
      if (endRunning(deps, auction, now)) closed++;
      await yieldToRequests();
    }
    const last = due.at(-1);
    if (!last || due.length < BATCH) break;
    after = [last.endsAt, last.id];
  }
  let settled = 0;
  after = [Number.MIN_SAFE_INTEGER, 0];
  for (;;) {
    const owing = deps.db
      .select()
      .from(auctions)
      .where(and(inArray(auctions.status, [...OWING_STATUSES]), sql`(coalesce(${auctions.paymentDueAt}, 0), ${auctions.id}) > (${after[0]}, ${after[1]})`))
      .orderBy(asc(sql`coalesce(${auctions.paymentDueAt}, 0)`), asc(auctions.id))
      .limit(BATCH)
      .all();
    for (const auction of owing) {
      await settleOwing(deps, auction, now);
      settled++;
      await yieldToRequests();
    }
    const last = owing.at(-1);
    if (!last || owing.length < BATCH) break;
    after = [last.paymentDueAt ?? 0, last.id];
  }
  return { closed, settled };
}

/**
 * POST /api/products/{id}/auction/pay: the winner's Retry after a decline, or the runner-up
 * taking a second-chance offer; the same charge as the close job's, then the same settling.
 */
export async function payForAuction(deps: OrderDeps, userId: number, productId: number): Promise<{ orderId: number }> {
  const { db, clock } = deps;
  const auction = db
    .select()
    .from(auctions)
    .where(and(eq(auctions.productId, productId), inArray(auctions.status, [...OWING_STATUSES])))
    .get();
  if (!auction || auction.winnerId !== userId) throw new DomainError(409, 'You have nothing to pay for in this auction.');
  const now = clock.now();
  if (auction.paymentDueAt !== null && now >= auction.paymentDueAt) throw new DomainError(409, 'The time to pay for this auction has passed.');
  const paid = buyerOrders(db, auction.id, userId).paid;
  const orderId = paid ? paid.id : await chargeBuyer(deps, auction, userId, owedPriceCents(auction));
  const fresh = db.select().from(auctions).where(eq(auctions.id, auction.id)).get();
  if (fresh) await settleOwing(deps, fresh, now);
  return { orderId };
}
