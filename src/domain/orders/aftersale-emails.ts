import type { Queryable } from '../../db/client.ts';
import type { orders } from '../../db/schema.ts';
import { formatCents } from '../../shared/pricing.ts';
import { trackingUrl } from '../../shared/schemas/aftersale.ts';
import type { Clock } from '../clock.ts';
import { composeEmail } from '../mail/compose.ts';
import { addressLinesOf, parcelRows, paymentLabelOf } from './order-emails.ts';
import { queueEmail } from '../mail/outbox.ts';
import { orderMailFootnote, orderPathFor } from './order-links.ts';

/* The after-sale messages: a refund an admin gave, a parcel on its way, a return asked for (to support). */

type OrderRow = typeof orders.$inferSelect;

export function queueAfterSaleRefundEmail(tx: Queryable, clock: Clock, order: OrderRow, refund: { id: number; amountCents: number; reason: string }): void {
  queueEmail(tx, clock, {
    userId: order.userId,
    to: order.customerEmail,
    kind: 'order_refund',
    eventKey: `order:${order.id}:refund:${refund.id}`,
    subject: `Refund of ${formatCents(refund.amountCents)} for order #${order.id}`,
    body: composeEmail({
      heading: 'Your refund is on its way',
      paragraphs: [
        `We refunded ${formatCents(refund.amountCents)} of order #${order.id} to ${paymentLabelOf(order).replace(/^Card: /, 'your ')}.`,
        `Reason: ${refund.reason}`,
        'Refunds usually reach your account within 5-10 business days, depending on your bank.',
      ],
      rows: [
        ['Order', `#${order.id}`],
        ['Refunded', formatCents(refund.amountCents)],
      ],
      action: { label: 'View your order', path: orderPathFor(tx, order) },
    }),
  });
}

export function queueShippedEmail(tx: Queryable, clock: Clock, order: OrderRow): void {
  const carrier = order.carrier ?? '';
  const number = order.trackingNumber ?? '';
  const url = trackingUrl(carrier, number);
  queueEmail(tx, clock, {
    userId: order.userId,
    to: order.customerEmail,
    kind: 'order_delivered',
    eventKey: `order:${order.id}:shipped`,
    subject: `Order #${order.id} has shipped`,
    body: composeEmail({
      heading: 'Your order is on its way',
      paragraphs: [
        `Order #${order.id} was handed to ${carrier} for ${addressLinesOf(order)}.`,
        url ? `Track it with ${carrier}: ${url}` : `Your ${carrier} tracking number is ${number}.`,
      ],
      rows: [['Carrier', carrier], ['Tracking number', number], ...parcelRows(tx, order.id)],
      action: { label: 'View your order', path: orderPathFor(tx, order) },
      footnote: orderMailFootnote(tx, order),
    }),
  });
}

/** To the shop's support address: a person decides and refunds from the admin Orders tab. */
export function queueReturnRequestEmail(tx: Queryable, clock: Clock, order: OrderRow, supportEmail: string): void {
  queueEmail(tx, clock, {
    userId: null,
    to: supportEmail,
    kind: 'order_refund',
    eventKey: `order:${order.id}:return-request`,
    subject: `Return requested for order #${order.id}`,
    body: composeEmail({
      heading: `Return requested: order #${order.id}`,
      paragraphs: [
        `${order.customerName ?? 'The customer'} (${order.customerEmail ?? 'no e-mail'}) asked to return order #${order.id} (${formatCents(order.totalCents)}).`,
        `Reason: ${order.returnReason ?? ''}`,
        'Refund it in full or in part from the admin Orders tab, where it is listed under Needs attention.',
      ],
      // What comes back, in which size.
      rows: parcelRows(tx, order.id),
      action: { label: 'Open the Orders tab', path: '/admin?tab=orders' },
    }),
  });
}
