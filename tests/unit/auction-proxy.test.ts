import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { ladderIncrementCents } from '../../src/domain/auctions/increments.ts';
import {
  type AuctionRules,
  type BidDecision,
  checkBidInput,
  decideBid,
  type HistoryRow,
  type KeptStanding,
  type Maximum,
  maskBidderName,
  placeBid,
  SOFT_CLOSE_MS,
  softCloseEnd,
  standingFrom,
  standingOf,
} from '../../src/domain/auctions/proxy.ts';

const T0 = Date.UTC(2026, 10, 26, 18, 0, 0);
const rulesOf = (startingBidCents: number, more: Partial<AuctionRules> = {}): AuctionRules => ({
  startingBidCents,
  incrementCents: null,
  reserveCents: null,
  ...more,
});

/** Plays bids in order the way the store will: each accepted maximum is kept, each row appended. */
function auction(rules: AuctionRules) {
  const maximums: Maximum[] = [];
  const history: HistoryRow[] = [];
  let clock = T0;
  return {
    history,
    bid(bidderId: number, maxCents: number): BidDecision {
      clock += 1000;
      const decision = placeBid(rules, maximums, { bidderId, maxCents, at: clock });
      if (decision.accepted) {
        maximums.push(decision.maximum);
        history.push(...decision.rows);
      }
      return decision;
    },
    standing: () => standingOf(rules, maximums),
  };
}

const A = 1;
const B = 2;
const C = 3;
const shown = (rows: HistoryRow[]) => rows.map((row) => [row.bidderId, row.amountCents, row.proxy]);

function accepted(decision: BidDecision) {
  if (!decision.accepted) throw new Error(`refused: ${decision.message}`);
  return decision;
}

