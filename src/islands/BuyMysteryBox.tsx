import { useId, useRef, useState } from 'react';
import { ApiError } from './lib/http.ts';
import { MoneyAttempt, OutcomeUnknownError } from './lib/money.ts';
import { toast, toastAfterNavigation } from './lib/toast.ts';
import { ConfirmDialog } from './lib/ConfirmDialog.tsx';
import { type Detour, DetourDialog } from './play/DetourDialog.tsx';

/*
 * 'Buy Mystery Box' on /mystery (issue 29, item 2), the shop's money button: one attempt with
 * one Idempotency-Key per page load (lib/money.ts: a double click sends once, a lost answer is
 * asked about before anything is offered again), the price and the commitment the shopper saw
 * sent along (the server refuses a draw that would use another), a tee or shoe box's size (the
 * draw is over that size's units), and the detours a refusal
 * needs: a card (402), the profile (403), sign-in (401).
 */

export interface BuyMysteryBoxProps {
  type: string;
  name: string;
  /** Dollars, before tax. */
  price: number;
  total: number;
  seedHash: string;
  /** 'Visa ending in 1111', or null with no card on file. */
  card: string | null;
  /** The size bought (tee and shoe boxes), or null for a box without sizes. */
  size?: string | null;
  /** Where a detour comes back to: the box's page with its size. */
  back?: string;
}

const cardDetour = (back: string): Detour => ({
  title: 'Payment method required',
  text: 'Add a payment card to your profile to buy a mystery box. It is charged only when you buy.',
  href: `/profile?tab=payment&${back}`,
  actionText: 'Add Payment Method',
});

const money = (dollars: number) => `$${dollars.toFixed(2)}`;

export default function BuyMysteryBox({ type, name, price, total, seedHash, card, size = null, back: page = '/mystery' }: BuyMysteryBoxProps) {
  const back = `next=${encodeURIComponent(page)}`;
  const toCard = cardDetour(back);
  const confirm = useRef<HTMLDialogElement>(null);
  const detourDialog = useRef<HTMLDialogElement>(null);
  const attempt = useRef(new MoneyAttempt());
  const buying = useRef(false);
  const [busy, setBusy] = useState(false);
  const [detour, setDetour] = useState<Detour>(toCard);
  const id = useId();

  function open() {
    if (!card) return goTo(toCard);
    confirm.current?.showModal();
  }

  function goTo(next: Detour) {
    setDetour(next);
    confirm.current?.close();
    detourDialog.current?.showModal();
  }

  async function buy() {
    // A second click before React disables the button: the first click's attempt is the one.
    if (buying.current) return;
    buying.current = true;
    setBusy(true);
    try {
      const { orderId } = await attempt.current.send<{ orderId: number }>('POST', `/api/mystery-boxes/${type}/orders`, {
        seedHash,
        price,
        ...(size ? { size } : {}),
      });
      toastAfterNavigation({ title: 'Mystery box bought', description: 'Here is what you got, and how to check the draw.' });
      window.location.assign(`/orders/${orderId}`);
    } catch (error) {
      buying.current = false;
      setBusy(false);
      refused(error);
    }
  }

  function refused(error: unknown) {
    if (error instanceof OutcomeUnknownError) {
      confirm.current?.close();
      return toast({ title: 'Payment not confirmed yet', description: error.message, variant: 'destructive' });
    }
    if (error instanceof ApiError && error.status === 401) return window.location.assign(`/auth?${back}`);
    if (error instanceof ApiError && error.status === 402 && error.code === 'PAYMENT_METHOD_REQUIRED') return goTo(toCard);
    if (error instanceof ApiError && error.status === 402) {
      return goTo({ title: 'Card declined', text: error.message, href: `/profile?tab=payment&${back}`, actionText: 'Update payment card' });
    }
    if (error instanceof ApiError && error.code === 'PROFILE_INCOMPLETE') {
      return goTo({ title: 'Complete your profile', text: error.message, href: `/profile?${back}`, actionText: 'Complete my profile' });
    }
    confirm.current?.close();
    const told = {
      title: 'Mystery box not bought',
      description: error instanceof Error ? error.message : 'Please try again.',
      variant: 'destructive' as const,
    };
    // The box changed under the shopper (a new commitment, price or stock): show them the box as it is now.
    if (error instanceof ApiError && error.status === 409) {
      toastAfterNavigation(told);
      return window.location.reload();
    }
    toast(told);
  }

  return (
    <>
      <button
        type="button"
        onClick={open}
        disabled={busy}
        data-buy-box={type}
        className="rounded-full border-0 bg-coral-dark px-5 py-2.5 text-sm font-bold text-white cursor-pointer hover:bg-coral disabled:opacity-60"
      >
        {size ? `Buy Mystery Box in ${size}` : 'Buy Mystery Box'}
        <span className="sr-only">{` (${name})`}</span>
      </button>
      <ConfirmDialog
        dialogRef={confirm}
        id={`${id}-confirm`}
        title={size ? `Buy the ${name} in size ${size}?` : `Buy the ${name}?`}
        text={`${money(price)} plus ${money(total - price)} tax: ${money(total)} charged to your ${card ?? 'card'}, delivered free in Laguna Beach (92651).`}
        busy={busy}
        action={
          <button
            type="button"
            onClick={buy}
            disabled={busy}
            className="rounded-lg bg-coral-dark px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-coral disabled:opacity-60"
          >
            {busy ? 'Buying...' : `Pay ${money(total)}`}
          </button>
        }
      >
        <p className="m-0 mt-2 text-xs text-slate-600 break-all">{`Your draw uses the seed committed by ${seedHash}.`}</p>
      </ConfirmDialog>
      <DetourDialog id={id} dialogRef={detourDialog} detour={detour} />
    </>
  );
}
