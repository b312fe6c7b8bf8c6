import { csvCell } from '../../shared/csv.ts';
import { withSize } from '../../shared/size-label.ts';
import type { AdminOrder } from './admin-orders.ts';

const CSV_COLUMNS = [
  'Order',
  'Placed',
  'Status',
  'Customer',
  'E-mail',
  'Phone',
  'Address',
  'Delivery',
  'Items',
  'Sizes',
  'Subtotal',
  'Shipping',
  'Tax',
  'Total',
  'Payment',
  'Refunded',
  'Notes',
];

/** The Orders tab as CSV (the same filter), for the books and for delivery runs. */
export function ordersCsv(list: AdminOrder[], formatTime: (ms: number) => string): string {
  const rows = list.map((order) =>
    [
      order.id,
      formatTime(order.orderDate),
      order.status,
      order.customer.name,
      order.customer.email,
      order.delivery.phone,
      order.delivery.address,
      order.delivery.methodLabel,
      order.items.map((item) => `${item.quantity} x ${withSize(item.label, item.size)}${item.purchaseType === 'play' ? ' (prize)' : ''}`).join('; '),
      // One entry per line, in the Items' order ('-' for a line without a size), for sorting and packing by size.
      order.items.some((item) => item.size) ? order.items.map((item) => item.size || '-').join('; ') : '',
      order.subtotal.toFixed(2),
      order.shipping.toFixed(2),
      order.tax.toFixed(2),
      order.total.toFixed(2),
      order.paymentLabel,
      order.refunded.toFixed(2),
      order.delivery.notes,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
