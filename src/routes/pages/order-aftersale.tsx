import { formatDateTime } from '../../components/format.ts';
import type { OrderDetail } from '../../domain/orders/order-views.ts';

/** The return form's state: the key of a guest's link (posted back with the form), and a refusal to show with what was typed. */
export interface ReturnFormState {
  key?: string;
  refusal?: { reason: string; message: string };
}

/** The order page after the sale: the parcel's tracking, and the 30-day guarantee's 'Request a return'. */
export function AfterSale({ order, form }: { order: OrderDetail; form: ReturnFormState }) {
  const action = `/orders/${order.id}/return-request${form.key ? `?key=${encodeURIComponent(form.key)}` : ''}`;
  return (
    <>
      {order.shipment && (
        <section aria-labelledby="tracking-title" className="rounded-2xl border border-slate-200 bg-white p-5 print:border-0 print:p-0" data-tracking>
          <h2 id="tracking-title" className="m-0 text-lg font-bold">
            Tracking
          </h2>
          <p className="m-0 mt-2 text-sm">{`Shipped with ${order.shipment.carrier}`}</p>
          <p className="m-0 text-sm">
            {'Tracking number '}
            <span className="font-mono font-semibold break-all">{order.shipment.trackingNumber}</span>
          </p>
          {order.shipment.url && (
            <a href={order.shipment.url} className="mt-2 inline-block text-sm font-semibold text-sea-dark" rel="noopener noreferrer" target="_blank">
              {`Track it with ${order.shipment.carrier}`}
              <span className="sr-only"> (opens in a new tab)</span>
            </a>
          )}
        </section>
      )}
      <section id="return" aria-labelledby="return-title" className="rounded-2xl border border-slate-200 bg-white p-5 print:hidden">
        <h2 id="return-title" className="m-0 text-lg font-bold">
          Returns
        </h2>
        {form.refusal && !order.canRequestReturn && (
          <p role="alert" className="m-0 mt-2 text-sm text-red-700">
            <span className="font-semibold">{form.refusal.message}</span>
            {` You wrote: "${form.refusal.reason}"`}
          </p>
        )}
        {order.returnRequest ? (
          <p className="m-0 mt-2 text-sm" data-return-requested>
            <span className="font-semibold">{`Return requested ${formatDateTime(order.returnRequest.at)}: `}</span>
            {`"${order.returnRequest.reason}" `}
            {order.returnRequest.answered
              ? 'We refunded it: the refund and its reason are under Status.'
              : 'We will e-mail you within one business day; a refund shows here when it is made.'}
          </p>
        ) : order.canRequestReturn ? (
          <form method="post" action={action} className="mt-2 grid gap-2">
            {form.key && <input type="hidden" name="key" value={form.key} />}
            <label htmlFor="return-reason" className="text-sm font-semibold">
              What is wrong with it?
            </label>
            <textarea
              id="return-reason"
              name="reason"
              required
              minLength={3}
              maxLength={500}
              rows={3}
              className="w-full rounded-lg border border-slate-300 p-2 text-base"
              aria-describedby={form.refusal ? 'return-error return-hint' : 'return-hint'}
              aria-invalid={form.refusal ? true : undefined}
              defaultValue={form.refusal?.reason}
            />
            {form.refusal && (
              <p id="return-error" role="alert" className="m-0 text-sm font-semibold text-red-700">
                {form.refusal.message}
              </p>
            )}
            <p id="return-hint" className="m-0 text-xs text-slate-600">
              Our 30-day money-back guarantee applies. We answer within one business day.
            </p>
            <button type="submit" className="justify-self-start cursor-pointer rounded-lg bg-ink px-4 py-2 text-sm font-bold text-white hover:bg-slate-800">
              Request a return
            </button>
          </form>
        ) : (
          <p className="m-0 mt-2 text-sm text-slate-600">Not happy with your order? Our 30-day money-back guarantee applies once it is delivered.</p>
        )}
        <p className="m-0 mt-2 text-sm">
          <a href="/returns" className="font-semibold text-sea-dark">
            How returns work
          </a>
        </p>
      </section>
    </>
  );
}
