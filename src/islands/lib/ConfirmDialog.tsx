import type { ReactNode, RefObject } from 'react';

/**
 * The store's confirmation dialog (a modal <dialog>, opened with showModal): a title, what
 * happens, anything else the question needs, then Cancel and the action. The action is a
 * button, a link, or a submit button when `formAction` makes the row a form post (which works
 * the same without the dialog: the page behind the link asks too).
 */
export function ConfirmDialog({
  dialogRef,
  id,
  title,
  text,
  children,
  action,
  busy = false,
  formAction,
}: {
  dialogRef: RefObject<HTMLDialogElement | null>;
  /** Unique on the page: the title and text ids start with it. */
  id: string;
  title: string;
  text: ReactNode;
  children?: ReactNode;
  action: ReactNode;
  /** While the action runs, Cancel waits too. */
  busy?: boolean;
  formAction?: string;
}) {
  const cancel = (
    <button
      type="button"
      onClick={() => dialogRef.current?.close()}
      disabled={busy}
      className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold cursor-pointer hover:bg-slate-50"
    >
      Cancel
    </button>
  );
  const row = 'mt-6 flex flex-wrap justify-end gap-3';
  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      className="w-[min(92vw,28rem)] rounded-2xl border-0 p-6 shadow-2xl backdrop:bg-black/50"
    >
      <h2 id={`${id}-title`} className="m-0 text-lg font-bold">
        {title}
      </h2>
      <p id={`${id}-text`} className="mt-2 text-sm text-slate-600">
        {text}
      </p>
      {children}
      {formAction ? (
        <form method="post" action={formAction} className={row}>
          {cancel}
          {action}
        </form>
      ) : (
        <div className={row}>
          {cancel}
          {action}
        </div>
      )}
    </dialog>
  );
}
