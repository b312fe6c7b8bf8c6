import { useId, useRef, useState } from 'react';
import { apiRequest } from './lib/http.ts';
import { toast, toastAfterNavigation } from './lib/toast.ts';
import { ConfirmDialog } from './lib/ConfirmDialog.tsx';

/*
 * A won game's prize on My Games (spec sections 1 and 8): claim it (it waits in the cart at
 * $1) or donate it to charity (POST /api/games/{id}/donate), after a confirmation.
 */

export interface PrizeActionsProps {
  gameId: number;
  productName: string;
  /** Already in the cart: the button goes there; otherwise Claim Prize puts it in first. */
  inCart?: boolean;
  /** The shop's charity partner a donated prize is handed over to (issue 29). */
  charity?: string | null;
}

export default function PrizeActions({ gameId, productName, inCart = false, charity = null }: PrizeActionsProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  async function claim() {
    setBusy(true);
    try {
      await apiRequest('POST', `/api/games/${gameId}/claim`, {});
      window.location.assign('/cart');
    } catch (error) {
      toast({ title: 'Claim failed', description: error instanceof Error ? error.message : 'Please try again.', variant: 'destructive' });
      setBusy(false);
    }
  }

  async function donate() {
    setBusy(true);
    try {
      const result = await apiRequest<{ message?: string }>('POST', `/api/games/${gameId}/donate`, {});
      toastAfterNavigation({ title: 'Prize donated', description: result?.message ?? 'Thank you! Your prize will be donated to charity.' });
      window.location.reload();
    } catch (error) {
      dialog.current?.close();
      toast({ title: 'Donation failed', description: error instanceof Error ? error.message : 'Please try again.', variant: 'destructive' });
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-wrap gap-2">
      {inCart ? (
        <a href="/cart" className="rounded-full bg-coral-dark px-4 py-2 text-sm font-bold text-white no-underline hover:bg-coral">
          Claim Prize<span className="sr-only"> {productName} (in your cart)</span>
        </a>
      ) : (
        <button
          type="button"
          onClick={claim}
          disabled={busy}
          className="rounded-full border-0 bg-coral-dark px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-coral disabled:opacity-60"
        >
          Claim Prize<span className="sr-only"> {productName}</span>
        </button>
      )}
      <button
        type="button"
        onClick={() => dialog.current?.showModal()}
        className="rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink cursor-pointer hover:bg-slate-50"
      >
        Donate<span className="sr-only"> {productName}</span>
      </button>
      <ConfirmDialog
        dialogRef={dialog}
        id={id}
        title="Donate your prize?"
        text={`${productName} will go to ${charity ?? 'charity'} instead of being delivered to you. This cannot be undone.`}
        busy={busy}
        action={
          <button
            type="button"
            onClick={donate}
            disabled={busy}
            className="rounded-lg bg-sea-dark px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-sea disabled:opacity-60"
          >
            {busy ? 'Donating...' : 'Donate'}
          </button>
        }
      />
    </div>
  );
}
