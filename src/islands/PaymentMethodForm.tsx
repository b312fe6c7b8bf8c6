import { useRef, useState } from 'react';
import { applePayToken, CardFields, useApplePayAvailable, type CardConfig, type CardHandle } from './lib/card.tsx';
import { ApiError, apiRequest } from './lib/http.ts';
import { MoneyAttempt } from './lib/money.ts';
import { toast, toastAfterNavigation } from './lib/toast.ts';
import { safeNextPath } from '../shared/safe-next-path.ts';
import type { ToastInput } from '../shared/toast.ts';

export interface PaymentMethodFormProps {
  config: CardConfig;
  /** The card on file, when there is one. */
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  type: string;
  /** Where the shopper came from (a game, an auction, a team), to go back once the card is saved; or the details' tab still on the way. */
  returnTo?: string | null;
  /** What the toast says once the card is saved on a detour. */
  savedNote?: string;
}

const brandName = (brand: string) =>
  brand
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/\b\w/g, (c) => c.toUpperCase());

/** The Payment tab: save or replace the card on file, or connect Apple Pay. */
export default function PaymentMethodForm({ config, card, type, returnTo = null, savedNote }: PaymentMethodFormProps) {
  const cardRef = useRef<CardHandle>(null);
  const [ready, setReady] = useState(config.gateway === 'test');
  const applePay = useApplePayAvailable(config);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(!card);
  /** Saving a card checks it at the gateway: one key per attempt, kept across its tries (lib/money.ts). */
  const [attempt] = useState(() => new MoneyAttempt());
  const saving = useRef(false);

  async function saveCard() {
    if (saving.current) return;
    saving.current = true;
    setBusy(true);
    try {
      // A save whose answer was lost is sent again with its first token, not a new one.
      const token = attempt.unresolved ? '' : await cardRef.current!.tokenize();
      const saved = await attempt.send<{ notice?: ToastInput }>('PATCH', '/api/user/profile', { paymentMethod: { type: 'card', sourceId: token } });
      toastAfterNavigation(
        saved?.notice ??
          (returnTo
            ? { title: 'Card saved', description: savedNote ?? 'Your card is ready: pick your influencers and play.' }
            : { title: 'Profile updated', description: 'Your profile has been updated successfully.' }),
      );
      window.location.assign(returnTo ? safeNextPath(returnTo) : '/profile?tab=payment');
    } catch (error) {
      const message = error instanceof ApiError ? error.message : 'Could not update your profile. Please try again.';
      toast({ title: 'Error', description: error instanceof ApiError ? message : (error as Error).message || message, variant: 'destructive' });
      saving.current = false;
      setBusy(false);
    }
  }

  async function connectApplePay() {
    try {
      await applePayToken(config, 100);
      await apiRequest('POST', '/api/user/profile/apple-pay');
      toastAfterNavigation({ title: 'Apple Pay Connected', description: 'Apple Pay is ready for checkout.' });
      window.location.assign('/profile?tab=payment');
    } catch {
      toast({ title: 'Apple Pay Not Available', description: 'Apple Pay is not supported on this device or browser', variant: 'destructive' });
    }
  }

  return (
    <div className="grid gap-6">
      {card && (
        <div className="flex items-center justify-between gap-4 rounded-xl border border-slate-200 bg-slate-50 p-4">
          <div>
            <p className="m-0 font-semibold">{`${brandName(card.brand)} •••• ${card.last4}`}</p>
            <p className="m-0 text-sm text-slate-600">{`Expires ${String(card.expMonth).padStart(2, '0')}/${card.expYear}${type === 'apple_pay' ? ' · Apple Pay is your preferred way to pay' : ''}`}</p>
          </div>
          {!editing && (
            <button
              type="button"
              onClick={() => setEditing(true)}
              className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-bold cursor-pointer"
            >
              Update Card Details
            </button>
          )}
        </div>
      )}
      {editing && (
        <div className="grid gap-4">
          <h3 className="m-0 text-base font-bold">{card ? 'Replace your card' : 'Add a card'}</h3>
          <CardFields ref={cardRef} config={config} onReady={setReady} />
          <div className="flex gap-3">
            <button
              type="button"
              onClick={saveCard}
              disabled={!ready || busy}
              className="rounded-lg bg-ink px-5 py-2.5 font-bold text-white cursor-pointer disabled:opacity-60 disabled:cursor-wait"
            >
              {busy ? 'Saving...' : 'Save Card'}
            </button>
            {card && (
              <button
                type="button"
                onClick={() => setEditing(false)}
                className="rounded-lg border border-slate-300 bg-white px-4 py-2.5 font-bold cursor-pointer"
              >
                Cancel
              </button>
            )}
          </div>
        </div>
      )}
      {applePay && (
        <div className="border-t border-slate-200 pt-5">
          <button type="button" onClick={connectApplePay} className="rounded-lg bg-black px-5 py-2.5 font-bold text-white cursor-pointer">
            {type === 'apple_pay' ? 'Apple Pay connected' : 'Connect Apple Pay'}
          </button>
        </div>
      )}
    </div>
  );
}
