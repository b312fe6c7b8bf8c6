import { useRef, useState } from 'react';
import { ApiError } from './lib/http.ts';
import { MoneyAttempt, OutcomeUnknownError } from './lib/money.ts';

/*
 * Retry payment on an auction order whose card was declined (issue 28, item 5): one money
 * attempt (its Idempotency-Key on every try, a double click pays once), POST
 * /api/products/{id}/auction/pay, then the order confirmation. Declined again: a way to change the card.
 */

export interface AuctionRetryProps {
  productId: number;
  /** Shown next to the button: until when the store holds the item for the buyer. */
  dueText: string;
}

export default function AuctionRetry({ productId, dueText }: AuctionRetryProps) {
  const [attempt] = useState(() => new MoneyAttempt());
  const paying = useRef(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; card: boolean } | null>(null);

  async function retry() {
    if (paying.current) return;
    paying.current = true;
    setBusy(true);
    setFailure(null);
    try {
      const { orderId } = await attempt.send<{ orderId: number }>('POST', `/api/products/${productId}/auction/pay`, {});
      window.location.assign(`/order-confirmation/${orderId}`);
      return;
    } catch (error) {
      const declined = error instanceof ApiError && error.status === 402;
      const noCard = error instanceof ApiError && error.code === 'PAYMENT_METHOD_REQUIRED';
      const message =
        declined && !noCard
          ? 'Your card was declined again. Nothing was charged.'
          : error instanceof ApiError || error instanceof OutcomeUnknownError
            ? error.message
            : 'We could not reach the store. Please try again.';
      setFailure({ message, card: declined });
    }
    paying.current = false;
    setBusy(false);
  }

  return (
    <div className="grid gap-2" data-auction-retry>
      <p className="m-0 text-sm text-slate-700">{`You won this auction, but the card was declined. Pay by ${dueText} to keep it.`}</p>
      <div>
        <button
          type="button"
          onClick={retry}
          aria-disabled={busy || undefined}
          className="rounded-lg border-0 bg-ink px-5 py-2.5 text-sm font-bold text-white cursor-pointer hover:bg-ink-light aria-disabled:opacity-60 aria-disabled:cursor-wait"
        >
          {busy ? 'Paying...' : 'Retry payment'}
        </button>
      </div>
      {failure && (
        <p role="alert" className="m-0 text-sm text-red-700">
          {failure.message}{' '}
          {failure.card && (
            <a href="/profile?tab=payment" className="font-semibold text-sea-dark">
              Update your card
            </a>
          )}
        </p>
      )}
    </div>
  );
}