describe('proxy bidding, known answers (eBay-style)', () => {
  test('a lone bidder leads at the starting bid, whatever their maximum', () => {
    const run = auction(rulesOf(1000));
    const first = accepted(run.bid(A, 5000));
    expect([first.priceCents, first.leaderId, first.priceChanged, first.leaderChanged]).toEqual([1000, A, true, true]);
    expect(shown(first.rows)).toEqual([[A, 1000, false]]);
    expect(run.standing().minimumNextCents).toBe(1100);
  });

  test('two bidders: the price is the second maximum plus one increment; the leader keeps their lead by proxy', () => {
    const run = auction(rulesOf(1000));
    run.bid(A, 5000);
    const outbid = accepted(run.bid(B, 3000));
    expect([outbid.priceCents, outbid.leaderId, outbid.priceChanged, outbid.leaderChanged]).toEqual([3100, A, true, false]);
    expect(shown(outbid.rows)).toEqual([
      [B, 3000, false],
      [A, 3100, true],
    ]);
    // B goes above A's $50: B leads at $50 plus the $2.50 step of that rung.
    const overtakes = accepted(run.bid(B, 6000));
    expect([overtakes.priceCents, overtakes.leaderId, overtakes.leaderChanged]).toEqual([5250, B, true]);
    expect(shown(overtakes.rows)).toEqual([
      [A, 5000, true],
      [B, 5250, false],
    ]);
    expect(run.history.at(-1)).toMatchObject({ bidderId: B, amountCents: 5250 });
  });

  test('the price never goes above the highest maximum', () => {
    const run = auction(rulesOf(1000));
    run.bid(A, 5000);
    expect(accepted(run.bid(B, 4950)).priceCents).toBe(5000);
  });

  test('a tie goes to the earlier maximum, at that maximum', () => {
    const run = auction(rulesOf(1000));
    run.bid(A, 5000);
    const tie = accepted(run.bid(B, 5000));
    expect([tie.priceCents, tie.leaderId, tie.leaderChanged]).toEqual([5000, A, false]);
    expect(shown(tie.rows)).toEqual([
      [B, 5000, false],
      [A, 5000, true],
    ]);
  });

  test('a bid under the current price plus one increment is refused with the minimum shown', () => {
    const run = auction(rulesOf(1000));
    expect(run.bid(A, 999)).toMatchObject({ accepted: false, status: 409, message: 'Bid at least $10.00', minimumCents: 1000 });
    run.bid(A, 5000);
    const low = run.bid(C, 1050);
    expect(low).toMatchObject({ accepted: false, message: 'Bid at least $11.00', minimumCents: 1100, fields: { maxAmount: 'Bid at least $11.00' } });
    expect(run.history).toHaveLength(1);
  });

  test('a leader may raise their own maximum without raising the price', () => {
    const run = auction(rulesOf(1000));
    run.bid(A, 5000);
    run.bid(B, 3000);
    const raise = accepted(run.bid(A, 8000));
    expect([raise.priceCents, raise.leaderId, raise.priceChanged, raise.leaderChanged]).toEqual([3100, A, false, false]);
    // Only the secret maximum changes: no public row, no bid counted (issue 37, item 8).
    expect(raise.rows).toEqual([]);
    expect(run.bid(A, 8000)).toMatchObject({ accepted: false, message: 'Bid at least $80.01' });
    // B now needs more than A's new maximum to lead.
    expect(accepted(run.bid(B, 7000))).toMatchObject({ priceCents: 7250, leaderId: A });
  });

  test('a leader who won a tie at their maximum raises it and still pays that maximum', () => {
    const run = auction(rulesOf(1000));
    run.bid(A, 5000);
    run.bid(B, 5000);
    expect(accepted(run.bid(A, 10_000))).toMatchObject({ priceCents: 5000, priceChanged: false });
    expect(accepted(run.bid(B, 6000))).toMatchObject({ priceCents: 6250, leaderId: A });
  });

  test('the increment ladder: $1 under $50, $2.50 under $250, $5 under $1,000, $10 above', () => {
    expect([0, 4999, 5000, 24_999, 25_000, 99_999, 100_000, 9_999_999].map(ladderIncrementCents)).toEqual([100, 100, 250, 250, 500, 500, 1000, 1000]);
    // The step is the one of the rung the second maximum sits on.
    const cross = (second: number) => {
      const run = auction(rulesOf(100));
      run.bid(A, 1_000_000);
      return accepted(run.bid(B, second)).priceCents;
    };
    expect([cross(4999), cross(5000), cross(24_999), cross(25_000), cross(99_999), cross(100_000)]).toEqual([5099, 5250, 25_249, 25_500, 100_499, 101_000]);
    // And the minimum next bid follows the rung of the price.
    expect(standingOf(rulesOf(4900), [{ bidderId: A, maxCents: 4900, at: T0 }]).minimumNextCents).toBe(5000);
    expect(standingOf(rulesOf(5000), [{ bidderId: A, maxCents: 5000, at: T0 }]).minimumNextCents).toBe(5250);
    expect(standingOf(rulesOf(100_000), [{ bidderId: A, maxCents: 100_000, at: T0 }]).minimumNextCents).toBe(101_000);
  });

  test("the admin's fixed increment replaces the ladder", () => {
    const run = auction(rulesOf(1000, { incrementCents: 500 }));
    run.bid(A, 20_000);
    expect(accepted(run.bid(B, 10_000)).priceCents).toBe(10_500);
    expect(run.standing().minimumNextCents).toBe(11_000);
  });

  test('a secret reserve: the price rises to it once the leading maximum meets it', () => {
    const run = auction(rulesOf(1000, { reserveCents: 10_000 }));
    expect(accepted(run.bid(A, 5000))).toMatchObject({ priceCents: 1000, reserveMet: false });
    const raised = accepted(run.bid(A, 15_000));
    expect(raised).toMatchObject({ priceCents: 10_000, reserveMet: true, priceChanged: true });
    // The raise met the reserve: the price moved, and the history shows it at the new price.
    expect(shown(raised.rows)).toEqual([[A, 10_000, false]]);
    expect(accepted(run.bid(B, 12_000))).toMatchObject({ priceCents: 12_250, leaderId: A, reserveMet: true });
  });
});

