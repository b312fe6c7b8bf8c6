import { type FormEvent, useEffect, useRef } from 'react';
import { formatDollars } from '../../shared/money.ts';

/** The bid form: the viewer's maximum in dollars, the least allowed, and how proxy bidding works. */
export function BidForm({
  id,
  minimumBid,
  busy,
  error,
  signInHref,
  onBid,
  keptAmount = null,
}: {
  id: string;
  minimumBid: number;
  busy: boolean;
  /** The server's or the form's message, shown by the field. */
  error: string | null;
  /** Set after a 401: the way to sign in and come back. */
  signInHref: string | null;
  /** Resolves true once the bid is placed: the field is emptied for the next one. */
  onBid: (amountText: string) => Promise<boolean>;
  /** The amount typed before a detour, back in the page's address: filled in again, ready to press. */
  keptAmount?: string | null;
}) {
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!keptAmount || !input.current) return;
    input.current.value = keptAmount;
    input.current.focus();
  }, [keptAmount]);
  const hint = `Enter ${formatDollars(minimumBid)} or more`;
  return (
    // method and action: pressed before the island loaded, nothing happens but a reload of this page.
    <form
      method="get"
      noValidate
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        const form = event.currentTarget;
        const input = form.elements.namedItem('maxAmount') as HTMLInputElement;
        void onBid(input.value).then((placed) => {
          if (placed) form.reset();
        });
      }}
      className="grid gap-2"
    >
      <label htmlFor={`${id}-max`} className="text-sm font-bold">
        Your maximum bid
      </label>
      <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-2">
        <div className="relative">
          <span aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-600">
            $
          </span>
          <input
            ref={input}
            id={`${id}-max`}
            name="maxAmount"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            placeholder={minimumBid.toFixed(2)}
            aria-describedby={error ? `${id}-error` : `${id}-hint`}
            aria-invalid={error ? true : undefined}
            className={`h-12 w-full rounded-xl border bg-white pr-3 pl-7 text-base tabular-nums ${error ? 'border-red-600' : 'border-slate-300'}`}
          />
        </div>
        <button
          type="submit"
          disabled={busy}
          className="h-12 rounded-xl border-0 bg-ink px-5 font-bold text-white cursor-pointer hover:bg-ink-light disabled:opacity-60 disabled:cursor-wait"
        >
          {busy ? 'Placing…' : 'Place Bid'}
        </button>
      </div>
      {/* The refusal takes the hint's place: it names the least allowed itself. */}
      {error ? (
        <p id={`${id}-error`} role="alert" className="m-0 text-sm font-semibold text-red-700" data-field-error="maxAmount">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="m-0 text-sm text-slate-600">
          {hint}
        </p>
      )}
      {signInHref && (
        <p className="m-0 text-sm" data-sign-in="">
          <a href={signInHref} className="font-bold text-sea-dark">
            Sign in to bid
          </a>
        </p>
      )}
      <p className="m-0 text-xs text-slate-600">We bid for you by the increment, up to your maximum. Nobody else sees your maximum.</p>
    </form>
  );
}
