import { formatDateTime } from '../../../components/format.ts';
import type { AdminOrder } from '../../../domain/orders/admin-orders.ts';
import type { ReturnRequestRow } from '../../../domain/orders/aftersale.ts';
import { formatCents } from '../../../shared/pricing.ts';
import { CARRIERS } from '../../../shared/schemas/aftersale.ts';

/*
 * The Orders tab after the sale: return requests under Needs attention, and on each order its
 * shipment, return request and refunds (with reasons), the Ship form and the Refund form.
 * Plain form posts (aftersale-forms.tsx), like every admin action.
 */

const field = 'w-full rounded-lg border border-slate-300 px-2 py-1.5 text-base sm:text-sm';
const button = 'cursor-pointer whitespace-nowrap rounded-lg px-3 py-2 text-sm font-bold';

export function ReturnRequests({ items }: { items: ReturnRequestRow[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="returns-title" className="mb-4 rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-6">
      <h2 id="returns-title" className="m-0 text-lg font-bold">{`Needs attention: Return requests (${items.length})`}</h2>
      <ul className="m-0 mt-3 grid list-none gap-2 p-0 text-sm">
        {items.map((item) => (
          <li key={item.orderId} data-return-request={item.orderId}>
            <a href={`#order-${item.orderId}`} className="font-semibold text-sea-dark">{`Order #${item.orderId}`}</a>
            {` · ${item.customerName ?? 'Customer'} · ${formatCents(item.totalCents)} · asked ${formatDateTime(item.requestedAt)}: "${item.reason}"`}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function OrderAfterSale({ order }: { order: AdminOrder }) {
  const after = order.afterSale;
  // A new key each time the form is shown (issue 34, item 6): the same form sent twice refunds once,
  // while two tabs, or the form opened again after a refund, are two refunds (within what is left).
  const refundKey = `refund-${crypto.randomUUID()}`;
  return (
    <>
      {(after.shipment || after.returnRequest || after.refunds.length > 0) && (
        <ul className="m-0 mt-2 grid list-none gap-1 p-0 text-sm" aria-label={`After the sale, order #${order.id}`}>
          {after.shipment && (
            <li>{`Shipped ${formatDateTime(after.shipment.shippedAt)} with ${after.shipment.carrier}, tracking number ${after.shipment.trackingNumber}`}</li>
          )}
          {after.returnRequest && (
            <li className={after.returnRequest.open ? 'font-semibold text-amber-800' : undefined}>
              {`Return requested ${formatDateTime(after.returnRequest.at)}: "${after.returnRequest.reason}"${after.returnRequest.open ? '' : ' (refunded)'}`}
            </li>
          )}
          {after.refunds.map((refund) => (
            <li key={`${refund.at}-${refund.amountCents}`}>
              {`${refund.state === 'refunded' ? 'Refunded' : refund.state === 'refunding' ? 'Refund being confirmed' : 'Refund refused'} ${formatCents(refund.amountCents)} (${formatDateTime(refund.at)}): ${refund.reason}`}
            </li>
          ))}
        </ul>
      )}
      {after.canShip && (
        <form method="post" action={`/admin/orders/${order.id}/ship`} className="mt-3 grid gap-2 sm:flex sm:flex-wrap sm:items-end">
          <label className="grid gap-1 text-sm">
            <span className="font-semibold">Carrier</span>
            <select name="carrier" className={field} required>
              {CARRIERS.map((carrier) => (
                <option key={carrier} value={carrier}>
                  {carrier}
                </option>
              ))}
            </select>
          </label>
          <label className="grid min-w-0 gap-1 text-sm sm:flex-1">
            <span className="font-semibold">Tracking number</span>
            <input name="trackingNumber" className={field} required minLength={6} maxLength={60} autoComplete="off" />
          </label>
          <button type="submit" className={`${button} bg-ink text-white hover:bg-slate-800`}>
            Mark Shipped<span className="sr-only">{` (order #${order.id})`}</span>
          </button>
        </form>
      )}
      {after.canRefund && (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer font-semibold text-sea-dark">
            Refund<span className="sr-only">{` order #${order.id}`}</span>
          </summary>
          <form method="post" action={`/admin/orders/${order.id}/refund`} className="mt-2 grid gap-2 sm:grid-cols-[10rem_1fr_auto] sm:items-end">
            <input type="hidden" name="key" value={refundKey} />
            <label className="grid gap-1">
              <span className="font-semibold">Amount ($)</span>
              <input name="amount" inputMode="decimal" className={field} placeholder="All that is left" autoComplete="off" />
            </label>
            <label className="grid gap-1">
              <span className="font-semibold">Reason (the customer sees it)</span>
              <input name="reason" className={field} required minLength={3} maxLength={500} autoComplete="off" />
            </label>
            <button type="submit" className={`${button} border border-red-300 bg-white text-red-700 hover:border-red-600`}>
              Refund to card<span className="sr-only">{` (order #${order.id})`}</span>
            </button>
            <p className="m-0 text-xs text-slate-600 sm:col-span-3">
              {after.guaranteeEndsAt
                ? `The 30-day guarantee ends ${formatDateTime(after.guaranteeEndsAt)}. Leave the amount empty to refund everything not yet refunded.`
                : 'Not delivered yet: the 30-day guarantee starts at delivery. Leave the amount empty to refund everything not yet refunded.'}
            </p>
          </form>
        </details>
      )}
    </>
  );
}
