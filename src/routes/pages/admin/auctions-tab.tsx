import { formatDateTime } from '../../../components/format.ts';
import type { AdminAuctionRow } from '../../../domain/auctions/admin-views.ts';
import { formatDollars } from '../../../shared/money.ts';
import { ADMIN_AUCTION_FILTERS, type AdminAuctionFilter } from '../../../shared/schemas/auctions.ts';
import { AuctionStatusBadge } from './auction-parts.tsx';

/*
 * The admin panel's Auctions tab (issue 28, item 6): running, ended, unsold and awaiting payment,
 * each auction with its price, bids, leader or buyer, end and reason, and what the admin may do
 * with it. Forms post to the auction page's routes (auction-routes.tsx) and come back here.
 */

const filterLabels: Record<AdminAuctionFilter, string> = {
  running: 'Running',
  ended: 'Ended',
  unsold: 'Unsold',
  awaiting_payment: 'Awaiting payment',
};

const emptyText: Record<AdminAuctionFilter, string> = {
  running: 'No auction is running. Set one up from a product with Bid ticked.',
  ended: 'No auction has sold yet.',
  unsold: 'No unsold or cancelled auctions.',
  awaiting_payment: 'No winner owes a payment.',
};

export const auctionsTabHref = (filter: AdminAuctionFilter) => (filter === 'running' ? '/admin?tab=auctions' : `/admin?tab=auctions&status=${filter}`);

const button = 'cursor-pointer whitespace-nowrap rounded-lg px-3 py-1.5 text-sm font-bold';

function RowActions({ row, filter }: { row: AdminAuctionRow; filter: AdminAuctionFilter }) {
  const page = `/admin/products/${row.productId}/auction`;
  const open = row.open;
  return (
    <div className="mt-3 flex flex-wrap items-start gap-2">
      <a href={`${page}?auction=${row.id}#bids`} className={`${button} border border-slate-300 bg-white text-ink no-underline hover:border-ink`}>
        View bids<span className="sr-only">{` of ${row.name}`}</span>
      </a>
      {row.winnerOrderId !== null && (
        <a
          href={`/admin?tab=orders#order-${row.winnerOrderId}`}
          className={`${button} border border-slate-300 bg-white text-ink no-underline hover:border-ink`}
        >
          {`Order #${row.winnerOrderId}`}
        </a>
      )}
      {open && row.bidCount === 0 && (
        <form method="post" action={`${page}/cancel`} className="m-0">
          <input type="hidden" name="back" value={filter} />
          <button type="submit" className={`${button} border border-red-300 bg-white text-red-700 hover:border-red-600`}>
            Cancel auction<span className="sr-only">{` of ${row.name}`}</span>
          </button>
        </form>
      )}
      {open && (
        <details className="w-full sm:w-auto sm:flex-1">
          <summary className={`${button} inline-block border border-red-300 bg-white text-red-700 hover:border-red-600`}>
            End early<span className="sr-only">{` the auction of ${row.name}`}</span>
          </summary>
          <form method="post" action={`${page}/end`} className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-end">
            <input type="hidden" name="back" value={filter} />
            <label className="flex min-w-0 flex-1 flex-col text-sm font-medium">
              Reason (every bidder is told)
              <input
                name="reason"
                type="text"
                maxLength={500}
                required
                minLength={3}
                className="mt-1 h-10 w-full rounded-lg border border-slate-300 px-3 text-base"
              />
            </label>
            <button type="submit" className={`${button} h-10 border-0 bg-red-600 text-white hover:bg-red-700`}>
              End auction early
            </button>
          </form>
        </details>
      )}
    </div>
  );
}

function AuctionRow({ row, filter }: { row: AdminAuctionRow; filter: AdminAuctionFilter }) {
  const sold = row.status === 'ended';
  const owing = row.status === 'awaiting_payment' || row.status === 'second_chance';
  const facts: [string, string][] = [
    ['Price', row.currentPrice === null ? `From ${formatDollars(row.startingBid)}` : formatDollars(row.currentPrice)],
    ['Bids', String(row.bidCount)],
    [sold || owing ? 'Buyer' : 'Leader', row.bidder ?? '—'],
    [row.open ? 'Ends' : 'Ended', formatDateTime(row.endsAtMs)],
  ];
  if (owing && row.paymentDueAt !== null) facts.push(['Pay by', formatDateTime(row.paymentDueAt)]);
  if (row.reason) facts.push(['Reason', row.reason]);
  return (
    <li className="border-b border-slate-100 py-4 first:pt-0 last:border-0 last:pb-0">
      <article aria-labelledby={`auction-${row.id}`} data-auction-id={row.id} data-product-id={row.productId}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h3 id={`auction-${row.id}`} className="m-0 min-w-0 text-base font-bold break-words">
            <a href={`/admin/products/${row.productId}/auction?auction=${row.id}`} className="text-ink">
              {row.name}
            </a>
          </h3>
          <AuctionStatusBadge status={row.status} shown={row.shownStatus} />
        </div>
        <dl className="m-0 mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm sm:grid-cols-[auto_1fr_auto_1fr]">
          {facts.map(([label, value]) => (
            <div key={label} className="contents">
              <dt className="text-slate-600">{label}</dt>
              <dd className="m-0 min-w-0 break-words font-medium" data-fact={label}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
        <RowActions row={row} filter={filter} />
      </article>
    </li>
  );
}

export function AuctionsTab({ rows, filter }: { rows: AdminAuctionRow[]; filter: AdminAuctionFilter }) {
  return (
    <section aria-label="Auctions" className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-6">
      <nav aria-label="Auction status" className="mb-4 flex flex-wrap gap-2">
        {ADMIN_AUCTION_FILTERS.map((f) => (
          <a
            key={f}
            href={auctionsTabHref(f)}
            aria-current={f === filter ? 'page' : undefined}
            className={`rounded-full border px-3 py-1.5 text-sm font-semibold no-underline ${f === filter ? 'border-ink bg-ink text-white' : 'border-slate-300 text-ink'}`}
          >
            {filterLabels[f]}
          </a>
        ))}
      </nav>
      {rows.length === 0 ? (
        <p className="m-0 py-8 text-center text-slate-600">{emptyText[filter]}</p>
      ) : (
        <ul className="m-0 list-none p-0">
          {rows.map((row) => (
            <AuctionRow key={row.id} row={row} filter={filter} />
          ))}
        </ul>
      )}
    </section>
  );
}
