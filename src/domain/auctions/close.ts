import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { type Auction, auctions, products } from '../../db/schema.ts';
import { productLabel } from '../catalog/catalog.ts';
import { DomainError } from '../errors.ts';
import { yieldToRequests } from '../operations/slices.ts';
import type { OrderDeps } from '../orders/orders.ts';
import { biddersOf, maximumsOf, OPEN_STATUSES, releaseStock } from './auction-rows.ts';
import { tellAddressNeeded, tellPaymentNeeded, tellSecondChance, tellSold, tellUnsold } from './messages.ts';
import { buyerOrders, buyerOutsideArea, chargeBuyer, OWING_STATUSES } from './payment.ts';
import { rankMaximums } from './proxy.ts';

/*
 * The close job (issue 28, item 5), run by the jobs lease holder every minute. Every step is a
 * conditional update on the auction's status, and the charge is claimed with its order (payment.ts),
 * so running it twice, in two processes or again after a crash, changes nothing the first did:
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
  return product ? productLabel(product) : 'the item';
};

const dueText = (at: number) => new Date(at).toUTCString().replace(' GMT', ' UTC');

/** Moves the auction from one status to the next only if nobody did already; false when someone did. */
function move(
  deps: OrderDeps,
  auction: Auction,
  from: Auction['status'][],
  set: Partial<typeof auctions.$inferInsert>,
  after?: (tx: Queryable, moved: Auction) => void,
): boolean {
  return deps.db.transaction((tx) => {
    const moved = tx
      .update(auctions)
      .set({ ...set, updatedAt: deps.clock.now() })
      .where(and(eq(auctions.id, auction.id), inArray(auctions.status, from)))
      .returning()
      .get();
    if (!moved) return false;
    after?.(tx, moved);
    return true;
  });
}

function endUnsold(deps: OrderDeps, auction: Auction, from: Auction['status'][], why: string): boolean {
  return move(deps, auction, from, { status: 'unsold' }, (tx, moved) => {
    releaseStock(tx, moved, deps.clock.now());
    tellUnsold(tx, deps.clock, moved, labelOf(deps, moved), biddersOf(tx, moved.id), why);
  });
}

/** The clock ran out: no sale, or the winner owes the final price. */
function endRunning(deps: OrderDeps, auction: Auction, now: number): boolean {
  if (auction.leaderId === null) return endUnsold(deps, auction, OPEN_STATUSES, 'nobody bid.');
  if (!auction.reserveMet) return endUnsold(deps, auction, OPEN_STATUSES, 'the reserve price was not met.');
  return move(deps, auction, OPEN_STATUSES, { status: 'awaiting_payment', winnerId: auction.leaderId, paymentDueAt: now + PAYMENT_WINDOW_MS });
}

/** The winner did not pay in time: the best other bidder is offered it at their maximum, or it is unsold. */
function offerSecondChance(deps: OrderDeps, auction: Auction, now: number): boolean {
  const runnerUp = rankMaximums(maximumsOf(deps.db, auction.id)).find((max) => max.bidderId !== auction.winnerId);
  if (!runnerUp) return endUnsold(deps, auction, ['awaiting_payment'], 'the winner did not pay.');
  const dueAt = now + PAYMENT_WINDOW_MS;
  return move(
    deps,
    auction,
    ['awaiting_payment'],
    { status: 'second_chance', winnerId: runnerUp.bidderId, winnerOrderId: null, currentPriceCents: runnerUp.maxCents, paymentDueAt: dueAt },
    (tx, moved) => tellSecondChance(tx, deps.clock, moved, labelOf(deps, moved), runnerUp.bidderId, runnerUp.maxCents, dueText(dueAt)),
  );
}

/**
 * An auction owed its price: paid -> ended; a charge under way -> the reconciler's; the winner's
 * first charge not made yet -> made now; declined -> told, until the window closes.
 */
export async function settleOwing(deps: OrderDeps, auction: Auction, now: number): Promise<void> {
  const buyerId = auction.winnerId;
  if (buyerId === null) {
    if (auction.status === 'awaiting_payment') offerSecondChance(deps, auction, now);
    else endUnsold(deps, auction, ['second_chance'], 'nobody paid.');
    return;
  }
  let orders = buyerOrders(deps.db, auction.id, buyerId);
  // Moved out of the delivery area since bidding: no charge, told why, as after a decline.
  const away = buyerOutsideArea(deps.db, buyerId);
  if (!orders.paid && !orders.latest && auction.status === 'awaiting_payment' && !away) {
    try {
      await chargeBuyer(deps, auction, buyerId, auction.currentPriceCents as number);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
    }
    orders = buyerOrders(deps.db, auction.id, buyerId);
  }
  if (orders.paid) {
    const orderId = orders.paid.id;
    move(deps, auction, [...OWING_STATUSES], { status: 'ended', winnerOrderId: orderId, paymentDueAt: null }, (tx, moved) =>
      tellSold(tx, deps.clock, moved, labelOf(deps, moved), buyerId, biddersOf(tx, moved.id), orderId),
    );
    return;
  }
  if (orders.latest?.status === 'pending') return;
  const dueAt = auction.paymentDueAt ?? now;
  if (now < dueAt) {
    if (auction.status === 'awaiting_payment') {
      deps.db.transaction((tx) =>
        away && !orders.latest
          ? tellAddressNeeded(tx, deps.clock, auction, labelOf(deps, auction), buyerId, dueText(dueAt))
          : tellPaymentNeeded(tx, deps.clock, auction, labelOf(deps, auction), buyerId, orders.attempts, dueText(dueAt)),
      );
    }
    return;
  }
  if (auction.status === 'awaiting_payment') offerSecondChance(deps, auction, now);
  else endUnsold(deps, auction, ['second_chance'], 'nobody paid.');
}

/** The job: every auction past its end, then every auction still owed its price. */
export async function closeDueAuctions(deps: OrderDeps, now = deps.clock.now()): Promise<CloseReport> {
  const due = deps.db
    .select()
    .from(auctions)
    .where(and(inArray(auctions.status, OPEN_STATUSES), lte(auctions.endsAt, now)))
    .orderBy(asc(auctions.endsAt))
    .limit(BATCH)
    .all();
  let closed = 0;
  for (const auction of due) {
    if (endRunning(deps, auction, now)) closed++;
    await yieldToRequests();
  }
  const owing = deps.db
    .select()
    .from(auctions)
    .where(inArray(auctions.status, [...OWING_STATUSES]))
    .orderBy(asc(auctions.id))
    .limit(BATCH)
    .all();
  for (const auction of owing) {
    await settleOwing(deps, auction, now);
    await yieldToRequests();
  }
  return { closed, settled: owing.length };
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
  const orderId = paid ? paid.id : await chargeBuyer(deps, auction, userId, auction.currentPriceCents as number);
  const fresh = db.select().from(auctions).where(eq(auctions.id, auction.id)).get();
  if (fresh) await settleOwing(deps, fresh, now);
  return { orderId };
}
