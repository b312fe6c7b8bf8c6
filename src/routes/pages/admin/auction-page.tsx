import { formatDateTime } from '../../../components/format.ts';
import { Island } from '../../../components/Island.tsx';
import type { AdminAuctionDetail } from '../../../domain/auctions/admin-views.ts';
import { formatDollars } from '../../../shared/money.ts';
import { BackIcon } from '../../../shared/ui/icons.tsx';
import { AuctionStatusBadge, BidHistory } from './auction-parts.tsx';
import { Field, type FormValues, inputClass, TextField } from './product-form.tsx';

/*
 * /admin/products/{id}/auction (issue 28, item 1): one product's auction, on its own page so the
 * four product forms keep one shape. Set it up or change it before the first bid; while it runs,
 * its state, its bids with full usernames, Cancel (no bids) and End early (a reason). No JavaScript needed.
 */

export interface AuctionPageProps {
  productId: number;
  productName: string;
  /** The product form's route, for Back and for turning Bid on. */
  formHref: string;
  bidEnabled: boolean;
  auction: AdminAuctionDetail | undefined;
  /** The product's sizes with their available counts: a Size select shows when there are several. */
  sizes: AuctionSize[];
  /** The set-up form's values (typed ones after a refusal). */
  values: FormValues;
  errors: Record<string, string>;
  /** The End early form's typed reason after a refusal. */
  reason?: string;
}

export interface AuctionSize {
  id: number;
  size: string;
  available: number;
}

const LIVE: AdminAuctionDetail['status'][] = ['scheduled', 'running', 'awaiting_payment', 'second_chance'];

const LADDER = 'Leave blank for the price ladder: $1 under $50, $2.50 under $250, $5 under $1,000, $10 from $1,000 up.';
/** A dollar amount field: cents, never below one. */
const DOLLARS = { type: 'number', min: '0.01', step: '0.01', inputMode: 'decimal' } as const;

