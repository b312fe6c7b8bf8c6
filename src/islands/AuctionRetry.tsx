import { useAuctionPayment } from './auction/use-auction-payment.ts';

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
  const { busy, failure, pay } = useAuctionPayment(productId);

  return (
    <div className="grid gap-2" data-auction-retry>
      <p className="m-0 text-sm text-slate-700">{`You won this auction, but the card was declined. Pay by ${dueText} to keep it.`}</p>
      <div>
        <button
          type="button"
          onClick={() => void pay()}
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
