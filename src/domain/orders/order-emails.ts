import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { orderItems, type orders } from '../../db/schema.ts';
import { formatCents } from '../../shared/pricing.ts';
import type { Clock } from '../clock.ts';
import { composeEmail } from '../mail/compose.ts';
import { queueEmail } from '../mail/outbox.ts';
import { orderMailFootnote, orderPathFor } from './order-links.ts';
import { freeEntriesOfOrder } from '../games/free-entries.ts';
import { freeEntryDate } from '../../shared/free-entries.ts';
import { withSize } from '../../shared/size-label.ts';

/*
 * The order messages: the confirmation with its receipt, the refund and the delivery. Each is
 * queued in the transaction that moved the order, once per event (the eventKey), to the address
 * given at checkout, or the account's when there was none.
 */

type OrderRow = typeof orders.$inferSelect;

const PAYMENT_LABELS: Record<string, string> = { square: 'Card', apple_pay: 'Apple Pay', cod: 'Cash on delivery', play: 'Game entry' };
const SHIPPING_LABELS: Record<string, string> = {
  standard: 'Standard Shipping (5-7 business days)',
  express: 'Express Shipping (2-3 business days)',
  local: 'Automatic Delivery - Free (within 2-3 hours)',
};

export function paymentLabelOf(order: Pick<OrderRow, 'paymentMethod' | 'cardBrand' | 'cardLast4'>): string {
  const method = PAYMENT_LABELS[order.paymentMethod] ?? order.paymentMethod;
  if (!order.cardLast4) return method;
  const brand = order.cardBrand ? order.cardBrand.charAt(0) + order.cardBrand.slice(1).toLowerCase().replace(/_/g, ' ') : 'Card';
  return `${method}: ${brand} ending in ${order.cardLast4}`;
}

export function shippingLabelOf(method: string): string {
  return SHIPPING_LABELS[method] ?? method;
}

export function addressLinesOf(order: OrderRow): string {
  return [order.shippingAddress, [order.shippingCity, order.shippingState, order.shippingZipCode].filter(Boolean).join(' '), order.shippingCountry]
    .filter(Boolean)
    .join(', ');
}

/** What a line's way of buying adds to its receipt row. */
const ITEM_NOTES: Record<string, string> = { play: ' (prize)', mystery_box: ' (drawn for you: your order page shows the seed and how to check the draw)' };

const itemsOf = (tx: Queryable, orderId: number) => tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.id).all();

/** What is in the parcel, without prices (the shipped and delivered messages): each line with its size. */
export function parcelRows(tx: Queryable, orderId: number): Array<[string, string]> {
  return itemsOf(tx, orderId).map((item) => [withSize(item.productLabel, item.sizeLabel), `x ${item.quantity}`]);
}

function receiptRows(tx: Queryable, order: OrderRow): Array<[string, string]> {
  const delivery: Array<[string, string]> = order.donationTo
    ? [['Donated to', `${order.donationTo}, ${addressLinesOf(order)}`]]
    : [
        ['Delivery', shippingLabelOf(order.shippingMethod)],
        ['Deliver to', addressLinesOf(order)],
      ];
  return [
    ...itemsOf(tx, order.id).map((item): [string, string] => [
      `${withSize(item.productLabel, item.sizeLabel)}${ITEM_NOTES[item.purchaseType] ?? ''} x ${item.quantity}`,
      formatCents(item.priceCents * item.quantity),
    ]),
    ['Subtotal', formatCents(order.subtotalCents)],
    // A donation is handed to the charity by the store: no shipping line that suggests a delivery to the buyer.
    ...(order.donationTo ? [] : [['Shipping', order.shippingCents === 0 ? 'Free' : formatCents(order.shippingCents)] as [string, string]]),
    ['Tax', formatCents(order.taxCents)],
    ['Total', formatCents(order.totalCents)],
    ['Payment', paymentLabelOf(order)],
    ...delivery,
  ];
}

function greeting(order: OrderRow): string {
  const first = order.customerName?.trim().split(/\s+/)[0];
  return first ? `Thank you, ${first}!` : 'Thank you!';
}

/** A donation's receipt: what was given and to whom; nothing is delivered to the buyer, so no delivery is promised. */
function queueDonationReceipt(tx: Queryable, clock: Clock, order: OrderRow, charity: string): void {
  queueEmail(tx, clock, {
    userId: order.userId,
    to: order.customerEmail,
    kind: 'order_confirmation',
    eventKey: `order:${order.id}:confirmation`,
    subject: `Donation to ${charity}: thank you`,
    body: composeEmail({
      heading: `Donation to ${charity}: thank you`,
      paragraphs: [
        `Your donation #${order.id} has been placed and your payment of ${formatCents(order.totalCents)} has been processed.`,
        `We hand it over to ${charity} at ${addressLinesOf(order)}, and tell you when we have.`,
      ],
      rows: receiptRows(tx, order),
      action: { label: 'View your donation', path: orderPathFor(tx, order) },
      footnote: `This is your receipt for donation #${order.id}. Keep it for your records.`,
    }),
  });
}

