import type { Queryable } from '../../db/client.ts';
import { notify } from '../accounts/notifications.ts';
import type { Clock } from '../clock.ts';
import { composeEmail } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { formatUsd } from '../../shared/money.ts';
import { LOCAL_ZIP } from '../../shared/schemas/profile.ts';
import { OUTSIDE_AREA_AT_CLOSE } from './payment.ts';

/*
 * What bidders are told, written in the transaction of the change (the outbox): the bell and an
 * e-mail with a link back to the product. Event keys make a repeated step tell once.
 */

/** The product page, where the auction panel is (`/product/{id}`; `/products` is the gallery). */
const productPath = (productId: number) => `/product/${productId}`;

export function tellOutbid(
  tx: Queryable,
  clock: Clock,
  userId: number,
  auction: { id: number; productId: number },
  label: string,
  priceCents: number,
  bidId: number,
): void {
  const message = `Someone bid more than you on ${label}. The price is now ${formatUsd(priceCents)}.`;
  notify(tx, clock, userId, {
    type: 'auction_outbid',
    eventKey: `auction:${auction.id}:outbid:${bidId}`,
    title: "You've been outbid",
    message,
    actionUrl: productPath(auction.productId),
    actionText: 'Bid again',
    productId: auction.productId,
  });
  queueEmail(tx, clock, {
    userId,
    kind: 'auction_outbid',
    eventKey: `auction:${auction.id}:outbid:${bidId}:${userId}`,
    subject: `You've been outbid on ${label}`,
    body: composeEmail({
      heading: "You've been outbid",
      paragraphs: [message, 'If you still want it, bid again before the auction ends.'],
      action: { label: 'Bid again', path: productPath(auction.productId) },
    }),
  });
}

/** The auction ended for a reason other than the clock (the admin ended or cancelled it). */
export function tellEndedByShop(
  tx: Queryable,
  clock: Clock,
  bidders: number[],
  auction: { id: number; productId: number },
  label: string,
  reason: string,
): void {
  const message = `The shop ended the auction for ${label} early: ${reason}`;
  for (const userId of bidders) {
    notify(tx, clock, userId, {
      type: 'auction_ended',
      eventKey: `auction:${auction.id}:ended-early`,
      title: 'Auction ended early',
      message,
      actionUrl: productPath(auction.productId),
      actionText: 'View Product',
      productId: auction.productId,
    });
    queueEmail(tx, clock, {
      userId,
      kind: 'auction_result',
      eventKey: `auction:${auction.id}:ended-early:${userId}`,
      subject: `The auction for ${label} ended early`,
      body: composeEmail({ heading: 'Auction ended early', paragraphs: [message], action: { label: 'View Product', path: productPath(auction.productId) } }),
    });
  }
}

export interface Told {
  userId: number;
  key: string;
  title: string;
  message: string;
  action: { label: string; path: string };
}

/** One notification and its e-mail, keyed so a step run again tells once. */
export function tell(tx: Queryable, clock: Clock, auction: { id: number; productId: number }, told: Told): void {
  notify(tx, clock, told.userId, {
    type: 'auction_ended',
    eventKey: `auction:${auction.id}:${told.key}`,
    title: told.title,
    message: told.message,
    actionUrl: told.action.path,
    actionText: told.action.label,
    productId: auction.productId,
  });
  queueEmail(tx, clock, {
    userId: told.userId,
    kind: 'auction_result',
    eventKey: `auction:${auction.id}:${told.key}:${told.userId}`,
    subject: told.title,
    body: composeEmail({ heading: told.title, paragraphs: [told.message], action: told.action }),
  });
}

