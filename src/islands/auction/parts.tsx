import type { ReactNode } from 'react';
import { formatDollars } from '../../shared/money.ts';
import { type AuctionView, RESERVE_TEXT, SOFT_CLOSE_TEXT } from '../../shared/views/auctions.ts';
import { bidTimeText, dateTimeText, timeLeftText } from './time.ts';

/* The auction panel's pieces that only show the view; AuctionPanel.tsx holds the state and the calls. */

export const bidsText = (count: number) => `${count} ${count === 1 ? 'bid' : 'bids'}`;

/** 'Reserve not met' (never the amount), 'Reserve met', or nothing without a reserve. */
export function ReserveState({ view }: { view: AuctionView }) {
  if (!view.hasReserve) return null;
  return (
    <span data-reserve={view.reserveMet ? 'met' : 'not-met'} className={view.reserveMet ? 'font-semibold text-emerald-700' : 'font-semibold text-amber-800'}>
      {view.reserveMet ? 'Reserve met' : 'Reserve not met'}
    </span>
  );
}

/** How the end and the reserve work, said where people bid (the same words as /auctions). */
export function AuctionRules({ view }: { view: AuctionView }) {
  return (
    <div className="grid gap-1 text-sm text-slate-600" data-auction-rules="">
      {view.hasReserve && (
        <p className="m-0" data-reserve-help="">
          <strong className="text-ink">{view.reserveMet ? 'Reserve met: ' : 'Reserve not met: '}</strong>
          {RESERVE_TEXT}
        </p>
      )}
      <p className="m-0" data-soft-close="">
        <strong className="text-ink">Soft close: </strong>
        {SOFT_CLOSE_TEXT}
      </p>
    </div>
  );
}

/** The price, the count, the reserve and the time left of a running auction. */
export function RunningSummary({ view, now }: { view: AuctionView; now: number }) {
  const left = Date.parse(view.endsAt) - now;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-x-4 gap-y-1">
      <div>
        <p className="m-0 text-sm font-semibold text-slate-600">{view.currentPrice === null ? 'Starting bid' : 'Current bid'}</p>
        <p className="m-0 text-3xl font-extrabold tabular-nums" data-current-price="">
          {formatDollars(view.currentPrice ?? view.minimumBid)}
        </p>
      </div>
      <div className="text-right">
        <p className="m-0 text-sm font-semibold text-slate-600">Time left</p>
        <p
          role="timer"
          aria-live="off"
          data-ends-at={view.endsAt}
          className={`m-0 text-xl font-extrabold tabular-nums ${left < 2 * 60_000 ? 'text-red-700' : ''}`}
        >
          {left > 0 ? timeLeftText(left) : 'Ending…'}
        </p>
      </div>
      <p className="col-span-2 m-0 flex flex-wrap gap-x-3 text-sm text-slate-600">
        <span data-bid-count="">{bidsText(view.bidCount)}</span>
        <ReserveState view={view} />
      </p>
    </div>
  );
}

/** 'You're the highest bidder' / 'You've been outbid', with the viewer's own maximum (shown only to them). */
export function Standing({ view }: { view: AuctionView }) {
  if (!view.youBid && !view.leading) return null;
  const max = view.yourMaximum == null ? '' : ` Your maximum: ${formatDollars(view.yourMaximum)}.`;
  if (view.status !== 'running') {
    if (view.status !== 'ended' || !view.leading || view.payment) return null;
    return (
      <p data-standing="won" className="m-0 rounded-xl bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
        <strong>You won this auction.</strong> Your order and receipt are in your orders.
      </p>
    );
  }
  if (view.leading) {
    return (
      <p data-standing="leading" className="m-0 rounded-xl bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
        <strong>You're the highest bidder.</strong>
        {max}
      </p>
    );
  }
  return (
    <p data-standing="outbid" className="m-0 rounded-xl bg-red-50 px-3 py-2 text-sm text-red-800">
      <strong>You've been outbid.</strong>
      {max}
    </p>
  );
}

/** How an auction that is over ended. */
export function Outcome({ view }: { view: AuctionView }) {
  const [title, text]: [string, ReactNode] =
    view.status === 'ended'
      ? // Between the end and the close job, an auction whose reserve was not met reads 'ended' too: no sale to announce.
        view.currentPrice === null || !view.reserveMet
        ? ['Auction ended', view.currentPrice === null ? 'Nobody bid.' : `${bidsText(view.bidCount)}; the reserve price was not met.`]
        : view.payment
          ? // Not sold until it is paid: the winner's Retry, or the runner-up's offer.
            [view.payment.kind === 'retry' ? `You won at ${formatDollars(view.currentPrice)}` : 'Auction ended', bidsText(view.bidCount)]
          : [`Sold for ${formatDollars(view.currentPrice)}`, bidsText(view.bidCount)]
      : view.status === 'unsold'
        ? ['Ended without a sale', view.bidCount > 0 ? `${bidsText(view.bidCount)}; the reserve price was not met or the winner did not pay.` : 'Nobody bid.']
        : ['Auction cancelled', 'This auction was called off by the shop.'];
  return (
    <div data-outcome={view.status}>
      <p className="m-0 text-sm font-semibold text-slate-600">Auction over</p>
      <p className="m-0 text-2xl font-extrabold">{title}</p>
      <p className="m-0 mt-1 text-sm text-slate-600">{text}</p>
    </div>
  );
}

/** Before the start: when bidding opens, and the starting bid. */
export function Scheduled({ view, now }: { view: AuctionView; now: number }) {
  return (
    <div data-scheduled="">
      <p className="m-0 text-sm font-semibold text-slate-600">Starting bid</p>
      <p className="m-0 text-3xl font-extrabold tabular-nums">{formatDollars(view.minimumBid)}</p>
      <p className="m-0 mt-2 text-sm font-semibold">{`Bidding opens ${dateTimeText(view.startsAt)}`}</p>
      <p className="m-0 text-sm text-slate-600">
        {'Opens in '}
        <span role="timer" className="tabular-nums">
          {timeLeftText(Date.parse(view.startsAt) - now)}
        </span>
      </p>
    </div>
  );
}

/** The bid history, newest first, with masked names. */
export function History({ view, now, headingId }: { view: AuctionView; now: number; headingId: string }) {
  return (
    <section aria-labelledby={headingId} className="border-t border-slate-200 pt-3">
      <h3 id={headingId} className="m-0 text-sm font-bold">
        {`Bid history (${bidsText(view.bidCount)})`}
      </h3>
      {view.bids.length === 0 ? (
        <p className="m-0 mt-2 text-sm text-slate-600">
          {view.status === 'running' || view.status === 'scheduled' ? 'No bids yet. Be the first!' : 'No bids.'}
        </p>
      ) : (
        <ol className="m-0 mt-2 grid max-h-64 list-none gap-1 overflow-y-auto p-0 text-sm" data-history="">
          {view.bids.map((entry) => (
            // One bidder's amounts rise: bidder, amount and time name one row.
            <li key={`${entry.at}-${entry.bidder}-${entry.amount}`} className="grid grid-cols-[minmax(0,1fr)_auto_auto] items-baseline gap-3" data-bid="">
              <span className="truncate font-medium">{entry.bidder}</span>
              <span className="font-bold tabular-nums">{formatDollars(entry.amount)}</span>
              <time dateTime={entry.at} className="text-xs text-slate-600 tabular-nums">
                {bidTimeText(entry.at, now)}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
