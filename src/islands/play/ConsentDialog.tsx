import { useState, type RefObject } from 'react';

/**
 * Responsible play: before a first entry the player confirms they are 18 or older and accepts
 * the official rules (/rules), once. PlayGame opens it; confirming posts the consent and goes on
 * with the join.
 */
export function ConsentDialog({
  id,
  dialogRef,
  busy,
  error,
  onConfirm,
}: {
  id: string;
  dialogRef: RefObject<HTMLDialogElement | null>;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
}) {
  const [adult, setAdult] = useState(false);
  const [rules, setRules] = useState(false);
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}-consent-title`}
      aria-describedby={`${id}-consent-text`}
      className="w-[min(92vw,28rem)] rounded-2xl border-0 p-6 shadow-2xl backdrop:bg-black/50"
    >
      <h2 id={`${id}-consent-title`} className="m-0 text-lg font-bold">
        Before your first game
      </h2>
      <p id={`${id}-consent-text`} className="mt-2 text-sm text-slate-600">
        Games are for adults. Please confirm your age and accept the official rules; we ask only once.
      </p>
      <label className="mt-4 flex items-start gap-3 text-sm font-semibold">
        <input type="checkbox" checked={adult} onChange={(event) => setAdult(event.currentTarget.checked)} className="mt-0.5 h-5 w-5" name="adult" />I am 18 or
        older
      </label>
      <label className="mt-3 flex items-start gap-3 text-sm font-semibold">
        <input type="checkbox" checked={rules} onChange={(event) => setRules(event.currentTarget.checked)} className="mt-0.5 h-5 w-5" name="acceptRules" />
        <span>
          {'I accept the '}
          <a href="/rules" target="_blank" rel="noopener" className="text-sea-dark">
            official rules
          </a>
        </span>
      </label>
      {error && (
        <p role="alert" className="m-0 mt-3 text-sm font-semibold text-red-700">
          {error}
        </p>
      )}
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <button
          type="button"
          onClick={() => dialogRef.current?.close()}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold cursor-pointer hover:bg-slate-50"
        >
          Cancel
        </button>
        <button
          type="button"
          disabled={!adult || !rules || busy}
          onClick={onConfirm}
          className="rounded-lg border-0 bg-coral-dark px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-coral disabled:cursor-not-allowed disabled:opacity-50"
        >
          {busy ? 'Saving...' : 'Confirm and join'}
        </button>
      </div>
    </dialog>
  );
}
