import type { Queryable } from '../../db/client.ts';
import { notify } from '../accounts/notifications.ts';
import type { Clock } from '../clock.ts';
import { composeEmail } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { formatUsd } from '../../shared/money.ts';

/*
 * What bidders are told, written in the transaction of the change (the outbox): the bell and an
 * e-mail with a link back to the product. Event keys make a repeated step tell once.
 */

const productPath = (productId: number) => `/products/${productId}`;

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
      paragraphs: [message, 'Bid again before the auction ends if you still want it.'],
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
