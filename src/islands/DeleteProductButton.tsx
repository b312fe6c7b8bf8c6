import { useId, useRef } from 'react';
import { ConfirmDialog } from './lib/ConfirmDialog.tsx';
import { removalAction, removalText, type ProductHistoryCounts } from '../shared/product-removal.ts';

export interface DeleteProductButtonProps {
  productId: number;
  label: string;
  /** Its orders and games: with any, Delete archives it (and the dialog says so). */
  history: ProductHistoryCounts;
}

/**
 * Delete with the spec's confirmation dialog. Without JavaScript it is a link to the same
 * confirmation as a page; either way the deletion is a form post. A product with history is
 * archived instead, and the button and dialog say so.
 */
export default function DeleteProductButton({ productId, label, history }: DeleteProductButtonProps) {
  const verb = removalAction(history);
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const action = `/admin/products/${productId}/delete`;
  return (
    <>
      <a
        href={action}
        onClick={(event) => {
          event.preventDefault();
          dialog.current?.showModal();
        }}
        className="rounded-lg border border-red-200 px-3 py-1.5 text-sm font-semibold text-red-700 no-underline hover:bg-red-50"
      >
        {verb}
        <span className="sr-only"> {label}</span>
      </a>
      <ConfirmDialog
        dialogRef={dialog}
        id={id}
        title="Are you sure?"
        text={removalText(history)}
        formAction={action}
        action={
          <button type="submit" className="rounded-lg bg-red-600 px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-red-700">
            {verb}
          </button>
        }
      />
    </>
  );
}
