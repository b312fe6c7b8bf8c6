import { formatUsd } from '../../shared/money.ts';
import { incrementAt, isWholeCents, MAX_AUCTION_CENTS } from './increments.ts';

/*
 * Proxy bidding (issue 28, items 2 and 3) as pure functions: no database, no clock. The caller
 * reads the standing the auction row keeps (price, leader, the leader's maximum), asks
 * `decideBid`, and writes what it answers in the same transaction; `standingOf` rebuilds the
 * standing from every maximum in acceptance (commit) order, the reference it must agree with.
 */

/** The parts of an auction the price depends on, in cents. */
export interface AuctionRules {
  startingBidCents: number;
  /** Null: the increment follows the ladder at the price. */
  incrementCents: number | null;
  /** Secret; null when the auction has none. */
  reserveCents: number | null;
}

/** One accepted maximum: who, how much, when it was accepted. */
export interface Maximum {
  bidderId: number;
  maxCents: number;
  at: number;
}

/** Where an auction stands: price and leader are null before the first bid. */
export interface Standing {
  priceCents: number | null;
  leaderId: number | null;
  /** The leader's maximum: secret, for the server's own rules only. */
  leaderMaxCents: number | null;
  reserveMet: boolean;
  /** The least the next bid may be (a leader must also go above their own maximum). */
  minimumNextCents: number;
}

/** A row of the public bid history: a bid shown at an amount (`proxy`: placed by the store for its bidder). */
export interface HistoryRow {
  bidderId: number;
  amountCents: number;
  at: number;
  proxy: boolean;
}

export type BidDecision =
  | {
      accepted: true;
      /** The maximum to store for the bidder (it replaces any lower one of theirs). */
      maximum: Maximum;
      priceCents: number;
      leaderId: number;
      /** The leader's maximum after the bid: kept on the auction row, secret. */
      leaderMaxCents: number;
      reserveMet: boolean;
      priceChanged: boolean;
      leaderChanged: boolean;
      /** Rows to append to the bid history, in this order; the last is always the leader at the price. */
      rows: HistoryRow[];
    }
  | { accepted: false; status: 409; message: string; minimumCents: number; fields: { maxAmount: string } };

interface Ranked {
  max: Maximum;
  /** Its place in acceptance order. */
  order: number;
}

/**
 * Each bidder's best maximum, best first: highest amount, then the one accepted first (a tie goes
 * to the earlier maximum). Acceptance order, not `at`, decides: two processes' clocks may differ.
 */
function ranked(maximums: readonly Maximum[]): Ranked[] {
  const best = new Map<number, Ranked>();
  maximums.forEach((max, order) => {
    const held = best.get(max.bidderId);
    if (!held || max.maxCents > held.max.maxCents) best.set(max.bidderId, { max, order });
  });
  return [...best.values()].sort((a, b) => b.max.maxCents - a.max.maxCents || a.order - b.order);
}

/** Each bidder's best maximum, the leader first. */
export function rankMaximums(maximums: readonly Maximum[]): Maximum[] {
  return ranked(maximums).map((entry) => entry.max);
}

/**
 * The leader's maximum that the second-highest ran into: the one they held when it came in (a tie
 * goes to it, as the earlier), else the first one above it they placed after. Later raises are
 * not counted, so raising one's own maximum never raises one's price.
 */
function capAgainst(maximums: readonly Maximum[], leaderId: number, second: Ranked): number {
  let held = -1;
  for (let i = 0; i < second.order; i++) {
    const max = maximums[i] as Maximum;
    if (max.bidderId === leaderId) held = Math.max(held, max.maxCents);
  }
  if (held >= second.max.maxCents) return held;
  const overtaking = maximums.find((max, i) => i > second.order && max.bidderId === leaderId && max.maxCents > second.max.maxCents);
  return (overtaking as Maximum).maxCents;
}

/** What the auction row keeps of its standing: enough to decide the next bid without replaying the maximums. */
export interface KeptStanding {
  priceCents: number | null;
  leaderId: number | null;
  leaderMaxCents: number | null;
}

