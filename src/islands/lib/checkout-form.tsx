import { useRef, useState } from 'react';
import { CardFields, SavedCardChoice, type CardConfig, type CardHandle } from './card.tsx';
import { OutcomeUnknownError } from './money.ts';
import { toast } from './toast.ts';

/*
 * The parts the two checkout forms (BuyNowCheckout, CartCheckout) share: the card to pay with,
 * the pay button with the failure under it, and what a payment whose answer was lost says.
 */

/** The card a checkout pays with: the saved one (kept by default when there is one) or the card form, and whether that form is ready. */
export function useCardChoice(savedCard: string | null, config: CardConfig) {
  const cardRef = useRef<CardHandle>(null);
  const [useSaved, setUseSaved] = useState(savedCard !== null);
  const [cardReady, setCardReady] = useState(config.gateway === 'test');
  return { savedCard, config, cardRef, useSaved, setUseSaved, cardReady, setCardReady };
}

/** The saved card when the shopper keeps it, else the card form; a form that cannot load says so under `loadErrorTitle`. */
export function CardChoice({ choice, loadErrorTitle }: { choice: ReturnType<typeof useCardChoice>; loadErrorTitle: string }) {
  const { savedCard, useSaved, cardRef, config } = choice;
  return (
    <>
      {savedCard && <SavedCardChoice savedCard={savedCard} useSaved={useSaved} onChange={choice.setUseSaved} />}
      {!useSaved && (
        <CardFields
          ref={cardRef}
          config={config}
          onReady={choice.setCardReady}
          onLoadError={(message) => toast({ title: loadErrorTitle, description: message, variant: 'destructive' })}
        />
      )}
    </>
  );
}

/** The submit button ('Processing...' while it pays) and, under it, why the last try failed. */
export function PayButton({ label, busy, disabled, failure }: { label: string; busy: boolean; disabled: boolean; failure: string | null }) {
  return (
    <>
      <button
        type="submit"
        disabled={disabled}
        className="h-12 rounded-xl bg-coral-dark text-base font-bold text-white cursor-pointer hover:bg-coral disabled:opacity-60 disabled:cursor-wait"
      >
        {busy ? 'Processing...' : label}
      </button>
      {failure && (
        <p role="alert" className="m-0 rounded-xl border border-red-300 bg-red-50 p-3 text-sm font-semibold text-red-800">
          {failure}
        </p>
      )}
    </>
  );
}

/** A payment whose answer was lost is told as not confirmed yet, never as failed; true when that was the error. */
export function toldUnconfirmed(error: unknown, setFailure: (message: string) => void): boolean {
  if (!(error instanceof OutcomeUnknownError)) return false;
  setFailure(error.message);
  toast({ title: 'Payment not confirmed yet', description: error.message, variant: 'destructive' });
  return true;
}
