import * as z from 'zod/mini';
import { fromStoreInput } from '../store-time.ts';
import { formText } from './fields.ts';

/*
 * The admin's auction forms as posted (issue 28, item 1; server-rendered, no JavaScript needed).
 * Each post is turned into the body `PUT /api/admin/products/{id}/auction` takes, so the domain's
 * one set of rules (auctions/increments.ts) checks both and words every field message.
 */

/** POST /admin/products/{id}/auction: the set-up form (a ticked box sends 'on'). */
export const auctionSetupForm = z.object({
  startingBid: formText(40),
  increment: formText(40),
  reservePrice: formText(40),
  startsAt: formText(40),
  endsAt: formText(40),
  keepBuyNow: formText(5),
  /** The Size select (issue 38): a variant's id, shown only for a product with several sizes. */
  variantId: formText(20),
});

export type AuctionSetupFormPost = z.output<typeof auctionSetupForm>;

/** POST /admin/products/{id}/auction/end and /cancel: the reason, checked by the API's own schemas. */
export const auctionReasonForm = z.object({
  reason: formText(1000),
  /** Posted from the Auctions tab: the filter to come back to. */
  back: formText(40),
  /** 'yes' once the admin confirmed on the confirmation step (End early); without it nothing changes. */
  confirmed: formText(3),
});

/** A typed amount as a number for the domain's check; anything else is passed as typed so its message names the field. */
function amount(typed: string | undefined): number | string | null {
  const text = (typed ?? '').trim().replace(/^\$/, '').replaceAll(',', '');
  if (text === '') return null;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

const TIME_HINT = 'Enter a date and time, such as 12/01/2026 6:00 PM';

/**
 * The form's fields as the API's body: blanks mean 'not set' (the ladder, no reserve, now, 7
 * days), and the datetime-local fields are store time. A time that is not one is a field error here.
 */
export function auctionSetupInput(post: AuctionSetupFormPost): { input: Record<string, unknown>; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const time = (name: 'startsAt' | 'endsAt') => {
    const typed = (post[name] ?? '').trim();
    if (typed === '') return null;
    const iso = fromStoreInput(typed);
    if (iso === null) errors[name] = TIME_HINT;
    return iso;
  };
  const startingBid = amount(post.startingBid);
  const input = {
    // A blank starting bid is still sent, so the domain says it is needed.
    startingBid: startingBid ?? '',
    increment: amount(post.increment),
    reservePrice: amount(post.reservePrice),
    startsAt: time('startsAt'),
    endsAt: time('endsAt'),
    keepBuyNow: post.keepBuyNow === 'on' || post.keepBuyNow === 'true',
    // Passed as chosen: the domain says which sizes there are when none (or another product's) is.
    variantId: (post.variantId ?? '').trim() || null,
  };
  return { input, errors };
}
