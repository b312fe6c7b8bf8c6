import { formatDollars } from '../../shared/money.ts';
import type { AuctionPayment } from '../../shared/views/auctions.ts';
import { NOTIFICATIONS_CHANGED } from '../lib/events.ts';
import { toast, toastAfterNavigation } from '../lib/toast.ts';
import { dateTimeText } from './time.ts';
import { useAuctionPayment } from './use-auction-payment.ts';

/**
 * What an ended auction waits on this viewer for: the winner's Retry after a declined card, or
 * the runner-up's second-chance offer. POST /api/products/{id}/auction/pay charges the card on
 * file (one attempt, one Idempotency-Key for all its tries), then the order's page.
 */
export function PayStep({ productId, payment }: { productId: number; payment: AuctionPayment }) {
  const retry = payment.kind === 'retry';
  const {
    busy,
    failure,
    pay: payOnce,
  } = useAuctionPayment(productId, {
    onPaid: () => toastAfterNavigation({ title: 'Success!', description: 'Your order has been placed' }),
    // A second chance is the runner-up's first try: 'again' belongs to the winner's Retry.
    declinedMessage: retry ? undefined : 'Your card was declined. Nothing was charged.',
  });
  const label = retry ? `Pay ${formatDollars(payment.amount)}` : `Buy for ${formatDollars(payment.amount)}`;
  const cardHref = `/profile?tab=payment&next=${encodeURIComponent(`/product/${productId}`)}`;

  async function pay() {
    const failed = await payOnce();
    if (!failed) return;
    toast({ title: 'Payment Failed', description: failed.message, variant: 'destructive' });
    window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
  }

  return (
    <div data-payment={payment.kind} className="grid gap-2 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <p className="m-0 font-bold">
        {retry ? 'Your card was declined. Update your card, then Pay.' : `A second chance: buy it at your maximum, ${formatDollars(payment.price)}.`}
      </p>
      <p className="m-0">
        {`${formatDollars(payment.price)} plus tax, free local delivery. Pay by ${dateTimeText(payment.dueAt)}.`}
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
          {failure.message}
        </p>
      )}
    </div>
  );
}