/** The end for everyone who bid: the winner won (their receipt comes with the order), the rest did not. */
export function tellSold(
  tx: Queryable,
  clock: Clock,
  auction: { id: number; productId: number; currentPriceCents: number | null },
  label: string,
  buyerId: number,
  bidders: number[],
  orderId: number,
): void {
  const price = formatUsd(auction.currentPriceCents ?? 0);
  tell(tx, clock, auction, {
    userId: buyerId,
    key: 'won',
    title: `You won ${label}`,
    message: `You won the auction for ${label} at ${price}. Your card on file was charged ${price} plus tax, with free local delivery in Laguna Beach; your receipt is on its way.`,
    action: { label: 'View Order', path: `/orders/${orderId}` },
  });
  for (const userId of bidders) {
    if (userId === buyerId) continue;
    tell(tx, clock, auction, {
      userId,
      key: 'lost',
      title: `You did not win ${label}`,
      message: `The auction for ${label} has ended and another bidder won it at ${price}. You were not charged. Thank you for bidding.`,
      action: { label: 'View Product', path: productPath(auction.productId) },
    });
  }
}

/** Ended with no sale: no bids, the reserve not met, or nobody paid. */
export function tellUnsold(tx: Queryable, clock: Clock, auction: { id: number; productId: number }, label: string, bidders: number[], why: string): void {
  for (const userId of bidders) {
    tell(tx, clock, auction, {
      userId,
      key: 'unsold',
      title: `The auction for ${label} ended without a sale`,
      message: `The auction for ${label} ended without a sale: ${why} Nobody was charged.`,
      action: { label: 'View Product', path: productPath(auction.productId) },
    });
  }
}

/** The winner's card was declined (or missing): they have until `dueAt` to pay. */
export function tellPaymentNeeded(
  tx: Queryable,
  clock: Clock,
  auction: { id: number; productId: number },
  label: string,
  buyerId: number,
  attempt: number,
  dueText: string,
): void {
  tell(tx, clock, auction, {
    userId: buyerId,
    key: `payment-needed:${buyerId}:${attempt}`,
    title: `Your payment for ${label} did not go through`,
    message: `You won ${label}, but your card could not be charged. Update your card and pay by ${dueText}, or the item goes to the next bidder.`,
    action: { label: 'Update Payment Method', path: '/profile?tab=payment' },
  });
}

/** The winner's address left the delivery area after bidding: not charged, told why, same time to pay as after a decline. */
export function tellAddressNeeded(
  tx: Queryable,
  clock: Clock,
  auction: { id: number; productId: number },
  label: string,
  buyerId: number,
  dueText: string,
): void {
  tell(tx, clock, auction, {
    userId: buyerId,
    key: `address-needed:${buyerId}`,
    title: `You won ${label}: update your address to pay`,
    message: `You won ${label}, but your card was not charged. ${OUTSIDE_AREA_AT_CLOSE} Put an address in ${LOCAL_ZIP} in your profile by ${dueText}: your card on file is then charged within minutes (or pay at once with Retry). After that, the item goes to the next bidder.`,
    action: { label: 'Update Address', path: '/profile?tab=personal' },
  });
}

/** The runner-up's second-chance offer: the item at their own maximum. */
export function tellSecondChance(
  tx: Queryable,
  clock: Clock,
  auction: { id: number; productId: number },
  label: string,
  userId: number,
  priceCents: number,
  dueText: string,
): void {
  tell(tx, clock, auction, {
    userId,
    key: `second-chance:${userId}`,
    title: `A second chance at ${label}`,
    message: `The winner of ${label} did not pay. You may buy it at your maximum bid, ${formatUsd(priceCents)}, until ${dueText}.`,
    action: { label: 'View Offer', path: productPath(auction.productId) },
  });
}

/** The runner-up below the reserve when the winner did not pay: no offer is made, in the store's words. */
export function tellNoSecondChance(tx: Queryable, clock: Clock, auction: { id: number; productId: number }, label: string, userId: number): void {
  tell(tx, clock, auction, {
    userId,
    key: `no-second-chance:${userId}`,
    title: `No second chance at ${label}`,
    message: `The winner of ${label} did not pay, and the auction ended without a sale. A second-chance offer is made only at or above the reserve price, and your maximum bid was below it, so nothing was offered to you. You were not charged.`,
    action: { label: 'View Product', path: productPath(auction.productId) },
  });
}
