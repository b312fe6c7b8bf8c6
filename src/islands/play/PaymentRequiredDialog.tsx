import type { RefObject } from 'react';

/** Asks a signed-in shopper without a card to add one, and to come back here after; PlayGame opens it (before or after the server says 402). */
export function PaymentRequiredDialog({ id, dialogRef, productId }: { id: string; dialogRef: RefObject<HTMLDialogElement | null>; productId: number }) {
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}-pay-title`}
      aria-describedby={`${id}-pay-text`}
      className="w-[min(92vw,28rem)] rounded-2xl border-0 p-6 shadow-2xl backdrop:bg-black/50"
    >
      <h2 id={`${id}-pay-title`} className="m-0 text-lg font-bold">
        Payment method required
      </h2>
      <p id={`${id}-pay-text`} className="mt-2 text-sm text-slate-600">
        Add a payment card to your profile to enter games. Your $1 entry is only held on the card until the game ends.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button
          type="button"
          onClick={() => dialogRef.current?.close()}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold cursor-pointer hover:bg-slate-50"
        >
          Cancel
        </button>
        <a
          href={`/profile?tab=payment&next=${encodeURIComponent(`/play/${productId}`)}`}
          className="rounded-lg bg-coral-dark px-4 py-2 text-sm font-bold text-white no-underline hover:bg-coral"
        >
          Add Payment Method
        </a>
      </div>
    </dialog>
  );
}
