import { useRef, useState } from 'react';
import { formatDollars } from '../../shared/money.ts';
import type { AuctionPayment } from '../../shared/views/auctions.ts';
import { NOTIFICATIONS_CHANGED } from '../lib/events.ts';
import { ApiError } from '../lib/http.ts';
import { MoneyAttempt, OutcomeUnknownError } from '../lib/money.ts';
import { toast, toastAfterNavigation } from '../lib/toast.ts';
import { dateTimeText } from './time.ts';

/**
 * What an ended auction waits on this viewer for: the winner's Retry after a declined card, or
 * the runner-up's second-chance offer. POST /api/products/{id}/auction/pay charges the card on
 * file (one attempt, one Idempotency-Key for all its tries), then the order's page.
 */
export function PayStep({ productId, payment, local }: { productId: number; payment: AuctionPayment; local: boolean }) {
  const [attempt] = useState(() => new MoneyAttempt());
  const paying = useRef(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const retry = payment.kind === 'retry';
  const label = retry ? `Pay ${formatDollars(payment.amount)}` : `Buy for ${formatDollars(payment.amount)}`;
  const cardHref = `/profile?tab=payment&next=${encodeURIComponent(`/product/${productId}`)}`;

  async function pay() {
    if (paying.current) return;
    paying.current = true;
    setBusy(true);
    setFailure(null);
    try {
      const { orderId } = await attempt.send<{ orderId: number }>('POST', `/api/products/${productId}/auction/pay`, {});
      toastAfterNavigation({ title: 'Success!', description: 'Your order has been placed' });
      window.location.assign(`/order-confirmation/${orderId}`);
    } catch (error) {
      paying.current = false;
      setBusy(false);
      const message = error instanceof ApiError || error instanceof OutcomeUnknownError ? error.message : 'An error occurred during payment processing';
      setFailure(message);
      toast({ title: 'Payment Failed', description: message, variant: 'destructive' });
      window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
    }
  }

  return (
    <div data-payment={payment.kind} className="grid gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="m-0 font-bold">
        {retry ? 'Your card was declined. Update your card, then Pay.' : `A second chance: buy it at your maximum, ${formatDollars(payment.price)}.`}
      </p>
      <p className="m-0">
        {`${formatDollars(payment.price)} plus tax, free local delivery. Pay by ${dateTimeText(payment.dueAt, local)}.`}
        {retry && (
          <>
            {' '}
            <a href={cardHref} className="font-bold text-amber-950">
              Update your card
            </a>
          </>
        )}
      </p>
      <button
        type="button"
        disabled={busy}
        onClick={() => void pay()}
        className="h-12 rounded-xl border-0 bg-coral-dark font-bold text-white cursor-pointer hover:bg-coral disabled:opacity-60 disabled:cursor-wait"
      >
        {busy ? 'Processing...' : label}
      </button>
      {failure && (
        <p role="alert" className="m-0 font-semibold text-red-800">
          {failure}
        </p>
      )}
    </div>
  );
}
