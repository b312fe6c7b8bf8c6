import { Hono } from 'hono';
import { cancelAuction, endAuctionEarly, setUpAuction } from '../../../domain/auctions/admin.ts';
import { adminAuctionDetail, type AdminAuctionDetail } from '../../../domain/auctions/admin-views.ts';
import { checkAuctionSetup, DEFAULT_AUCTION_MS } from '../../../domain/auctions/increments.ts';
import { findProduct, productLabel } from '../../../domain/catalog/catalog.ts';
import { variantsOf } from '../../../domain/inventory/variants.ts';
import { DomainError, validationError } from '../../../domain/errors.ts';
import type { AppContext, AppEnv } from '../../../http/context.ts';
import { setFlash } from '../../../http/flash.ts';
import { renderPage } from '../../../http/render.tsx';
import type { PageStatus } from '../../../http/shared-page.ts';
import { formBody } from '../../../http/request.ts';
import { auctionReasonForm, auctionSetupForm, auctionSetupInput } from '../../../shared/schemas/auction-forms.ts';
import { ADMIN_AUCTION_FILTERS, type AdminAuctionFilter, auctionCancelBody, auctionEndBody } from '../../../shared/schemas/auctions.ts';
import { auctionsTabHref } from './auctions-tab.tsx';
import { formatDollars } from '../../../shared/money.ts';
import { toStoreInput } from '../../../shared/store-time.ts';
import { AuctionPage } from './auction-page.tsx';
import { ConfirmStep } from './confirm-step.tsx';
import { adminNotFound } from './product-removal.tsx';
import { formRoute, type FormValues } from './product-form.tsx';

/*
 * The admin's auction page and its three form posts (issue 28, item 1), mounted behind the admin
 * gate (role and PIN) in index.tsx. Each post calls the same domain function as the API
 * (admin-auctions.ts); a refusal shows the page again with the message by its field, nothing saved.
 */

const idOf = <E extends AppEnv>(c: AppContext<E>) => {
  const raw = c.req.param('id') ?? '';
  return /^\d{1,12}$/.test(raw) ? Number(raw) : 0;
};

const amountText = (dollars: number | null) => (dollars === null ? '' : dollars.toFixed(2));

/** The set-up form's values: the open auction's terms, or the defaults (now to 7 days, no reserve, the ladder). */
function valuesFor(auction: AdminAuctionDetail | undefined, now: number): FormValues {
  if (auction?.open)
    return {
      startingBid: amountText(auction.startingBid),
      increment: amountText(auction.increment),
      reservePrice: amountText(auction.reservePrice),
      startsAt: toStoreInput(auction.startsAtMs),
      endsAt: toStoreInput(auction.endsAtMs),
      keepBuyNow: auction.keepBuyNow,
      variantId: auction.variantId === null ? '' : String(auction.variantId),
    };
  return {
    startingBid: '',
    increment: '',
    reservePrice: '',
    startsAt: toStoreInput(now),
    endsAt: toStoreInput(now + DEFAULT_AUCTION_MS),
    keepBuyNow: false,
    variantId: '',
  };
}

interface Shown {
  values?: FormValues;
  errors?: Record<string, string>;
  reason?: string;
  status?: PageStatus;
  toast?: { title: string; description: string; variant: 'destructive' };
}

function show<E extends AppEnv>(c: AppContext<E>, productId: number, shown: Shown = {}) {
  const { db, clock } = c.env.deps;
  const product = findProduct(db, productId);
  if (!product) return adminNotFound(c);
  const now = clock.now();
  const wanted = Number(c.req.query('auction'));
  const auction = adminAuctionDetail(db, productId, now, Number.isSafeInteger(wanted) && wanted > 0 ? wanted : undefined);
  const formHref = `${formRoute[product.productType]}/${product.id}`;
  return renderPage(
    c,
    { title: `Auction: ${productLabel(product)}`, path: '/admin', noindex: true },
    <AuctionPage
      productId={product.id}
      productName={productLabel(product)}
      formHref={formHref}
      bidEnabled={product.bidEnabled}
      auction={auction}
      sizes={variantsOf(db, product.id).map((variant) => ({ id: variant.id, size: variant.size, available: variant.quantity }))}
      values={shown.values ?? valuesFor(auction, now)}
      errors={shown.errors ?? {}}
      reason={shown.reason}
    />,
    { status: shown.status, toast: shown.toast, backHref: formHref },
  );
}

const pageStatus = (error: DomainError): PageStatus => (error.status === 404 ? 404 : error.status === 409 ? 409 : 400);

const FORM_FIELDS = ['startingBid', 'increment', 'reservePrice', 'startsAt', 'endsAt', 'keepBuyNow', 'variantId', 'reason'];

/** The messages by their fields; one no field shows (Bid off, already ended) goes above the forms. */
function fieldsShown(error: DomainError): Record<string, string> {
  const fields = error.fields ?? {};
  return Object.keys(fields).some((name) => FORM_FIELDS.includes(name)) ? fields : { _: error.message };
}

