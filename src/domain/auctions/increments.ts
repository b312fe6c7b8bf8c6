import * as z from 'zod/mini';
import { fieldErrorsOf } from '../../shared/schemas/field-errors.ts';
import { CHOOSE_SIZE_ID, idOrText } from '../../shared/schemas/fields.ts';

/*
 * The money rules of an auction before any bid: the bid increment ladder and the admin's
 * set-up (issue 28, item 1). Browser-safe (no database), so the admin form can share it.
 * Dollars arrive at the edge; everything past the schema is integer cents and epoch ms.
 */

export const MAX_AUCTION_CENTS = 10_000_000;
export const DEFAULT_AUCTION_MS = 7 * 24 * 60 * 60 * 1000;

/** The eBay-style ladder: $1 under $50, $2.50 under $250, $5 under $1,000, $10 from $1,000 up. */
export function ladderIncrementCents(priceCents: number): number {
  if (priceCents < 5_000) return 100;
  if (priceCents < 25_000) return 250;
  if (priceCents < 100_000) return 500;
  return 1_000;
}

/** The step above `priceCents`: the admin's fixed increment when set, else the ladder at that price. */
export function incrementAt(fixedIncrementCents: number | null | undefined, priceCents: number): number {
  return fixedIncrementCents ?? ladderIncrementCents(priceCents);
}

/** True for a finite number of dollars with no fraction of a cent (19.99 is; 19.999 is not). */
export function isWholeCents(dollars: number): boolean {
  if (!Number.isFinite(dollars)) return false;
  const cents = dollars * 100;
  // Binary floats: 19.99 * 100 is 1998.9999999999998, still a whole number of cents.
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}

/** A dollar amount as a JSON number: positive, whole cents, at most $100,000. */
const dollars = (label: string) => {
  const wrong = `${label} must be an amount in dollars, such as 25.00`;
  return z.number({ error: wrong }).check(
    z.refine((n) => Number.isFinite(n), wrong),
    z.gte(0.01, `${label} must be at least $0.01`),
    z.lte(MAX_AUCTION_CENTS / 100, `${label} must be at most $100,000`),
    z.refine(isWholeCents, `${label} must be in whole cents`),
  );
};

// An offset (or Z) is required: the server's zone must not decide when an auction ends.
const time = (label: string) => z.iso.datetime({ offset: true, error: `${label} must be an ISO 8601 time with its time zone, such as 2026-12-01T18:00:00Z` });

const setupInput = z.object({
  startingBid: dollars('The starting bid'),
  increment: z.optional(z.nullable(dollars('The bid increment'))),
  reservePrice: z.optional(z.nullable(dollars('The reserve price'))),
  startsAt: z.optional(z.nullable(time('The start'))),
  endsAt: z.optional(z.nullable(time('The end'))),
  keepBuyNow: z.optional(z.boolean({ error: 'Keep Buy Now must be true or false' })),
  // The size it sells (issue 38): required by the domain when the product has several (auctions/admin.ts).
  variantId: z.optional(z.nullable(idOrText(CHOOSE_SIZE_ID))),
});

export type AuctionSetupInput = z.input<typeof setupInput>;

/** A set-up ready to store: cents and epoch ms. A null increment means the ladder decides. */
export interface AuctionSetup {
  startingBidCents: number;
  incrementCents: number | null;
  reserveCents: number | null;
  startsAt: number;
  endsAt: number;
  keepBuyNow: boolean;
  /** The size named, or null: the only one, or (changing an auction) the one it already sells. */
  variantId: number | null;
}

const toCents = (value: number) => Math.round(value * 100);

/**
 * The rules of `PUT /api/admin/products/{id}/auction` and the admin form, as one schema.
 * `now` fills the defaults (start now, end 7 days after the start) and bounds the end.
 */
export function auctionSetupSchema(now: number) {
  return z
    .pipe(
      setupInput,
      z.transform((input): AuctionSetup => {
        const startsAt = input.startsAt ? Date.parse(input.startsAt) : now;
        return {
          startingBidCents: toCents(input.startingBid),
          incrementCents: input.increment == null ? null : toCents(input.increment),
          reserveCents: input.reservePrice == null ? null : toCents(input.reservePrice),
          startsAt,
          endsAt: input.endsAt ? Date.parse(input.endsAt) : startsAt + DEFAULT_AUCTION_MS,
          keepBuyNow: input.keepBuyNow ?? false,
          variantId: input.variantId ?? null,
        };
      }),
    )
    .check(
      z.refine((setup) => setup.endsAt > setup.startsAt, { message: 'The end must be after the start', path: ['endsAt'] }),
      z.refine((setup) => setup.endsAt > now, { message: 'The end must be in the future', path: ['endsAt'] }),
      z.refine((setup) => setup.reserveCents === null || setup.reserveCents >= setup.startingBidCents, {
        message: 'The reserve price cannot be below the starting bid',
        path: ['reservePrice'],
      }),
    );
}

export type AuctionSetupCheck = { ok: true; setup: AuctionSetup } | { ok: false; status: 400; message: string; fields: Record<string, string> };

/** The schema's answer in the house's 4xx shape: the first message, and one per field. */
export function checkAuctionSetup(input: unknown, now: number): AuctionSetupCheck {
  const result = auctionSetupSchema(now).safeParse(input);
  if (result.success) return { ok: true, setup: result.data };
  const fields = fieldErrorsOf(result.error);
  return { ok: false, status: 400, message: Object.values(fields)[0] ?? 'Check the auction set-up', fields };
}