function Section({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-2xl border border-slate-200 bg-white p-4 sm:p-7">
      <h2 id={id} className="m-0 mb-4 text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

function State({ auction }: { auction: AdminAuctionDetail }) {
  const rows: [string, string][] = [
    ['Current price', auction.currentPrice === null ? `No bids yet (starting bid ${formatDollars(auction.startingBid)})` : formatDollars(auction.currentPrice)],
    ['Bids', String(auction.bidCount)],
    ...(auction.size ? [['Size', auction.size] as [string, string]] : []),
    [auction.winner ? 'Buyer' : 'Highest bidder', auction.winner ?? auction.leader ?? '—'],
    ['Starts', formatDateTime(auction.startsAtMs)],
    [auction.open ? 'Ends' : 'Ended', formatDateTime(auction.endsAtMs)],
    ['Increment', auction.increment === null ? 'Price ladder' : formatDollars(auction.increment)],
    ['Reserve (secret)', auction.reservePrice === null ? 'None' : `${formatDollars(auction.reservePrice)} · ${auction.reserveMet ? 'met' : 'not met yet'}`],
    ['Buy Now', auction.keepBuyNow ? 'Kept until the first bid' : 'Off while the auction runs'],
  ];
  if (auction.paymentDueAt !== null) rows.push(['Payment due', formatDateTime(auction.paymentDueAt)]);
  if (auction.reason) rows.push(['Reason', auction.reason]);
  return (
    <>
      <p className="m-0 mb-3 flex flex-wrap items-center gap-2 text-sm">
        <AuctionStatusBadge status={auction.status} shown={auction.shownStatus} />
        {auction.winnerOrderId !== null && (
          <a href={`/admin?tab=orders#order-${auction.winnerOrderId}`} className="font-semibold text-sea-dark">
            {`Order #${auction.winnerOrderId}`}
          </a>
        )}
      </p>
      {!auction.open && (auction.status === 'scheduled' || auction.status === 'running') && (
        <p className="m-0 mb-3 text-sm text-slate-600">Time is up: within a minute the store charges the winner or marks it unsold.</p>
      )}
      <dl className="m-0 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm" data-auction-state>
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-600">{label}</dt>
            <dd className="m-0 min-w-0 break-words font-medium">{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** 'M · 3 available': the auction's own size counts the unit it already holds apart. */
function sizeOption(size: AuctionSize, heldId: number | null): string {
  if (size.id === heldId) return `${size.size} · held, ${size.available} more available`;
  return size.available > 0 ? `${size.size} · ${size.available} available` : `${size.size} · sold out`;
}

/** The size the auction sells (issue 38), for a product with several: none is chosen for the admin. */
function SizeSelect({ sizes, values, errors, heldId }: { sizes: AuctionSize[]; values: FormValues; errors: Record<string, string>; heldId: number | null }) {
  const chosen = typeof values.variantId === 'string' ? values.variantId : '';
  return (
    <Field
      name="variantId"
      label="Size"
      hint="The auction sells one unit of this size; it is held back from the shelf until the auction is over."
      errors={errors}
    >
      {(a11y) => (
        <select {...a11y} name="variantId" defaultValue={chosen} className={inputClass(errors.variantId)}>
          <option value="">Choose a size</option>
          {sizes.map((size) => (
            <option key={size.id} value={String(size.id)}>
              {sizeOption(size, heldId)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function SetupForm({
  productId,
  values,
  errors,
  changing,
  sizes,
  heldId,
}: {
  productId: number;
  values: FormValues;
  errors: Record<string, string>;
  changing: boolean;
  sizes: AuctionSize[];
  heldId: number | null;
}) {
  return (
    <form method="post" action={`/admin/products/${productId}/auction`} noValidate className="flex flex-col gap-5">
      {sizes.length > 1 && <SizeSelect sizes={sizes} values={values} errors={errors} heldId={heldId} />}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-5 sm:grid-cols-2">
        <TextField name="startingBid" label="Starting bid ($)" values={values} errors={errors} {...DOLLARS} />
        <TextField
          name="reservePrice"
          label="Reserve price ($, optional)"
          hint="Secret: bidders only see 'Reserve not met' until a bid reaches it."
          values={values}
          errors={errors}
          {...DOLLARS}
        />
      </div>
      <TextField name="increment" label="Bid increment ($, optional)" hint={LADDER} values={values} errors={errors} {...DOLLARS} />
      <div className="grid grid-cols-[minmax(0,1fr)] gap-5 sm:grid-cols-2">
        <TextField name="startsAt" label="Starts at" hint="Store time (Pacific)" values={values} errors={errors} type="datetime-local" />
        <TextField
          name="endsAt"
          label="Ends at"
          hint="Store time (Pacific); a bid in the last 2 minutes adds 2 minutes"
          values={values}
          errors={errors}
          type="datetime-local"
        />
      </div>
      <Field name="keepBuyNow" label="Buy Now" errors={errors}>
        {(a11y) => (
          <label className="mt-1.5 flex items-center gap-2 text-sm">
            <input {...a11y} type="checkbox" name="keepBuyNow" defaultChecked={values.keepBuyNow === true} className="h-4 w-4" />
            Keep Buy Now until the first bid
          </label>
        )}
      </Field>
      <div className="flex justify-end">
        <Island name="SubmitButton" mode="idle" props={{ label: changing ? 'Save auction' : 'Start auction', busyLabel: 'Saving...' }} />
      </div>
    </form>
  );
}

function EndEarly({ productId, bidCount, errors, reason }: { productId: number; bidCount: number; errors: Record<string, string>; reason?: string }) {
  const error = errors.reason;
  return (
    <form method="post" action={`/admin/products/${productId}/auction/end`} noValidate className="flex flex-col gap-3" id="end">
      <label htmlFor="end-reason" className="text-sm font-medium">
        Reason (every bidder is told)
      </label>
      <textarea
        id="end-reason"
        name="reason"
        rows={2}
        maxLength={500}
        defaultValue={reason ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'end-reason-error' : undefined}
        className={`w-full rounded-lg border p-3 text-base ${error ? 'border-red-500' : 'border-slate-300'}`}
      />
      {error && (
        <p id="end-reason-error" className="m-0 text-sm text-red-600">
          {error}
        </p>
      )}
      <p className="m-0 text-sm text-slate-600">
        {bidCount === 0
          ? 'Nobody has bid: the auction ends unsold and the item goes back on the shelf.'
          : 'The highest bidder wins at the current price if the reserve is met, as if the time had run out.'}
      </p>
      <div className="flex justify-end">
        <button type="submit" className="rounded-lg border-0 bg-red-600 px-4 py-2.5 text-sm font-bold text-white cursor-pointer hover:bg-red-700">
          End auction early
        </button>
      </div>
    </form>
  );
}

/** The product's auction: what it is now, what the admin may do with it, and its bids. */
export function AuctionPage({ productId, productName, formHref, bidEnabled, auction, sizes, values, errors, reason }: AuctionPageProps) {
  const open = auction?.open === true;
  // Not over yet: taking bids, closing (past its end, the close job not there yet) or owed its price.
  const live = auction !== undefined && LIVE.includes(auction.status);
  const changeable = auction !== undefined && (auction.status === 'scheduled' || auction.status === 'running') && auction.bidCount === 0;
  const canSetUp = bidEnabled && (!live || changeable);
  return (
    // One column that may be narrower than its widest field (a date-time input, a long name): a grid
    // item is otherwise at least its content's min-content width, and a 390 px phone scrolled sideways.
    <div className="mx-auto grid max-w-2xl grid-cols-[minmax(0,1fr)] gap-5">
      <div className="flex flex-wrap items-center gap-3">
        <a
          href={formHref}
          aria-label="Back to the product form"
          className="inline-flex h-10 w-10 items-center justify-center rounded-full text-ink hover:bg-slate-200"
        >
          <BackIcon />
        </a>
        <div className="min-w-0 flex-1">
          <h1 className="m-0 text-2xl font-extrabold">Auction</h1>
          <p className="m-0 truncate text-sm text-slate-600">{productName}</p>
        </div>
        <a
          href="/admin?tab=auctions"
          className="rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-bold text-ink no-underline hover:border-ink"
        >
          All auctions
        </a>
      </div>
      {errors._ && (
        <p className="m-0 rounded-lg bg-red-50 p-3 text-sm text-red-700" role="alert">
          {errors._}
        </p>
      )}
      {!bidEnabled && !open && (
        <p className="m-0 rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm" data-bid-off>
          {'Bid is off for this product. Tick Bid (auction) in '}
          <a href={formHref} className="font-semibold text-sea-dark">
            its form
          </a>
          {', save, then set up the auction here.'}
        </p>
      )}
      {auction && (
        <Section title={live ? 'This auction' : 'Last auction'} id="auction-state">
          <State auction={auction} />
        </Section>
      )}
      {canSetUp && (
        <Section title={live ? 'Change the auction (before the first bid)' : 'Set up an auction'} id="auction-setup">
          <SetupForm productId={productId} values={values} errors={errors} changing={live} sizes={sizes} heldId={live ? (auction?.variantId ?? null) : null} />
        </Section>
      )}
      {open && auction && (
        <Section title="Stop the auction" id="auction-stop">
          {auction.bidCount === 0 && (
            <form
              method="post"
              action={`/admin/products/${productId}/auction/cancel`}
              className="mb-5 flex flex-wrap items-center justify-between gap-3 border-b border-slate-100 pb-5"
            >
              <p className="m-0 text-sm text-slate-600">Nobody has bid: cancel it as if it never ran.</p>
              <button
                type="submit"
                className="rounded-lg border border-red-300 bg-white px-4 py-2.5 text-sm font-bold text-red-700 cursor-pointer hover:border-red-600"
              >
                Cancel auction
              </button>
            </form>
          )}
          <EndEarly productId={productId} bidCount={auction.bidCount} errors={errors} reason={reason} />
        </Section>
      )}
      {auction && (
        <Section title={`Bids (${auction.bidCount})`} id="bids">
          <BidHistory bids={auction.bids} />
        </Section>
      )}
    </div>
  );
}
