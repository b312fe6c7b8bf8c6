import type { RefObject } from 'react';
import { ConfirmDialog } from '../lib/ConfirmDialog.tsx';

/** Asks a signed-in shopper without a card to add one, and to come back here after; PlayGame opens it (before or after the server says 402). */
export function PaymentRequiredDialog({ id, dialogRef, productId }: { id: string; dialogRef: RefObject<HTMLDialogElement | null>; productId: number }) {
  return (
    <ConfirmDialog
      dialogRef={dialogRef}
      id={`${id}-pay`}
      title="Payment method required"
      text="Add a payment card to your profile to enter games. Your $1 entry is only held on the card until the game ends."
      action={
        <a
          href={`/profile?tab=payment&next=${encodeURIComponent(`/play/${productId}`)}`}
          className="rounded-lg bg-coral-dark px-4 py-2 text-sm font-bold text-white no-underline hover:bg-coral"
        >
          Add Payment Method
        </a>
      }
    />
  );
}
