import { forwardRef, useEffect, useId, useImperativeHandle, useRef, useState } from 'react';
import type { CardConfig } from '../../shared/card-config.ts';
import { formatExpiryInput } from '../../shared/card-expiry.ts';
import { TEST_CARD_HINT_DECLINE, TEST_CARD_OK, testTokenForTypedCard } from '../../shared/test-cards.ts';

/*
 * The card entry used by every island that takes a card. With the `test` gateway it is a local
 * form taking the sandbox test numbers (nothing is loaded from outside); with `square` it is
 * Square's Web Payments SDK card field. Either way `tokenize()` gives a one-time token that the
 * server turns into a payment or a card on file.
 */

export type { CardConfig };

export interface CardHandle {
  /** A one-time card token, or throws an Error whose message the shopper can read. */
  tokenize(): Promise<string>;
}

interface SquareCard {
  attach(target: HTMLElement): Promise<void>;
  tokenize(): Promise<{ status: string; token?: string; errors?: { message: string }[] }>;
  destroy(): Promise<void>;
}
interface SquarePayments {
  card(): Promise<SquareCard>;
  paymentRequest(request: unknown): unknown;
  applePay(request: unknown): Promise<{ tokenize(): Promise<{ status: string; token?: string }> }>;
}
declare global {
  interface Window {
    Square?: { payments(applicationId: string, locationId: string): SquarePayments };
  }
}

let squareScript: Promise<void> | null = null;

/** Loads Square's Web Payments SDK once, from the sandbox or production origin. */
export function loadSquare(config: CardConfig): Promise<SquarePayments> {
  if (!config.applicationId || !config.locationId)
    return Promise.reject(new Error('Payment system is not properly initialized. Please refresh and try again.'));
  squareScript ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = config.environment === 'production' ? 'https://web.squarecdn.com/v1/square.js' : 'https://sandbox.web.squarecdn.com/v1/square.js';
    script.onload = () => resolve();
    script.onerror = () => reject(new Error('Payment system is not properly initialized. Please refresh and try again.'));
    document.head.appendChild(script);
  });
  return squareScript.then(() => window.Square!.payments(config.applicationId!, config.locationId!));
}

/**
 * Whether this browser can pay with Apple Pay here: Square is the gateway and Safari says it can
 * (`ApplePaySession.canMakePayments()`). False until checked after hydration, so the server's
 * HTML and the first render agree and a browser that cannot pay never sees the button.
 */
export function useApplePayAvailable(config: CardConfig): boolean {
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    const session = (window as { ApplePaySession?: { canMakePayments?: () => boolean } }).ApplePaySession;
    try {
      setAvailable(config.gateway === 'square' && session?.canMakePayments?.() === true);
    } catch {
      setAvailable(false);
    }
  }, [config.gateway]);
  return available;
}

/** Apple Pay for an amount; throws when the device or browser does not support it. */
export async function applePayToken(config: CardConfig, amountCents: number): Promise<string> {
  if (config.gateway !== 'square') throw new Error('Apple Pay is not supported on this device or browser');
  const payments = await loadSquare(config);
  const request = payments.paymentRequest({ countryCode: 'US', currencyCode: 'USD', total: { amount: (amountCents / 100).toFixed(2), label: 'Total' } });
  const applePay = await payments.applePay(request);
  const result = await applePay.tokenize();
  if (result.status !== 'OK' || !result.token) throw new Error('Apple Pay was not completed.');
  return result.token;
}

const input = 'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base';