describe('soft close', () => {
  const endsAt = T0 + 60 * 60 * 1000;
  const left = (ms: number) => endsAt - ms;

  test('a bid that changes the price with 1:59 left moves the end to 2 minutes after it', () => {
    const run = auction(rulesOf(1000));
    const bidAt = left(119_000);
    const decision = accepted(run.bid(A, 5000));
    expect(softCloseEnd(endsAt, bidAt, decision.priceChanged || decision.leaderChanged)).toBe(bidAt + SOFT_CLOSE_MS);
    expect(softCloseEnd(endsAt, bidAt, true)).toBe(endsAt + 1000);
  });

  test('a refused bid, or a raise that changes nothing, never extends', () => {
    const run = auction(rulesOf(1000));
    run.bid(A, 5000);
    const refused = run.bid(B, 500);
    expect(refused.accepted).toBe(false);
    const changed = refused.accepted && (refused.priceChanged || refused.leaderChanged);
    expect(softCloseEnd(endsAt, left(119_000), changed)).toBe(endsAt);
    const raise = accepted(run.bid(A, 9000));
    expect(softCloseEnd(endsAt, left(30_000), raise.priceChanged || raise.leaderChanged)).toBe(endsAt);
  });

  test('a bid with 2:01 left, or after the end, leaves the end alone', () => {
    expect(softCloseEnd(endsAt, left(121_000), true)).toBe(endsAt);
    expect(softCloseEnd(endsAt, left(120_000), true)).toBe(endsAt);
    expect(softCloseEnd(endsAt, endsAt, true)).toBe(endsAt);
  });
});

describe('bid input and masked names', () => {
  test('refusals that need no database, each with a message; a good amount becomes cents', () => {
    expect(checkBidInput(25, { isAdmin: true })).toMatchObject({ ok: false, status: 403 });
    for (const bad of ['25', Number.NaN, null, undefined, Number.POSITIVE_INFINITY, [25], { amount: 25 }, true]) {
      expect(checkBidInput(bad, { isAdmin: false })).toMatchObject({ ok: false, status: 400, fields: { maxAmount: expect.any(String) } });
    }
    expect(checkBidInput(10.005, { isAdmin: false })).toMatchObject({ ok: false, message: 'Your maximum bid must be in whole cents' });
    expect(checkBidInput(100_000.01, { isAdmin: false })).toMatchObject({ ok: false, message: 'Your maximum bid can be at most $100,000' });
    expect(checkBidInput(0, { isAdmin: false })).toMatchObject({ ok: false, status: 400 });
    expect(checkBidInput(-5, { isAdmin: false })).toMatchObject({ ok: false, status: 400 });
    expect(checkBidInput(100_000, { isAdmin: false })).toEqual({ ok: true, maxCents: 10_000_000 });
    expect(checkBidInput(19.99, { isAdmin: false })).toEqual({ ok: true, maxCents: 1999 });
  });

  test('a bidder shows as first character, three stars, last character', () => {
    expect(maskBidderName('jane93')).toBe('j***3');
    expect(maskBidderName(' x ')).toBe('x***x');
    expect(maskBidderName('')).toBe('***');
    expect(maskBidderName('😀bob😎')).toBe('😀***😎');
  });
});

