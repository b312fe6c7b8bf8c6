import { useId, useRef } from 'react';
import { ConfirmDialog } from './lib/ConfirmDialog.tsx';

export interface DeleteProductButtonProps {
  productId: number;
  label: string;
}

/**
 * Delete with the spec's confirmation dialog. Without JavaScript it is a link to the same
 * confirmation as a page; either way the deletion is a form post.
 */
export default function DeleteProductButton({ productId, label }: DeleteProductButtonProps) {
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
        Delete<span className="sr-only"> {label}</span>
      </a>
      <ConfirmDialog
        dialogRef={dialog}
        id={id}
        title="Are you sure?"
        text="This action cannot be undone. This will permanently delete the product."
        formAction={action}
        action={
          <button type="submit" className="rounded-lg bg-red-600 px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-red-700">
            Delete
          </button>
        }
      />
    </>
  );
}
