import type { OrderView } from '../domain/orders/order-views.ts';
import { formatDateTime, orderStatusClass, orderStatusLabel } from './format.ts';
import { sizeText } from '../shared/size-label.ts';

/**
 * One order: number, date, status in its colour, items with thumbnails, and totals. `linked`
 * false leaves out its links to the order page, for a page that already has its one link there.
 */
export function OrderCard({
  order,
  detailed = false,
  linked = true,
  retryPayment = false,
}: {
  order: OrderView;
  detailed?: boolean;
  linked?: boolean;
  /** An auction order whose card was declined while the item is still held for the buyer: Retry is on its page. */
  retryPayment?: boolean;
}) {
  return (
    <article className="rounded-2xl border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="m-0 text-base font-bold">
          {linked ? <a href={`/orders/${order.id}`} className="text-ink">{`Order #${order.id}`}</a> : `Order #${order.id}`}
        </h3>
        <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${orderStatusClass(order.status)}`} data-status={order.status}>
          {orderStatusLabel[order.status] ?? order.status}
        </span>
      </div>
      <p className="m-0 mt-1 text-sm text-slate-600">{formatDateTime(order.createdAt)}</p>
      {order.donation && <p className="m-0 mt-1 text-sm font-semibold text-sea-dark">{`Donation to ${order.donation.charity}`}</p>}
      {'declinedAttempts' in order && typeof order.declinedAttempts === 'number' && order.declinedAttempts > 0 && (
        <p className="m-0 mt-1 text-sm text-slate-600">{`${order.declinedAttempts} declined attempt${order.declinedAttempts === 1 ? '' : 's'} before this order`}</p>
      )}
      <ul className="m-0 mt-3 grid grid-cols-1 list-none gap-2 p-0">
        {order.items.map((item) => (
          <li key={item.id} className="flex items-center gap-3">
            <img src={item.product.imageUrl} alt="" width={48} height={48} loading="lazy" className="h-12 w-12 rounded-lg bg-slate-50 object-contain" />
            <span className="min-w-0 flex-1 text-sm">
              <span className="block truncate font-semibold">{item.label}</span>
              <span className="block truncate text-slate-600">
                {[item.product.model, sizeText(item.size), item.purchaseType === 'play' ? 'Prize' : '', `Qty ${item.quantity}`].filter(Boolean).join(' · ')}
              </span>
            </span>
            <span className="text-sm font-semibold">{`$${(item.price * item.quantity).toFixed(2)}`}</span>
          </li>
        ))}
      </ul>
      <dl className="m-0 mt-3 grid grid-cols-[1fr_auto] gap-y-1 border-t border-slate-100 pt-3 text-sm">
        {detailed && (
          <>
            <dt>Subtotal</dt>
            <dd className="m-0 text-right">{`$${order.subtotal.toFixed(2)}`}</dd>
            {!order.donation && (
              <>
                <dt>Shipping</dt>
                <dd className="m-0 text-right">{order.shipping === 0 ? 'Free' : `$${order.shipping.toFixed(2)}`}</dd>
              </>
            )}
            <dt>Tax</dt>
            <dd className="m-0 text-right">{`$${order.tax.toFixed(2)}`}</dd>
          </>
        )}
        <dt className="font-bold">Total</dt>
        <dd className="m-0 text-right font-bold">{`$${order.total.toFixed(2)}`}</dd>
      </dl>
      {retryPayment && (
        <p className="m-0 mt-3 text-sm">
          <a
            href={`/orders/${order.id}#payment-title`}
            className="inline-block rounded-lg bg-ink px-4 py-2 font-bold text-white no-underline hover:bg-ink-light"
          >
            Retry payment<span className="sr-only">{` for order #${order.id}`}</span>
          </a>
        </p>
      )}
      {linked && (
        <p className="m-0 mt-3 text-sm">
          <a href={`/orders/${order.id}`} className="font-semibold text-sea-dark">
            View order details<span className="sr-only">{` for order #${order.id}`}</span>
          </a>
        </p>
      )}
    </article>
  );
}
