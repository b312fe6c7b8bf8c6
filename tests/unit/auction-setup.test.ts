import { describe, expect, test } from 'bun:test';
import { auctionSetupSchema, checkAuctionSetup, DEFAULT_AUCTION_MS, isWholeCents } from '../../src/domain/auctions/increments.ts';

const NOW = Date.UTC(2026, 10, 26, 18, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 60 * 60 * 1000;

function refused(input: unknown) {
  const check = checkAuctionSetup(input, NOW);
  if (check.ok) throw new Error('accepted');
  expect(check.status).toBe(400);
  expect(check.message).toBe(Object.values(check.fields)[0] as string);
  return check.fields;
}

describe('auction set-up (PUT /api/admin/products/{id}/auction, the admin form)', () => {
  test('only a starting bid: the ladder decides the increment, no reserve, it runs from now for 7 days', () => {
    expect(checkAuctionSetup({ startingBid: 25 }, NOW)).toEqual({
      ok: true,
      setup: {
        startingBidCents: 2500,
        incrementCents: null,
        reserveCents: null,
        startsAt: NOW,
        endsAt: NOW + DEFAULT_AUCTION_MS,
        keepBuyNow: false,
        variantId: null,
      },
    });
  });

  test('every field, in dollars and ISO 8601 times, becomes cents and epoch ms', () => {
    const setup = auctionSetupSchema(NOW).parse({
      startingBid: 19.99,
      increment: 2.5,
      reservePrice: 150,
      startsAt: '2026-11-27T09:00:00-08:00',
      endsAt: '2026-11-30T18:00:00Z',
      keepBuyNow: true,
    });
    expect(setup).toEqual({
      startingBidCents: 1999,
      incrementCents: 250,
      reserveCents: 15_000,
      startsAt: Date.UTC(2026, 10, 27, 17, 0, 0),
      endsAt: Date.UTC(2026, 10, 30, 18, 0, 0),
      keepBuyNow: true,
      variantId: null,
    });
  });

  test('a later start without an end runs 7 days from that start', () => {
    const check = checkAuctionSetup({ startingBid: 5, startsAt: iso(NOW + HOUR) }, NOW);
    expect(check).toMatchObject({ ok: true, setup: { startsAt: NOW + HOUR, endsAt: NOW + HOUR + DEFAULT_AUCTION_MS } });
  });

  test('an end before (or at) the start is refused on the end field', () => {
    expect(refused({ startingBid: 5, startsAt: iso(NOW + 2 * HOUR), endsAt: iso(NOW + HOUR) })).toEqual({ endsAt: 'The end must be after the start' });
    expect(refused({ startingBid: 5, startsAt: iso(NOW + HOUR), endsAt: iso(NOW + HOUR) })).toEqual({ endsAt: 'The end must be after the start' });
    expect(refused({ startingBid: 5, startsAt: iso(NOW - 2 * HOUR), endsAt: iso(NOW - HOUR) })).toEqual({ endsAt: 'The end must be in the future' });
  });

  test('a reserve below the starting bid is refused; one equal to it is fine', () => {
    expect(refused({ startingBid: 100, reservePrice: 99.99 })).toEqual({ reservePrice: 'The reserve price cannot be below the starting bid' });
    expect(checkAuctionSetup({ startingBid: 100, reservePrice: 100 }, NOW)).toMatchObject({ ok: true, setup: { reserveCents: 10_000 } });
  });

  test('an increment of 0 (or less, or a fraction of a cent) is refused', () => {
    expect(refused({ startingBid: 5, increment: 0 })).toEqual({ increment: 'The bid increment must be at least $0.01' });
    expect(refused({ startingBid: 5, increment: -1 })).toEqual({ increment: 'The bid increment must be at least $0.01' });
    expect(refused({ startingBid: 5, increment: 0.005 })).toHaveProperty('increment');
  });

  test('money must be a JSON number of dollars in whole cents, more than $0 and at most $100,000', () => {
    expect(refused({})).toHaveProperty('startingBid');
    expect(refused({ startingBid: '25' })).toEqual({ startingBid: 'The starting bid must be an amount in dollars, such as 25.00' });
    expect(refused({ startingBid: 0 })).toEqual({ startingBid: 'The starting bid must be at least $0.01' });
    expect(refused({ startingBid: 10.001 })).toEqual({ startingBid: 'The starting bid must be in whole cents' });
    expect(refused({ startingBid: 100_000.01 })).toEqual({ startingBid: 'The starting bid must be at most $100,000' });
    expect(refused({ startingBid: 5, reservePrice: 'lots' })).toHaveProperty('reservePrice');
    expect(checkAuctionSetup({ startingBid: 100_000 }, NOW)).toMatchObject({ ok: true, setup: { startingBidCents: 10_000_000 } });
  });

  test('times must be ISO 8601 with their zone: the server must not guess when an auction ends', () => {
    for (const endsAt of ['2026-12-01T18:00:00', 'tomorrow', '2026-12-01', 1_780_000_000_000]) {
      expect(refused({ startingBid: 5, endsAt })).toHaveProperty('endsAt');
    }
    expect(refused({ startingBid: 5, keepBuyNow: 'yes' })).toHaveProperty('keepBuyNow');
    expect(refused(null)).toBeDefined();
  });

  test('whole cents survive binary floats', () => {
    expect([0.01, 19.99, 0.07, 1234.56, 100_000].every(isWholeCents)).toBe(true);
    expect([0.001, 19.995, Number.NaN, Number.POSITIVE_INFINITY].some(isWholeCents)).toBe(false);
  });
});
