import { formatDateTime } from '../../../components/format.ts';
import type { AdminAuctionDetail, AdminBid } from '../../../domain/auctions/admin-views.ts';
import type { PublicAuctionStatus } from '../../../domain/auctions/views.ts';
import { formatDollars } from '../../../shared/money.ts';

type AuctionStatus = AdminAuctionDetail['status'];

/* What the admin's auction page and the Auctions tab both show: a status badge and the bid history. */

const statusText: Record<AuctionStatus, string> = {
  scheduled: 'Scheduled',
  running: 'Running',
  awaiting_payment: 'Awaiting payment',
  second_chance: 'Second-chance offer',
  ended: 'Sold',
  unsold: 'Unsold',
  cancelled: 'Cancelled',
};

const statusClass: Record<AuctionStatus, string> = {
  scheduled: 'bg-slate-100 text-slate-700',
  running: 'bg-sky-100 text-sky-800',
  awaiting_payment: 'bg-amber-100 text-amber-900',
  second_chance: 'bg-amber-100 text-amber-900',
  ended: 'bg-emerald-100 text-emerald-800',
  unsold: 'bg-pink-100 text-pink-800',
  cancelled: 'bg-slate-200 text-slate-700',
};

/**
 * The stored status, except while it takes bids: the clock decides there (a scheduled auction
 * past its start is running; one past its end that the close job has not reached is closing).
 */
export function AuctionStatusBadge({ status, shown }: { status: AuctionStatus; shown?: PublicAuctionStatus }) {
  const taking = status === 'scheduled' || status === 'running';
  const closing = taking && shown === 'ended';
  const key: AuctionStatus = taking && (shown === 'scheduled' || shown === 'running') ? shown : closing ? 'ended' : status;
  return (
    <span className={`rounded-full px-2.5 py-0.5 text-xs font-bold ${statusClass[key]}`} data-auction-status={status}>
      {closing ? 'Closing' : statusText[key]}
    </span>
  );
}

/** Every bid, newest first, with the bidder's full username (the admin's eyes only). */
export function BidHistory({ bids }: { bids: AdminBid[] }) {
  if (bids.length === 0) return <p className="m-0 text-sm text-slate-600">No bids yet.</p>;
  return (
    <ol className="m-0 grid list-none gap-0 p-0 text-sm" aria-label="Bid history" data-bid-history>
      {bids.map((bid) => (
        <li key={bid.id} className="flex flex-wrap items-baseline gap-x-3 border-b border-slate-100 py-2 last:border-0">
          <span className="min-w-0 flex-1 break-words font-semibold">{bid.username}</span>
          <span className="tabular-nums font-bold">{formatDollars(bid.amount)}</span>
          <span className="w-full text-slate-600 sm:w-auto">
            {formatDateTime(bid.at)}
            {bid.proxy ? ' · automatic' : ''}
          </span>
        </li>
      ))}
    </ol>
  );
}