describe('proxy bidding against a plain model (fast-check)', () => {
  // The reference: one leader, their maximum and a price, moved bid by bid as an auctioneer would.
  const LADDER: [number, number][] = [
    [5_000, 100],
    [25_000, 250],
    [100_000, 500],
    [Number.POSITIVE_INFINITY, 1_000],
  ];
  class Model {
    leader: number | null = null;
    leaderMax = 0;
    price = 0;
    history: HistoryRow[] = [];
    constructor(private rules: AuctionRules) {}
    step(price: number) {
      return this.rules.incrementCents ?? (LADDER.find(([below]) => price < below) as [number, number])[1];
    }
    minimumFor(bidder: number) {
      if (this.leader === null) return this.rules.startingBidCents;
      const next = this.price + this.step(this.price);
      return bidder === this.leader ? Math.max(next, this.leaderMax + 1) : next;
    }
    meetReserve() {
      const reserve = this.rules.reserveCents;
      if (reserve !== null && this.leaderMax >= reserve && this.price < reserve) this.price = reserve;
    }
    bid(bidder: number, max: number, at: number) {
      const minimum = this.minimumFor(bidder);
      if (max < minimum) return { accepted: false as const, minimum };
      const rows: HistoryRow[] = [];
      const was = { price: this.leader === null ? null : this.price, leader: this.leader };
      if (this.leader === null || bidder === this.leader) {
        if (this.leader === null) this.price = this.rules.startingBidCents;
        this.leader = bidder;
        this.leaderMax = max;
        this.meetReserve();
        // A leader's raise is shown only when it moved the price (to the reserve).
        if (was.leader !== bidder || this.price !== was.price) rows.push({ bidderId: bidder, amountCents: this.price, at, proxy: false });
      } else if (max > this.leaderMax) {
        const [previous, previousMax, previousPrice] = [this.leader, this.leaderMax, this.price];
        this.price = Math.min(max, previousMax + this.step(previousMax));
        this.leader = bidder;
        this.leaderMax = max;
        this.meetReserve();
        if (previousMax > previousPrice) rows.push({ bidderId: previous, amountCents: previousMax, at, proxy: true });
        rows.push({ bidderId: bidder, amountCents: this.price, at, proxy: false });
      } else {
        this.price = Math.min(this.leaderMax, max + this.step(max));
        this.meetReserve();
        rows.push({ bidderId: bidder, amountCents: max, at, proxy: false });
        rows.push({ bidderId: this.leader, amountCents: this.price, at, proxy: true });
      }
      this.history.push(...rows);
      return { accepted: true as const, rows, priceChanged: this.price !== was.price, leaderChanged: this.leader !== was.leader };
    }
  }

  const rulesArb = fc
    .record({
      startingBidCents: fc.integer({ min: 1, max: 200_000 }),
      incrementCents: fc.option(fc.integer({ min: 1, max: 2_000 }), { nil: null }),
      reserveAbove: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
    })
    .map(({ reserveAbove, ...rules }): AuctionRules => ({ ...rules, reserveCents: reserveAbove === null ? null : rules.startingBidCents + reserveAbove }));
  // Most bids land near the minimum or the leader's maximum (a cent short, ties, just over); some anywhere.
  const bidArb = fc.record({
    bidder: fc.integer({ min: 1, max: 5 }),
    near: fc.constantFrom('minimum', 'leaderMax', 'anywhere'),
    amount: fc.oneof(fc.integer({ min: -2, max: 2 }), fc.integer({ min: -50, max: 30_000 }), fc.integer({ min: 1, max: 10_000_000 })),
  });
  const amountOf = (model: Model, bidder: number, near: string, amount: number) => {
    if (near === 'minimum') return Math.max(1, model.minimumFor(bidder) + amount);
    if (near === 'leaderMax') return Math.max(1, model.leaderMax + (Math.abs(amount) <= 2 ? amount : amount % 300));
    return amount;
  };

  test('price, leader, changes and history always match the model, decided from the kept standing as from a replay; the last row is the leader at the price', () => {
    fc.assert(
      fc.property(rulesArb, fc.array(bidArb, { maxLength: 40 }), (rules, bids) => {
        const model = new Model(rules);
        const maximums: Maximum[] = [];
        const history: HistoryRow[] = [];
        // What the auction row keeps: the store decides from it alone, never replaying the maximums.
        let kept: KeptStanding = { priceCents: null, leaderId: null, leaderMaxCents: null };
        bids.forEach(({ bidder, near, amount }, i) => {
          const at = T0 + i * 1000;
          const max = amountOf(model, bidder, near, amount);
          const expected = model.bid(bidder, max, at);
          const got = placeBid(rules, maximums, { bidderId: bidder, maxCents: max, at });
          expect(decideBid(rules, standingFrom(rules, kept), { bidderId: bidder, maxCents: max, at })).toEqual(got);
          if (!expected.accepted) {
            expect(got).toMatchObject({ accepted: false, minimumCents: expected.minimum });
            return;
          }
          const decision = accepted(got);
          maximums.push(decision.maximum);
          history.push(...decision.rows);
          kept = { priceCents: decision.priceCents, leaderId: decision.leaderId, leaderMaxCents: decision.leaderMaxCents };
          expect(standingFrom(rules, kept)).toEqual(standingOf(rules, maximums));
          expect(decision.rows).toEqual(expected.rows);
          expect([decision.priceCents, decision.leaderId, decision.priceChanged, decision.leaderChanged]).toEqual([
            model.price,
            model.leader as number,
            expected.priceChanged,
            expected.leaderChanged,
          ]);
          expect(decision.reserveMet).toBe(rules.reserveCents === null || model.price >= rules.reserveCents);
          expect(history.at(-1)).toMatchObject({ bidderId: model.leader as number, amountCents: model.price });
          expect(model.price).toBeLessThanOrEqual(model.leaderMax);
        });
        expect(history).toEqual(model.history);
        // The history only climbs.
        const amounts = history.map((row) => row.amountCents);
        expect(amounts).toEqual(amounts.toSorted((x, y) => x - y));
      }),
      { numRuns: 300 },
    );
  });
});
