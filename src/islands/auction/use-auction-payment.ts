import { useRef, useState } from 'react';
import { ApiError } from '../lib/http.ts';
import { MoneyAttempt, OutcomeUnknownError } from '../lib/money.ts';

/** How a failed auction payment reads: the shop's message, and whether the card is the thing to change. */
export interface AuctionPaymentFailure {
  message: string;
  /** 402: declined (or no card): the way out is another card. */
  card: boolean;
}

/**
 * Paying what an auction owes this shopper (the winner's Retry, the runner-up's second chance),
 * shared by the product page's panel and the order page's Retry: one money attempt (its
 * Idempotency-Key on every try, so a double click or a lost answer pays once), POST
 * /api/products/{id}/auction/pay, then the order's confirmation page.
 */
export function useAuctionPayment(productId: number, options: { onPaid?: () => void; declinedMessage?: string } = {}) {
  const [attempt] = useState(() => new MoneyAttempt());
  const paying = useRef(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<AuctionPaymentFailure | null>(null);

  async function pay(): Promise<AuctionPaymentFailure | null> {
    if (paying.current) return null;
    paying.current = true;
    setBusy(true);
    setFailure(null);
    try {
      const { orderId } = await attempt.send<{ orderId: number }>('POST', `/api/products/${productId}/auction/pay`, {});
      options.onPaid?.();
      window.location.assign(`/order-confirmation/${orderId}`);
      return null;
    } catch (error) {
      const declined = error instanceof ApiError && error.status === 402;
      const noCard = error instanceof ApiError && error.code === 'PAYMENT_METHOD_REQUIRED';
      const message =
        declined && !noCard
          ? (options.declinedMessage ?? 'Your card was declined again. Nothing was charged.')
          : error instanceof ApiError || error instanceof OutcomeUnknownError
            ? error.message
            : 'We could not reach the store. Please try again.';
      const failed = { message, card: declined };
      paying.current = false;
      setBusy(false);
      setFailure(failed);
      return failed;
    }
  }

  return { busy, failure, pay };
}
