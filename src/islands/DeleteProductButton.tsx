import { useId, useRef } from 'react';

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
      <dialog
        ref={dialog}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-text`}
        className="w-[min(92vw,28rem)] rounded-2xl border-0 p-6 shadow-2xl backdrop:bg-black/50"
      >
        <h2 id={`${id}-title`} className="m-0 text-lg font-bold">
          Are you sure?
        </h2>
        <p id={`${id}-text`} className="mt-2 text-sm text-slate-600">
          This action cannot be undone. This will permanently delete the product.
        </p>
        <form method="post" action={action} className="mt-6 flex justify-end gap-3">
          <button
            type="button"
            onClick={() => dialog.current?.close()}
            className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold cursor-pointer"
          >
            Cancel
          </button>
          <button type="submit" className="rounded-lg bg-red-600 px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-red-700">
            Delete
          </button>
        </form>
      </dialog>
    </>
  );
}