/** Buy one, play free: what the order gave (cash on delivery gives them once delivered, so its receipt names none). */
function freeEntriesLine(tx: Queryable, orderId: number): string[] {
  const given = freeEntriesOfOrder(tx, orderId);
  if (given.length === 0) return [];
  const n = given.length;
  return [
    `Buy one, play free: this order gives you ${n} free game ${n === 1 ? 'entry' : 'entries'}, to use by ${freeEntryDate(given[0]!.expiresAt)}. Join any game without the $1 entry fee from its play page.`,
  ];
}

/** Placed (cash on delivery) or paid (card): the receipt. */
export function queueOrderConfirmation(tx: Queryable, clock: Clock, order: OrderRow): void {
  if (order.donationTo) {
    queueDonationReceipt(tx, clock, order, order.donationTo);
    return;
  }
  const cash = order.paymentMethod === 'cod';
  queueEmail(tx, clock, {
    userId: order.userId,
    to: order.customerEmail,
    kind: 'order_confirmation',
    eventKey: `order:${order.id}:confirmation`,
    subject: `Your order #${order.id} is confirmed`,
    body: composeEmail({
      heading: greeting(order),
      paragraphs: [
        cash
          ? `Your order #${order.id} has been placed. You pay ${formatCents(order.totalCents)} in cash when it is delivered.`
          : `Your order #${order.id} has been placed and your payment of ${formatCents(order.totalCents)} has been processed.`,
        order.shippingMethod === 'local'
          ? 'It will be delivered to you within 2-3 hours (Laguna Beach, 92651).'
          : `It ships by ${shippingLabelOf(order.shippingMethod)}.`,
        'Not happy with it? Our 30-day money-back guarantee applies.',
        ...freeEntriesLine(tx, order.id),
      ],
      rows: receiptRows(tx, order),
      action: { label: 'View your order', path: orderPathFor(tx, order) },
      footnote: `This is your receipt for order #${order.id}. Keep it for your records.`,
    }),
  });
}

export function queueRefundEmail(tx: Queryable, clock: Clock, order: OrderRow, refundCents: number): void {
  queueEmail(tx, clock, {
    userId: order.userId,
    to: order.customerEmail,
    kind: 'order_refund',
    eventKey: `order:${order.id}:refunded`,
    subject: `Refund for order #${order.id}`,
    body: composeEmail({
      heading: 'Your refund is on its way',
      paragraphs: [
        `Order #${order.id} was canceled and ${formatCents(refundCents)} has been refunded to ${paymentLabelOf(order).replace(/^Card: /, 'your ')}.`,
        'Refunds usually reach your account within 5-10 business days, depending on your bank.',
      ],
      rows: [
        ['Order', `#${order.id}`],
        ['Refunded', formatCents(refundCents)],
      ],
      action: { label: 'View your order', path: orderPathFor(tx, order) },
    }),
  });
}

/** Canceled without a charge to give back (cash on delivery). */
export function queueCanceledEmail(tx: Queryable, clock: Clock, order: OrderRow): void {
  queueEmail(tx, clock, {
    userId: order.userId,
    to: order.customerEmail,
    kind: 'order_refund',
    eventKey: `order:${order.id}:canceled`,
    subject: `Order #${order.id} was canceled`,
    body: composeEmail({
      heading: 'Your order was canceled',
      paragraphs: [`Order #${order.id} was canceled. Nothing was charged, so there is nothing to refund.`],
      action: { label: 'View your order', path: orderPathFor(tx, order) },
    }),
  });
}

export function queueDeliveredEmail(tx: Queryable, clock: Clock, order: OrderRow): void {
  if (order.donationTo) {
    queueEmail(tx, clock, {
      userId: order.userId,
      to: order.customerEmail,
      kind: 'order_delivered',
      eventKey: `order:${order.id}:delivered`,
      subject: `Your donation #${order.id} was handed over`,
      body: composeEmail({
        heading: 'Handed over',
        paragraphs: [`Your donation #${order.id} was handed over to ${order.donationTo}. Thank you for giving!`],
        action: { label: 'View your donation', path: orderPathFor(tx, order) },
        footnote: orderMailFootnote(tx, order),
      }),
    });
    return;
  }
  queueEmail(tx, clock, {
    userId: order.userId,
    to: order.customerEmail,
    kind: 'order_delivered',
    eventKey: `order:${order.id}:delivered`,
    subject: `Order #${order.id} was delivered`,
    body: composeEmail({
      heading: 'Delivered',
      paragraphs: [
        `Your order #${order.id} was delivered to ${addressLinesOf(order)}.`,
        'Something wrong? Our 30-day money-back guarantee applies: reply to this message or see our returns page.',
        // Cash on delivery is paid now, so its free entries are given now: this message names them.
        ...(order.paymentMethod === 'cod' ? freeEntriesLine(tx, order.id) : []),
      ],
      rows: parcelRows(tx, order.id),
      action: { label: 'View your order', path: orderPathFor(tx, order) },
      footnote: orderMailFootnote(tx, order),
    }),
  });
}
