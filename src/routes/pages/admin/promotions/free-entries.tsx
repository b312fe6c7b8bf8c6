import { formatDateTime } from '../../../../components/format.ts';
import { type AdminFreeEntries, ADMIN_FREE_ENTRY_LIMIT, type FreeEntryState } from '../../../../domain/promotions/free-entries-views.ts';

/* The Promotions tab's 'Buy one, play free' section: free entries issued, used, expired and withdrawn, with a CSV export. */

export const FREE_ENTRY_STATES: { state: FreeEntryState; label: string }[] = [
  { state: 'available', label: 'Available' },
  { state: 'used', label: 'Used' },
  { state: 'expired', label: 'Expired' },
  { state: 'withdrawn', label: 'Withdrawn' },
];

export function isFreeEntryState(value: string | undefined): value is FreeEntryState {
  return FREE_ENTRY_STATES.some((s) => s.state === value);
}

const time = (ms: number | null) => (ms === null ? '—' : formatDateTime(ms));

export function AdminFreeEntriesSection({ data, state }: { data: AdminFreeEntries; state: FreeEntryState | null }) {
  const issued = Object.values(data.counts).reduce((sum, n) => sum + n, 0);
  const filterHref = (s: FreeEntryState | null) => (s ? `/admin?tab=promotions&free=${s}#free-entries` : '/admin?tab=promotions#free-entries');
  return (
    <section
      id="free-entries"
      aria-labelledby="free-entries-admin-title"
      className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6"
      data-section="free-entries"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="free-entries-admin-title" className="m-0 text-lg font-bold">
          Buy one, play free
        </h2>
        <a
          href={state ? `/admin/promotions/free-entries.csv?state=${state}` : '/admin/promotions/free-entries.csv'}
          className="font-semibold text-sea-dark"
          download
        >
          Export CSV
        </a>
      </div>
      <p className="m-0 mt-1 text-sm text-slate-600">
        {`Free game entries issued: ${issued}. Each unit of a paid order of a flagged product gives one, valid 30 days.`}
      </p>
      <nav aria-label="Free entries by state" className="mt-3 flex flex-wrap gap-2 text-sm">
        <a
          href={filterHref(null)}
          aria-current={state === null ? 'page' : undefined}
          className="rounded-full border border-slate-300 px-3 py-1 no-underline text-ink"
        >
          {`All (${issued})`}
        </a>
        {FREE_ENTRY_STATES.map((s) => (
          <a
            key={s.state}
            href={filterHref(s.state)}
            aria-current={state === s.state ? 'page' : undefined}
            data-count={s.state}
            className="rounded-full border border-slate-300 px-3 py-1 no-underline text-ink"
          >
            {`${s.label} (${data.counts[s.state]})`}
          </a>
        ))}
      </nav>
      {data.entries.length === 0 ? (
        <p className="m-0 py-6 text-center text-slate-600">No free entries here yet.</p>
      ) : (
        <div
          className="relative mt-3 overflow-x-auto"
          role="region"
          aria-label="Free game entries"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a table that scrolls sideways on a phone must be reachable by keyboard (axe scrollable-region-focusable, WCAG 2.1.1).
          tabIndex={0}
        >
          <table className="w-full border-collapse text-left text-sm">
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                <th className="py-2 pr-3 font-semibold">Entry</th>
                <th className="py-2 pr-3 font-semibold">Shopper</th>
                <th className="py-2 pr-3 font-semibold">Product</th>
                <th className="py-2 pr-3 font-semibold">Order</th>
                <th className="py-2 pr-3 font-semibold">Expires</th>
                <th className="py-2 pr-3 font-semibold">Status</th>
              </tr>
            </thead>
            <tbody>
              {data.entries.map((e) => (
                <tr key={e.id} className="border-b border-slate-100" data-entry-id={e.id}>
                  <td className="py-2 pr-3">{`#${e.id}`}</td>
                  <td className="py-2 pr-3 break-words">{e.username}</td>
                  <td className="py-2 pr-3 break-words">{e.product.name}</td>
                  <td className="py-2 pr-3">{`#${e.orderId}`}</td>
                  <td className="py-2 pr-3">{time(e.expiresAt)}</td>
                  <td className="py-2 pr-3" data-status={e.status}>
                    {e.status === 'used' && e.gameId !== null ? (
                      <a href={`/games/${e.gameId}`} className="text-sea-dark underline">{`used in game #${e.gameId}`}</a>
                    ) : (
                      e.status
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {data.entries.length === ADMIN_FREE_ENTRY_LIMIT && (
            <p className="m-0 mt-2 text-sm text-slate-600">{`The latest ${ADMIN_FREE_ENTRY_LIMIT} are shown; the CSV has them all.`}</p>
          )}
        </div>
      )}
    </section>
  );
}