/** Card fields; `onReady` tells the parent when tokenize() can be called. */
export const CardFields = forwardRef<CardHandle, { config: CardConfig; onReady?: (ready: boolean) => void; onLoadError?: (message: string) => void }>(
  function CardFields({ config, onReady, onLoadError }, ref) {
    const id = useId();
    const container = useRef<HTMLDivElement>(null);
    const squareCard = useRef<SquareCard | null>(null);
    const [state, setState] = useState<'loading' | 'ready' | 'failed'>(config.gateway === 'test' ? 'ready' : 'loading');
    const fields = useRef<{ number: string; expiry: string; cvc: string }>({ number: '', expiry: '', cvc: '' });
    const [error, setError] = useState('');

    // The card field is attached once per gateway; new callback props of a parent's re-render must not re-attach it.
    // biome-ignore lint/correctness/useExhaustiveDependencies: see above.
    useEffect(() => {
      if (config.gateway === 'test') {
        onReady?.(true);
        return;
      }
      let cancelled = false;
      loadSquare(config)
        .then((payments) => payments.card())
        .then(async (card) => {
          if (cancelled || !container.current) return;
          await card.attach(container.current);
          squareCard.current = card;
          setState('ready');
          onReady?.(true);
        })
        .catch((error: unknown) => {
          setState('failed');
          onReady?.(false);
          onLoadError?.(error instanceof Error ? error.message : 'Payment system is not properly initialized. Please refresh and try again.');
        });
      return () => {
        cancelled = true;
        void squareCard.current?.destroy();
      };
    }, [config.gateway]);

    useImperativeHandle(ref, () => ({
      async tokenize() {
        setError('');
        if (config.gateway === 'square') {
          const card = squareCard.current;
          if (!card) throw new Error('Payment system is not properly initialized. Please refresh and try again.');
          const result = await card.tokenize();
          if (result.status !== 'OK' || !result.token) throw new Error(result.errors?.[0]?.message ?? 'Failed to process your card. Please try again.');
          return result.token;
        }
        const result = testTokenForTypedCard(fields.current.number, fields.current.expiry, fields.current.cvc);
        if ('error' in result) {
          setError(result.error);
          throw new Error(result.error);
        }
        return result.token;
      },
    }));

    if (config.gateway === 'square') {
      return (
        <div>
          {state === 'loading' && <p className="m-0 text-sm text-slate-600">Loading payment form...</p>}
          {state === 'failed' && <p className="m-0 text-sm text-red-600">The card form could not load. Please refresh and try again.</p>}
          <div ref={container} />
        </div>
      );
    }
    const set = (key: 'number' | 'cvc') => (event: React.ChangeEvent<HTMLInputElement>) => {
      fields.current[key] = event.target.value;
    };
    // The numeric keypad has no '/': the field puts it in once the month is typed.
    const setExpiry = (event: React.ChangeEvent<HTMLInputElement>) => {
      const deleting = (event.nativeEvent as InputEvent | undefined)?.inputType?.startsWith('delete') ?? false;
      const formatted = formatExpiryInput(event.target.value, deleting);
      if (formatted !== event.target.value) event.target.value = formatted;
      fields.current.expiry = formatted;
    };
    return (
      <div className="grid gap-3">
        <div>
          <label htmlFor={`${id}-number`} className="text-sm font-medium">
            Card number
          </label>
          <input
            id={`${id}-number`}
            className={input}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="4111 1111 1111 1111"
            onChange={set('number')}
            aria-describedby={`${id}-help`}
          />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <label htmlFor={`${id}-expiry`} className="text-sm font-medium">
              Expiry (MM/YY)
            </label>
            <input
              id={`${id}-expiry`}
              className={input}
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="MM/YY"
              maxLength={9}
              onChange={setExpiry}
              aria-describedby={`${id}-expiry-help`}
            />
            <span id={`${id}-expiry-help`} className="sr-only">
              Month and year, for example 12/30
            </span>
          </div>
          <div>
            <label htmlFor={`${id}-cvc`} className="text-sm font-medium">
              CVC
            </label>
            <input id={`${id}-cvc`} className={input} inputMode="numeric" autoComplete="cc-csc" placeholder="123" onChange={set('cvc')} />
          </div>
        </div>
        {error && (
          <p role="alert" className="m-0 text-sm text-red-600">
            {error}
          </p>
        )}
        <p id={`${id}-help`} className="m-0 text-xs text-slate-600">
          {`Test mode: no real card is charged. Use ${TEST_CARD_OK.replace(/(\d{4})/g, '$1 ').trim()} to approve or ${TEST_CARD_HINT_DECLINE.replace(/(\d{4})/g, '$1 ').trim()} to see a decline (it is refused when saved and when paying), any future expiry and any 3-digit CVC.`}
        </p>
      </div>
    );
  },
);

/** The choice between the card on file and another card, when one is saved. */
export function SavedCardChoice({ savedCard, useSaved, onChange }: { savedCard: string; useSaved: boolean; onChange: (useSaved: boolean) => void }) {
  return (
    <div className="grid gap-2 text-sm">
      <label className="flex items-center gap-2">
        <input type="radio" name="cardChoice" checked={useSaved} onChange={() => onChange(true)} />
        {`Saved card: ${savedCard}`}
      </label>
      <label className="flex items-center gap-2">
        <input type="radio" name="cardChoice" checked={!useSaved} onChange={() => onChange(false)} />
        Another card
      </label>
    </div>
  );
}
