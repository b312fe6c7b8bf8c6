import { useState, type RefObject } from 'react';
import { ConfirmDialog } from '../lib/ConfirmDialog.tsx';

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
    <ConfirmDialog
      dialogRef={dialogRef}
      id={`${id}-consent`}
      title="Before your first game"
      text="Games are for adults. Please confirm your age and accept the official rules; we ask only once."
      action={
        <button
          type="button"
          disabled={!adult || !rules || busy}
          onClick={onConfirm}
          className="rounded-lg border-0 bg-coral-dark px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-coral disabled:cursor-not-allowed disabled:opacity-50"
        >
          {busy ? 'Saving...' : 'Confirm and join'}
        </button>
      }
    >
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
    </ConfirmDialog>
  );
}
