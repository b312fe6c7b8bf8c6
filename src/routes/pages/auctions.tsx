import { Hono } from 'hono';
import { timeLeftText } from '../../components/auction-format.ts';
import { formatDateTime } from '../../components/format.ts';
import { ProductImage } from '../../components/ProductImage.tsx';
import { runningAuctions } from '../../domain/auctions/lists.ts';
import type { AppEnv } from '../../http/context.ts';
import { renderPage } from '../../http/render.tsx';
import { formatDollars } from '../../shared/money.ts';
import { SOFT_CLOSE_TEXT } from '../../shared/views/auctions.ts';
import { cacheListings } from './catalog.tsx';

/*
 * /auctions (issue 28, item 6): the auctions taking bids now, ending soonest first, each a link
 * to its product page, where the bidding is. Server-rendered, no script: the time left is said
 * to the minute and the page is kept for that minute at most (cacheListings).
 */

type RunningAuction = ReturnType<typeof runningAuctions>[number];

const bidCountText = (count: number) => (count === 0 ? 'No bids yet' : count === 1 ? '1 bid' : `${count} bids`);

function AuctionItem({ auction, now }: { auction: RunningAuction; now: number }) {
  const endsAt = Date.parse(auction.endsAt);
  const started = auction.currentPrice !== null;
  return (
    <li data-auction={auction.productId} className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm">
      <a href={`/product/${auction.productId}`} className="flex gap-3 p-3 text-ink no-underline hover:bg-slate-50 sm:flex-col sm:gap-0 sm:p-0">
        <div className="h-24 w-24 shrink-0 overflow-hidden rounded-xl bg-slate-50 sm:aspect-square sm:h-auto sm:w-full sm:rounded-none">
          <ProductImage
            product={{ imageUrl: auction.imageUrl, productType: auction.productType, brand: auction.name, model: '' }}
            className="h-full w-full object-contain"
          />
        </div>
        <div className="min-w-0 flex-1 sm:p-4">
          <h2 className="m-0 text-base font-bold leading-snug line-clamp-2">{auction.name}</h2>
          <p className="m-0 mt-1 text-xs font-semibold uppercase tracking-wide text-slate-600">{started ? 'Current bid' : 'Starting bid'}</p>
          <p className="m-0 text-xl font-extrabold">{formatDollars(started ? auction.currentPrice! : auction.minimumBid)}</p>
          <p className="m-0 mt-1 flex flex-wrap gap-x-3 text-sm text-slate-700">
            <span>{bidCountText(auction.bidCount)}</span>
            <strong className="text-coral-dark">{timeLeftText(endsAt, now)}</strong>
          </p>
          <p className="m-0 mt-0.5 text-xs text-slate-600">
            {'Ends '}
            <time dateTime={auction.endsAt}>{formatDateTime(endsAt)}</time>
          </p>
          <span className="mt-3 inline-block rounded-lg bg-ink px-4 py-2 text-xs font-bold text-white">
            Bid now<span className="sr-only">{` on ${auction.name}`}</span>
          </span>
        </div>
      </a>
    </li>
  );
}

function AuctionsPage({ list, now }: { list: RunningAuction[]; now: number }) {
  return (
    <div className="grid gap-5">
      <div>
        <h1 className="m-0 text-2xl font-extrabold sm:text-3xl">Auctions</h1>
        <p className="m-0 mt-2 max-w-2xl text-slate-700">
          One-of-a-kind pieces go to the highest bidder. Enter the most you would pay: we bid for you, one step at a time, only as far as needed.{' '}
          {SOFT_CLOSE_TEXT} Free delivery within 92651 (Laguna Beach).
        </p>
      </div>
      {list.length === 0 ? (
        <div className="rounded-xl bg-white p-8 text-center text-slate-600">
          <p className="m-0">No auctions running right now. Check back soon!</p>
          <a href="/products" className="mt-3 inline-block font-semibold text-sea-dark">
            Browse all products
          </a>
        </div>
      ) : (
        <ul aria-label="Running auctions" className="m-0 grid list-none grid-cols-1 gap-3 p-0 sm:grid-cols-2 sm:gap-4 lg:grid-cols-3">
          {list.map((auction) => (
            <AuctionItem key={auction.productId} auction={auction} now={now} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** /auctions: public, kept in the page cache while no auction changes, for the minute at most. */
export const auctionPages = new Hono<AppEnv>().get('/auctions', cacheListings, (c) => {
  const { db, clock } = c.env.deps;
  const now = clock.now();
  return renderPage(
    c,
    {
      title: 'Auctions',
      description: 'Bid on one-of-a-kind designer pieces in Laguna Beach: the auctions running now, ending soonest first, with free local delivery.',
      path: '/auctions',
    },
    <AuctionsPage list={runningAuctions(db, now)} now={now} />,
  );
});