/** A refusal: the page again with the typed values and each message by its field. */
function refused<E extends AppEnv>(c: AppContext<E>, error: DomainError, title: string, shown: Shown) {
  if (error.status === 404) return adminNotFound(c);
  return show(c, idOf(c), {
    ...shown,
    errors: { ...fieldsShown(error), ...shown.errors },
    status: pageStatus(error),
    toast: { title, description: error.message, variant: 'destructive' },
  });
}

const back = (productId: number) => `/admin/products/${productId}/auction`;

/** Where a cancel or end goes after it: the Auctions tab's filter it came from, else the auction page. */
const backTo = (productId: number, from: string | undefined) =>
  ADMIN_AUCTION_FILTERS.includes(from as AdminAuctionFilter) ? auctionsTabHref(from as AdminAuctionFilter) : back(productId);

/** 'End auction early: {product}?' with what happens next; the reason carried over as typed. */
function confirmEnd<E extends AppEnv>(c: AppContext<E>, productId: number, reason: string, from: string | undefined) {
  const { db, clock } = c.env.deps;
  const product = findProduct(db, productId);
  if (!product) return adminNotFound(c);
  const auction = adminAuctionDetail(db, productId, clock.now());
  const name = productLabel(product);
  return renderPage(
    c,
    { title: 'Confirm ending the auction', path: '/admin', noindex: true },
    <ConfirmStep
      title={`End auction early: ${name}?`}
      action={`/admin/products/${productId}/auction/end`}
      fields={{ reason, back: from }}
      backHref={backTo(productId, from)}
      confirmLabel="Yes, End auction early"
    >
      <p className="m-0">
        {!auction || auction.bidCount === 0
          ? 'Nobody has bid: the auction ends unsold and the item goes back on the shelf.'
          : `${auction.bidCount === 1 ? '1 bid' : `${auction.bidCount} bids`}: the highest bidder wins at the current price if the reserve is met, as if the time had run out.`}
      </p>
      <p className="m-0">
        {`${!auction || auction.bidCount === 0 ? 'The reason is kept with the auction' : 'Every bidder is told why'}: “${reason}”. This cannot be undone.`}
      </p>
    </ConfirmStep>,
    { backHref: backTo(productId, from) },
  );
}

export const adminAuctionPages = new Hono<AppEnv>()
  .get('/admin/products/:id{[0-9]+}/auction', (c) => show(c, idOf(c)))
  .post(
    '/admin/products/:id{[0-9]+}/auction',
    formBody(auctionSetupForm, (c, error) => refused(c, error, 'Auction not saved', {})),
    (c) => {
      const post = c.req.valid('form');
      const { input, errors } = auctionSetupInput(post);
      const values: FormValues = { ...post, keepBuyNow: input.keepBuyNow === true } as FormValues;
      const id = idOf(c);
      try {
        if (Object.keys(errors).length > 0) {
          // A time that is not one: nothing is saved, and the other fields' messages still show beside it.
          const others = checkAuctionSetup({ ...input, startsAt: null, endsAt: null }, c.env.deps.clock.now());
          const fields = { ...(others.ok ? {} : others.fields), ...errors };
          throw new DomainError(400, Object.values(fields)[0]!, fields);
        }
        const saved = setUpAuction(c.env.deps, id, input);
        const starts = saved.startsAt > c.env.deps.clock.now() ? 'It opens' : 'Bidding is open';
        setFlash(c, { title: 'Auction saved', description: `${starts} from ${formatDollars(saved.startingBidCents / 100)}.` });
        return c.redirect(back(id), 303);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return refused(c, error, 'Auction not saved', { values });
      }
    },
  )
  .post(
    '/admin/products/:id{[0-9]+}/auction/cancel',
    formBody(auctionReasonForm, (c, error) => refused(c, error, 'Auction not cancelled', {})),
    (c) => {
      const id = idOf(c);
      try {
        const parsed = auctionCancelBody.safeParse(c.req.valid('form'));
        if (!parsed.success) throw validationError(parsed.error);
        cancelAuction(c.env.deps, id, parsed.data.reason || undefined);
        setFlash(c, { title: 'Auction cancelled', description: 'Nobody had bid; the item is back on the shelf.' });
        return c.redirect(backTo(id, c.req.valid('form').back), 303);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return refused(c, error, 'Auction not cancelled', {});
      }
    },
  )
  .post(
    '/admin/products/:id{[0-9]+}/auction/end',
    formBody(auctionReasonForm, (c, error) => refused(c, error, 'Auction not ended', {})),
    (c) => {
      const id = idOf(c);
      const form = c.req.valid('form');
      const typed = form.reason ?? '';
      try {
        const parsed = auctionEndBody.safeParse({ reason: typed });
        if (!parsed.success) throw validationError(parsed.error);
        // The button asks first, as Mark Delivered does: nothing changes until the admin confirms.
        if (form.confirmed !== 'yes') return confirmEnd(c, id, parsed.data.reason, form.back);
        const ended = endAuctionEarly(c.env.deps, id, parsed.data.reason);
        setFlash(c, {
          title: 'Auction ended',
          description: ended.bidCount === 0 ? 'Nobody had bid: it ended unsold.' : 'Every bidder is told why; the highest bidder wins if the reserve is met.',
        });
        return c.redirect(backTo(id, c.req.valid('form').back), 303);
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return refused(c, error, 'Auction not ended', { reason: typed });
      }
    },
  );
