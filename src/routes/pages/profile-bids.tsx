import type { ReactNode } from 'react';
import { timeLeftText } from '../../components/auction-format.ts';
import { formatDateTime } from '../../components/format.ts';
import { ProductImage } from '../../components/ProductImage.tsx';
import type { userBids } from '../../domain/auctions/lists.ts';
import { formatDollars } from '../../shared/money.ts';

/*
 * The profile's Bids tab (issue 28, item 6): the auctions the shopper bid in, as Active (leading
 * or outbid, with a way back to bid), Won (the order once paid, else the product page to pay)
 * and Lost. Read from userBids, the same list as GET /api/user/bids.
 */

type Bids = ReturnType<typeof userBids>;
type BidEntry = Bids['active'][number];

const priceOf = (entry: BidEntry) => entry.currentPrice ?? entry.minimumBid;

function Row({ entry, children, action }: { entry: BidEntry; children: ReactNode; action: ReactNode }) {
  return (
    <li
      data-bid={entry.productId}
      className="grid grid-cols-[3.5rem_minmax(0,1fr)] items-center gap-x-3 rounded-xl border border-slate-200 p-3 sm:grid-cols-[3.5rem_minmax(0,1fr)_auto]"
    >
      <div className="row-span-2 h-14 w-14 self-start overflow-hidden rounded-lg bg-slate-50 sm:row-span-1 sm:self-center">
        <ProductImage
          product={{ imageUrl: entry.imageUrl, productType: entry.productType, brand: entry.name, model: '' }}
          size={112}
          className="h-full w-full object-contain"
        />
      </div>
      <div className="min-w-0">
        <a href={`/product/${entry.productId}`} className="block font-bold leading-snug text-ink no-underline line-clamp-2 hover:underline">
          {entry.name}
        </a>
        <div className="mt-0.5 text-sm text-slate-700">{children}</div>
      </div>
      {/* Under the text on a phone, beside it on a wider screen. */}
      <div className="mt-2 sm:mt-0">{action}</div>
    </li>
  );
}

const button = 'inline-block rounded-lg px-3 py-2 text-xs font-bold no-underline';

function ActiveRow({ entry, now }: { entry: BidEntry; now: number }) {
  const action = entry.leading ? (
    <a href={`/product/${entry.productId}`} className={`${button} border border-slate-300 text-ink hover:bg-slate-50`}>
      View<span className="sr-only">{` the auction of ${entry.name}`}</span>
    </a>
  ) : (
    <a href={`/product/${entry.productId}`} className={`${button} bg-ink text-white hover:bg-ink-light`}>
      Bid again<span className="sr-only">{` on ${entry.name}`}</span>
    </a>
  );
  return (
    <Row entry={entry} action={action}>
      <p className={`m-0 font-semibold ${entry.leading ? 'text-emerald-700' : 'text-coral-dark'}`}>
        {entry.leading ? "You're the highest bidder" : "You've been outbid"}
      </p>
      <p className="m-0">
        {`${entry.currentPrice === null ? 'Starting bid' : 'Current bid'} ${formatDollars(priceOf(entry))} · `}
        {entry.status === 'scheduled' ? 'not started yet' : timeLeftText(Date.parse(entry.endsAt), now)}
      </p>
    </Row>
  );
}

function WonRow({ entry }: { entry: BidEntry }) {
  const price = formatDollars(priceOf(entry));
  if (entry.orderId !== null) {
    return (
      <Row
        entry={entry}
        action={
          <a href={`/orders/${entry.orderId}`} className={`${button} border border-slate-300 text-ink hover:bg-slate-50`}>
            View order<span className="sr-only">{` for ${entry.name}`}</span>
          </a>
        }
      >
        <p className="m-0 font-semibold text-emerald-700">{`You won it for ${price}`}</p>
        <p className="m-0">Paid. Free delivery within 92651.</p>
      </Row>
    );
  }
  return (
    <Row
      entry={entry}
      action={
        <a href={`/product/${entry.productId}`} className={`${button} bg-coral-dark text-white hover:bg-coral`}>
          Pay now<span className="sr-only">{` for ${entry.name}`}</span>
        </a>
      }
    >
      <p className="m-0 font-semibold text-emerald-700">{`You won it for ${price}`}</p>
      <p className="m-0 font-semibold text-amber-800">
        {entry.paymentDueAt ? `Payment needed by ${formatDateTime(Date.parse(entry.paymentDueAt))}` : 'Payment needed'}
      </p>
    </Row>
  );
}

const lostText: Record<string, string> = {
  ended: 'Won by another bidder',
  unsold: 'Ended without a sale',
  cancelled: 'Cancelled by the shop',
};

function LostRow({ entry }: { entry: BidEntry }) {
  return (
    <Row
      entry={entry}
      action={
        <a href={`/product/${entry.productId}`} className={`${button} border border-slate-300 text-ink hover:bg-slate-50`}>
          View<span className="sr-only">{` ${entry.name}`}</span>
        </a>
      }
    >
      <p className="m-0 font-semibold text-slate-700">{lostText[entry.status] ?? 'Ended'}</p>
      <p className="m-0">{`${entry.status === 'ended' ? 'Final bid' : 'Last bid'} ${formatDollars(priceOf(entry))} · ended ${formatDateTime(Date.parse(entry.endsAt))}`}</p>
    </Row>
  );
}

function Group({ id, title, children }: { id: string; title: string; children: ReactNode[] }) {
  return (
    <section aria-labelledby={`bids-${id}`} data-bids={id} className="grid grid-cols-1 gap-2">
      <h2 id={`bids-${id}`} className="m-0 text-base font-bold">
        {`${title} (${children.length})`}
      </h2>
      {children.length === 0 ? <p className="m-0 text-sm text-slate-600">None.</p> : <ul className="m-0 grid list-none grid-cols-1 gap-2 p-0">{children}</ul>}
    </section>
  );
}

export function BidsTab({ bids, now }: { bids: Bids; now: number }) {
  if (bids.active.length + bids.won.length + bids.lost.length === 0) {
    return (
      <div className="py-6 text-center">
        <p className="m-0 text-slate-600">You haven't bid on anything yet.</p>
        <a href="/auctions" className="mt-3 inline-block font-semibold text-sea-dark">
          See the auctions
        </a>
      </div>
    );
  }
  return (
    <div className="grid grid-cols-1 gap-6">
      <Group id="active" title="Active">
        {bids.active.map((entry) => (
          <ActiveRow key={entry.auctionId} entry={entry} now={now} />
        ))}
      </Group>
      <Group id="won" title="Won">
        {bids.won.map((entry) => (
          <WonRow key={entry.auctionId} entry={entry} />
        ))}
      </Group>
      <Group id="lost" title="Lost">
        {bids.lost.map((entry) => (
          <LostRow key={entry.auctionId} entry={entry} />
        ))}
      </Group>
    </div>
  );
}
