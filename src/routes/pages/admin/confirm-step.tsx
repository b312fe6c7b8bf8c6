import type { ReactNode } from 'react';

/*
 * The admin's step between a button that cannot be undone and the change, as Mark Delivered has
 * it (orders.tsx, OrderStatusConfirm): the same form posted again with confirmed=yes acts; the
 * other way out is a link back, so nothing moves until the admin says yes. A page of its own, so it
 * needs no JavaScript and works by keyboard like any link and button.
 */

export function ConfirmStep({
  title,
  action,
  fields,
  backHref,
  backLabel = 'Not Yet',
  confirmLabel,
  danger = true,
  children,
}: {
  title: string;
  /** Where the confirmed form posts: the same URL as the button that asked. */
  action: string;
  /** The first post's fields, carried over as they were typed. */
  fields: Record<string, string | undefined>;
  backHref: string;
  backLabel?: string;
  confirmLabel: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="confirm-title" className="mx-auto max-w-lg rounded-2xl border border-slate-200 bg-white p-6" data-confirm-step="">
      <h1 id="confirm-title" className="m-0 text-xl font-extrabold break-words">
        {title}
      </h1>
      <div className="mt-3 grid gap-2 text-sm text-slate-700 break-words">{children}</div>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <a href={backHref} className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink no-underline">
          {backLabel}
        </a>
        <form method="post" action={action}>
          {Object.entries(fields).map(([name, value]) => (value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />))}
          <input type="hidden" name="confirmed" value="yes" />
          <button
            type="submit"
            className={`cursor-pointer rounded-lg px-4 py-2 text-sm font-bold text-white ${danger ? 'bg-red-700 hover:bg-red-800' : 'bg-emerald-700 hover:bg-emerald-800'}`}
          >
            {confirmLabel}
          </button>
        </form>
      </div>
    </section>
  );
}