/** The full standing from what the row keeps (the reserve's state and the next minimum follow from the price). */
export function standingFrom(rules: AuctionRules, kept: KeptStanding): Standing {
  const { priceCents: price, leaderId, leaderMaxCents } = kept;
  if (price === null || leaderId === null || leaderMaxCents === null) {
    return { priceCents: null, leaderId: null, leaderMaxCents: null, reserveMet: rules.reserveCents === null, minimumNextCents: rules.startingBidCents };
  }
  return {
    priceCents: price,
    leaderId,
    leaderMaxCents,
    reserveMet: rules.reserveCents === null || price >= rules.reserveCents,
    minimumNextCents: price + incrementAt(rules.incrementCents, price),
  };
}

/** A leader whose maximum meets the reserve pays at least the reserve, or a secret reserve could never be met by proxy bids. */
function withReserve(rules: AuctionRules, priceCents: number, leaderMaxCents: number): number {
  return rules.reserveCents !== null && leaderMaxCents >= rules.reserveCents ? Math.max(priceCents, rules.reserveCents) : priceCents;
}

/**
 * Price and leader from the maximums in acceptance order: the starting bid with one bidder, else
 * the second-highest maximum plus one increment, capped at the leader's maximum (as it stood
 * against that bid), then the reserve. The reference the kept standing must always agree with,
 * and the way to rebuild it (a replay of every maximum: O(bids)).
 */
export function standingOf(rules: AuctionRules, maximums: readonly Maximum[]): Standing {
  const [leader, second] = ranked(maximums);
  if (!leader) return standingFrom(rules, { priceCents: null, leaderId: null, leaderMaxCents: null });
  const leaderMax = leader.max.maxCents;
  let price = rules.startingBidCents;
  if (second) {
    const cap = capAgainst(maximums, leader.max.bidderId, second);
    price = Math.min(cap, second.max.maxCents + incrementAt(rules.incrementCents, second.max.maxCents));
  }
  return standingFrom(rules, { priceCents: withReserve(rules, price, leaderMax), leaderId: leader.max.bidderId, leaderMaxCents: leaderMax });
}

/** The message a bid below the minimum gets, in the panel's words. */
export function bidAtLeastMessage(minimumCents: number): string {
  return `Bid at least ${formatUsd(minimumCents)}`;
}

/**
 * Decides a new maximum (`maxCents` from `bidderId` at `at`) against the standing before it, in
 * O(1): every accepted bid is above every maximum but the leader's, so only the leader's maximum
 * and the price matter. Outbid at once, the leader's proxy answers one increment above the bid,
 * capped at their maximum; above the leader's maximum, the bidder leads one increment above it,
 * capped at their own; a leader raising keeps the price (but for the reserve). Amount checks that
 * need no auction (whole cents, range, admins) come first, in `checkBidInput`.
 */
