import * as z from 'zod/mini';

/*
 * The request bodies of the auction calls (browser-safe). The amounts' own rules live in
 * domain/auctions (increments.ts for the set-up, proxy.ts checkBidInput for a bid), so a body
 * here is only checked to be an object; each field's message comes from those rules.
 */

/** POST /api/products/{id}/bids: `maxAmount` in dollars (checked by checkBidInput). */
export const bidBody = z.object({ maxAmount: z.optional(z.unknown()) }, { error: 'Send your bid as a JSON object with maxAmount.' });

/** PUT /api/admin/products/{id}/auction: the fields of auctionSetupSchema. */
export const auctionSetupBody = z.record(z.string(), z.unknown(), { error: 'Send the auction as a JSON object.' });

const reason = z
  .string({ error: 'Say why the auction ends (the bidders are told).' })
  .check(z.trim(), z.minLength(3, 'Say why the auction ends (at least 3 characters).'), z.maxLength(500, 'At most 500 characters.'));

/** POST /api/admin/products/{id}/auction/end: the reason every bidder reads. */
export const auctionEndBody = z.object({ reason });

/** POST /api/admin/products/{id}/auction/cancel: a reason is optional (nobody has bid). */
export const auctionCancelBody = z.object({ reason: z.optional(z.string().check(z.trim(), z.maxLength(500, 'At most 500 characters.'))) });

/** The admin's Auctions tab: which auctions to list. */
export const ADMIN_AUCTION_FILTERS = ['running', 'ended', 'unsold', 'awaiting_payment'] as const;
export type AdminAuctionFilter = (typeof ADMIN_AUCTION_FILTERS)[number];

/** GET /api/admin/auctions?status= (running when absent). */
export const adminAuctionsQuery = z.object({
  status: z.optional(z.enum(ADMIN_AUCTION_FILTERS, { error: `status must be one of ${ADMIN_AUCTION_FILTERS.join(', ')}` })),
});
