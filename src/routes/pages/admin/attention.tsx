import { formatDateTime } from '../../../components/format.ts';
import { formatDollars } from '../../../shared/money.ts';
import type { AttentionItem, AttentionProblem, GatewayView, ReviewAction } from '../../../domain/payments/payment-review.ts';

/*
 * The Orders tab's "Needs attention" list (issue 9): payments the reconciler could not finish,
 * with what the payment gateway says about each, and the safe actions as plain form posts.
 */

export type AttentionRow = AttentionItem & { gateway: GatewayView };

const problemText: Record<AttentionProblem, string> = {
  unconfirmed_charge: 'The card processor has not confirmed this charge.',
  unconfirmed_hold: 'The card processor has not confirmed this hold.',
  unconfirmed_refund: 'The card processor has not confirmed this refund yet; it is retried with the same key.',
  capture_failed: 'This hold could not be captured after several tries.',
  void_failed: 'This hold could not be released after several tries.',
  expired: 'This hold expired before it was captured.',
  refund_refused: 'The card processor refused this refund; the order is back to processing.',
  gateway_mismatch: "The card processor's payment under this key does not match it (amount, currency, reference or already used), so it was not marked paid.",
  shared_payment: 'The card processor payment of this order also paid another one; check in Square whether this order was really paid.',
};

const actionLabel: Record<ReviewAction, string> = {
  check: 'Check with Square',
  mark_paid: 'Mark paid',
  mark_failed: 'Mark failed',
  retry: 'Retry',
  dismiss: 'Mark as dealt with',
};

function gatewayText(view: GatewayView): string {
  if (view.status === 'UNREACHABLE') return 'Square: cannot be reached';
  if (view.status === 'NOT_FOUND') return 'Square: no such payment';
  const reference = view.referenceId ? `, reference ${view.referenceId}` : '';
  return `Square: ${view.status}${view.amount !== null ? ` ${formatDollars(view.amount)}` : ''}${view.gatewayPaymentId ? ` (id ${view.gatewayPaymentId}${reference})` : ''}`;
}

const button = 'cursor-pointer whitespace-nowrap rounded-lg px-3 py-2 text-sm font-bold';

function ActionForm({ item, action }: { item: AttentionRow; action: ReviewAction }) {
  const label = `${actionLabel[action]}`;
  const target = <span className="sr-only">{` (payment #${item.paymentId})`}</span>;
  return (
    <form method="post" action={`/admin/payments/${item.paymentId}/resolve`} className="flex flex-wrap items-end gap-2">
      <input type="hidden" name="action" value={action} />
      {action === 'mark_paid' && (
        <>
          <label className="grid gap-1 text-xs font-semibold text-slate-700">
            Square payment id
            <input
              name="gatewayPaymentId"
              required
              maxLength={100}
              className="h-9 w-56 max-w-full rounded-lg border border-slate-300 px-2 text-sm font-normal"
            />
          </label>
          <label className="grid gap-1 text-xs font-semibold text-slate-700">
            {`Reason, only to use a payment made for another reference than ${item.reference}`}
            <input name="overrideReason" maxLength={500} className="h-9 w-72 max-w-full rounded-lg border border-slate-300 px-2 text-sm font-normal" />
          </label>
        </>
      )}
      {action === 'mark_failed' && (
        <label className="flex items-center gap-2 text-xs font-semibold text-slate-700">
          <input type="checkbox" name="confirmed" value="yes" required />I checked: no money was taken
        </label>
      )}
      <button
        type="submit"
        className={`${button} ${action === 'mark_failed' ? 'border border-red-300 bg-white text-red-700 hover:border-red-600' : action === 'dismiss' ? 'border border-slate-300 bg-white text-ink hover:border-ink' : 'bg-ink text-white hover:bg-ink-light'}`}
      >
        {label}
        {target}
      </button>
    </form>
  );
}

export function NeedsAttention({ items }: { items: AttentionRow[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="attention-title" className="mb-4 rounded-2xl border border-amber-300 bg-amber-50 p-4 sm:p-6">
      <h2 id="attention-title" className="m-0 text-lg font-bold">{`Needs attention (${items.length})`}</h2>
      <p className="m-0 mt-1 text-sm text-slate-700">
        Payments the store could not finish by itself. Nothing here is charged twice: every action asks Square first.
      </p>
      <ul className="m-0 mt-3 grid list-none gap-3 p-0">
        {items.map((item) => (
          <li key={item.paymentId} className="rounded-xl border border-amber-200 bg-white p-3" data-payment-id={item.paymentId} data-problem={item.problem}>
            <div className="flex flex-wrap items-start justify-between gap-2">
              <h3 className="m-0 text-base font-bold">{item.what}</h3>
              <span className="font-bold tabular-nums">{formatDollars(item.amount)}</span>
            </div>
            <p className="m-0 mt-1 text-sm">{`${problemText[item.problem]} ${item.todo}`}</p>
            <p className="m-0 mt-1 break-words text-sm text-slate-600">
              {`@${item.username} · payment #${item.paymentId} · ${item.status} · ${item.attempts} ${item.attempts === 1 ? 'try' : 'tries'} · ${formatDateTime(item.updatedAt)}`}
              {item.errorCode && ` · last error ${item.errorCode}${item.errorDetail ? `: ${item.errorDetail}` : ''}`}
            </p>
            {item.reviewNote && <p className="m-0 mt-1 break-words text-sm text-slate-700">{`Note: ${item.reviewNote}`}</p>}
            <p className="m-0 mt-1 break-words text-sm font-semibold" data-gateway-status={item.gateway.status}>
              {gatewayText(item.gateway)}
            </p>
            {item.orderId !== null && (
              <a href="/admin?tab=orders" className="text-sm font-semibold">
                {`Order #${item.orderId} in the list below`}
              </a>
            )}
            <div className="mt-2 flex flex-wrap gap-3">
              {item.actions.map((action) => (
                <ActionForm key={action} item={item} action={action} />
              ))}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