export function decideBid(rules: AuctionRules, before: Standing, bid: Maximum): BidDecision {
  const raising = before.leaderId === bid.bidderId;
  const minimum = raising ? Math.max(before.minimumNextCents, (before.leaderMaxCents ?? 0) + 1) : before.minimumNextCents;
  if (bid.maxCents < minimum) {
    const message = bidAtLeastMessage(minimum);
    return { accepted: false, status: 409, message, minimumCents: minimum, fields: { maxAmount: message } };
  }

  const step = (cents: number) => incrementAt(rules.incrementCents, cents);
  let leaderId = bid.bidderId;
  let leaderMax = bid.maxCents;
  let base: number;
  if (before.leaderId === null || before.priceCents === null || before.leaderMaxCents === null) base = rules.startingBidCents;
  else if (raising) base = before.priceCents;
  else if (bid.maxCents > before.leaderMaxCents) base = Math.min(bid.maxCents, before.leaderMaxCents + step(before.leaderMaxCents));
  else {
    // A tie goes to the earlier maximum: the leader's.
    leaderId = before.leaderId;
    leaderMax = before.leaderMaxCents;
    base = Math.min(leaderMax, bid.maxCents + step(bid.maxCents));
  }
  const price = withReserve(rules, base, leaderMax);

  const rows: HistoryRow[] = [];
  if (leaderId !== bid.bidderId) {
    // Outbid at once: the bid shows at its maximum, then the leader's proxy answers it.
    rows.push({ bidderId: bid.bidderId, amountCents: bid.maxCents, at: bid.at, proxy: false });
    rows.push({ bidderId: leaderId, amountCents: price, at: bid.at, proxy: true });
  } else if (raising) {
    // The leader raising their own maximum changes only that secret (issue 37, item 8): no public
    // row, no bid counted, unless it lifts the price to the reserve, which the history then shows.
    if (price !== before.priceCents) rows.push({ bidderId: bid.bidderId, amountCents: price, at: bid.at, proxy: false });
  } else {
    // A new leader: the one overtaken had the store bid for them up to their maximum first.
    const overtaken = before.leaderId !== null && before.leaderId !== leaderId;
    if (overtaken && (before.leaderMaxCents as number) > (before.priceCents as number)) {
      rows.push({ bidderId: before.leaderId as number, amountCents: before.leaderMaxCents as number, at: bid.at, proxy: true });
    }
    rows.push({ bidderId: bid.bidderId, amountCents: price, at: bid.at, proxy: false });
  }

  return {
    accepted: true,
    maximum: bid,
    priceCents: price,
    leaderId,
    leaderMaxCents: leaderMax,
    reserveMet: rules.reserveCents === null || price >= rules.reserveCents,
    priceChanged: price !== before.priceCents,
    leaderChanged: leaderId !== before.leaderId,
    rows,
  };
}

/** The same decision from every accepted maximum replayed (the reference, and the tests' way in). */
export function placeBid(rules: AuctionRules, maximums: readonly Maximum[], bid: Maximum): BidDecision {
  return decideBid(rules, standingOf(rules, maximums), bid);
}

export const SOFT_CLOSE_MS = 2 * 60 * 1000;

/**
 * Soft close: a bid that changed the price or the leader with less than 2 minutes left moves
 * the end to 2 minutes after it, so nobody can snipe. Anything else leaves the end alone.
 */
export function softCloseEnd(endsAt: number, bidAt: number, changed: boolean): number {
  if (!changed || bidAt >= endsAt || endsAt - bidAt >= SOFT_CLOSE_MS) return endsAt;
  return bidAt + SOFT_CLOSE_MS;
}

export type BidInputCheck = { ok: true; maxCents: number } | { ok: false; status: 400 | 403; message: string; fields?: { maxAmount: string } };

/**
 * The refusals of a bid that need no database (issue 28, item 7): the shop's admins do not bid
 * on their own goods, and `maxAmount` must be a JSON number of dollars in whole cents, above 0
 * and at most $100,000 (never text, NaN or a fraction of a cent).
 */
export function checkBidInput(maxAmount: unknown, bidder: { isAdmin: boolean }): BidInputCheck {
  if (bidder.isAdmin) return { ok: false, status: 403, message: "The shop's admins cannot bid in its auctions." };
  const refuse = (message: string): BidInputCheck => ({ ok: false, status: 400, message, fields: { maxAmount: message } });
  if (typeof maxAmount !== 'number' || !Number.isFinite(maxAmount)) return refuse('Enter your maximum bid in dollars, such as 25.00');
  if (maxAmount <= 0) return refuse('Your maximum bid must be more than $0');
  if (maxAmount > MAX_AUCTION_CENTS / 100) return refuse('Your maximum bid can be at most $100,000');
  if (!isWholeCents(maxAmount)) return refuse('Your maximum bid must be in whole cents');
  return { ok: true, maxCents: Math.round(maxAmount * 100) };
}

/** A bidder as the public history shows them: first character, three stars, last character ('j***3'). */
export function maskBidderName(name: string): string {
  const chars = Array.from(name.trim());
  if (chars.length === 0) return '***';
  return `${chars[0]}***${chars[chars.length - 1]}`;
}
