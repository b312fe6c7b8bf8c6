import type { RefObject } from 'react';
import { DONATE_IF_WON_LABEL, PRIZE_DELIVERY_NOTE, type PrizeDelivery } from '../../shared/prize-delivery.ts';

/**
 * Eligibility before money (issue 27): where prizes go, said before any pick is paid, and the
 * player's answer for a win. Outside 92651 the box must be ticked to join (the server refuses
 * otherwise); in 92651 it is a choice.
 */
export function PrizeDeliveryChoice({
  id,
  delivery,
  donate,
  error,
  boxRef,
  onChange,
}: {
  id: string;
  delivery: PrizeDelivery;
  donate: boolean;
  error: string | null;
  boxRef: RefObject<HTMLInputElement | null>;
  onChange: (donate: boolean) => void;
}) {
  const elsewhere = delivery === 'elsewhere';
  return (
    <section aria-labelledby={`${id}-delivery`} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5" data-prize-delivery={delivery}>
      <h2 id={`${id}-delivery`} className="m-0 text-lg font-bold">
        If you win
      </h2>
      <p className="m-0 mt-2 text-sm text-slate-700">
        {PRIZE_DELIVERY_NOTE}
        {elsewhere ? ' Your address is outside 92651, so to play, tick the box below.' : ''}
      </p>
      <label className="mt-3 flex items-start gap-2 text-sm font-semibold">
        <input
          ref={boxRef}
          type="checkbox"
          checked={donate}
          onChange={(event) => onChange(event.currentTarget.checked)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-delivery-error` : undefined}
          className="mt-0.5 h-5 w-5 accent-coral-dark"
        />
        <span>
          {DONATE_IF_WON_LABEL}
          {elsewhere ? ' (required)' : ''}
        </span>
      </label>
      {error && (
        <p id={`${id}-delivery-error`} className="m-0 mt-2 text-sm font-semibold text-red-700" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
