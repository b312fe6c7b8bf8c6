import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { formatDollars } from '../shared/money.ts';
import type { AuctionEvent, AuctionView } from '../shared/views/auctions.ts';
import { BidForm } from './auction/BidForm.tsx';
import { AuctionRules, History, Outcome, RunningSummary, Scheduled, Standing } from './auction/parts.tsx';
import { PayStep } from './auction/PayStep.tsx';
import { useServerClock } from './auction/time.ts';
import { ApiError, apiRequest } from './lib/http.ts';
import { onLiveFallback, subscribeLive } from './lib/live.ts';
import { MoneyAttempt, OutcomeUnknownError } from './lib/money.ts';
import { toast } from './lib/toast.ts';
import { type Detour, DetourDialog } from './play/DetourDialog.tsx';

/*
 * The product page's auction panel (issue 28, items 2 to 4). The server renders it from the
 * public view; on load it re-reads GET /api/products/{id}/auction (the page may come from the
 * page cache, and only that read carries the viewer's own standing). The live stream's
 * `event: auction` is the public view: the panel takes it and keeps its own standing, re-read
 * once after the event when the viewer has bid (their standing is what may have changed).
 */

/** The fallback poll while the live stream cannot connect. */
export const POLL_MS = 5_000;
/** Events in a burst of bids share one re-read of the viewer's standing. */
export const STANDING_DEBOUNCE_MS = 250;
const PAYMENT_METHOD_REQUIRED = 'PAYMENT_METHOD_REQUIRED';
const PROFILE_INCOMPLETE = 'PROFILE_INCOMPLETE';

export interface AuctionPanelProps {
  productId: number;
  initial: AuctionView;
  /** The Buy Now price, shown while the view offers Buy Now (the admin kept it and nobody has bid); absent: never offered. */
  buyNowPrice?: number;
  /** The size chosen on the product page (issue 38); undefined when none is (or the product has one). */
  variantId?: number;
  /** For tests; the page leaves it at POLL_MS. */
  pollMs?: number;
}

/** The amount typed before a detour (sign in, a card, the profile) comes back in the page's `?bid=`. */
export const BID_PARAM = 'bid';

const isView = (value: unknown): value is AuctionView =>
  !!value && typeof value === 'object' && typeof (value as AuctionView).status === 'string' && Array.isArray((value as AuctionView).bids);

/** The viewer's own fields of the view they hold, kept over a public view. */
const ownOf = (view: AuctionView) => ({ leading: view.leading, youBid: view.youBid, yourMaximum: view.yourMaximum, payment: view.payment });

/** '12.5', '$1,200', ' 30 ' -> dollars; null when it is not an amount. */
export function parseDollars(text: string): number | null {
  const cleaned = text.replace(/[$,\s]/g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  return Number(cleaned);
}

export default function AuctionPanel({ productId, initial, buyNowPrice, pollMs = POLL_MS }: AuctionPanelProps) {
  const id = useId();
  const [view, setView] = useState(initial);
  // The device's clock against the server's, from the view rendered (a cached page's is older: the read on load corrects it).
  const [skew, setSkew] = useState(() => Date.parse(initial.now) - Date.now());
  const path = `/product/${productId}`;
  const [bidError, setBidError] = useState<string | null>(null);
  const [signIn, setSignIn] = useState(false);
  const [signInHref, setSignInHref] = useState('/auth');
  const [busy, setBusy] = useState(false);
  /** Set at once, before React re-renders the button disabled: a double click bids once. */
  const placing = useRef(false);
  const [bidAttempt] = useState(() => new MoneyAttempt());
  const detourDialog = useRef<HTMLDialogElement>(null);
  const [detour, setDetour] = useState<{ to: Detour; n: number } | null>(null);
  const [polling, setPolling] = useState(false);
  /** Set with each read, not at render: an event may come between a read's answer and the render it causes. */
  const youBid = useRef(false);
  /** A read of the viewer's own view has answered: until then a live event cannot tell whether they bid. */
  const standingKnown = useRef(false);

  const take = useCallback((fresh: AuctionView) => {
    standingKnown.current = true;
    youBid.current = fresh.youBid === true;
    setSkew(Date.parse(fresh.now) - Date.now());
    // A read answered after a newer live event keeps that event's public part, with the viewer's own.
    setView((held) => (Date.parse(fresh.now) >= Date.parse(held.now) ? fresh : { ...held, ...ownOf(fresh) }));
  }, []);

  const refresh = useCallback(async () => {
    try {
      const fresh = await apiRequest<AuctionView>('GET', `/api/products/${productId}/auction`);
      if (isView(fresh)) take(fresh);
    } catch {
      // The last view stays; the stream or the next poll brings the next one.
    }
  }, [productId, take]);

  // The view as of now, with the viewer's own part.
  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = subscribeLive('auction', { product: productId }, (message) => {
      const event = message as Partial<AuctionEvent> | null;
      if (!event || event.productId !== productId || !isView(event.auction)) return;
      const publicView = event.auction;
      setSkew(Date.parse(publicView.now) - Date.now());
      setView((held) => ({ ...publicView, ...ownOf(held) }));
      if (standingKnown.current && !youBid.current) return;
      clearTimeout(timer);
      timer = setTimeout(() => void refresh(), STANDING_DEBOUNCE_MS);
    });
    const stopFallback = onLiveFallback(setPolling);
    return () => {
      clearTimeout(timer);
      stop();
      stopFallback();
    };
  }, [productId, refresh]);

  const open = view.status === 'running' || view.status === 'scheduled';
  useEffect(() => {
    if (!polling || !open) return;
    const timer = setInterval(() => void refresh(), pollMs);
    return () => clearInterval(timer);
  }, [polling, open, pollMs, refresh]);

  const target = Date.parse(view.status === 'scheduled' ? view.startsAt : view.endsAt);
  const now = useServerClock(Date.parse(view.now), skew, target, open);
  const passed = open && now >= target;
  // The start or the end has come: the server says what the auction is now.
  useEffect(() => {
    if (passed) void refresh();
  }, [passed, refresh]);

  function detourTo(to: Detour) {
    setDetour((shown) => ({ to, n: (shown?.n ?? 0) + 1 }));
  }
  useEffect(() => {
    if (detour) detourDialog.current?.showModal();
  }, [detour]);

  /** The amount typed last: the detour's way back carries it, so nobody types it twice. */
  const typed = useRef('');
  const [kept, setKept] = useState<string | null>(null);
  useEffect(() => {
    const amount = new URLSearchParams(window.location.search).get(BID_PARAM);
    if (amount !== null && parseDollars(amount) !== null) setKept(amount);
  }, []);
  const backTo = () => {
    const amount = parseDollars(typed.current);
    return amount === null ? path : `${path}?${BID_PARAM}=${amount.toFixed(2)}`;
  };
  const back = (from: string | null) => `next=${encodeURIComponent(backTo())}${from ? `&from=${from}` : ''}`;
  function refused(error: unknown) {
    if (error instanceof OutcomeUnknownError) {
      setBidError(error.message);
      return toast({ title: 'Bid not confirmed yet', description: error.message, variant: 'destructive' });
    }
    if (!(error instanceof ApiError)) {
      setBidError('Your bid could not be sent. Check your connection and try again.');
      return;
    }
    if (error.status === 401) {
      setSignIn(true);
      setSignInHref(`/auth?${back(null)}`);
      setBidError('Sign in to bid.');
      return;
    }
    if (error.status === 402 && error.code === PAYMENT_METHOD_REQUIRED) {
      return detourTo({
        title: 'Payment method required',
        text: 'Add a payment card to your profile to bid. If you win, the card is charged when the auction ends.',
        href: `/profile?tab=payment&${back('auction')}`,
        actionText: 'Add Payment Method',
      });
    }
    if (error.code === PROFILE_INCOMPLETE) {
      const missing = Array.isArray(error.data.missing) ? error.data.missing.map(String) : [];
      return detourTo({
        title: 'Complete your profile',
        text: missing.length ? 'To bid, your profile still needs:' : error.message,
        missing,
        href: `/profile?${back('auction')}`,
        actionText: 'Complete my profile',
      });
    }
    const message = error.fields.maxAmount ?? error.message;
    setBidError(message);
    toast({ title: 'Bid not placed', description: message, variant: 'destructive' });
    // The auction may have moved on (a higher price, the end): show it as it is.
    void refresh();
  }

  // The leader may only raise their own maximum (the server refuses the same or less).
  const least = view.leading && view.yourMaximum != null ? Math.max(view.minimumBid, Math.round(view.yourMaximum * 100 + 1) / 100) : view.minimumBid;

  async function placeBid(amountText: string): Promise<boolean> {
    if (placing.current) return false;
    typed.current = amountText;
    const amount = parseDollars(amountText);
    const tooLow = amount !== null && amount < least;
    if (amount === null || tooLow) {
      setBidError(tooLow ? `Enter ${formatDollars(least)} or more` : `Enter an amount in dollars, like ${least.toFixed(2)}.`);
      return false;
    }
    placing.current = true;
    setBusy(true);
    setBidError(null);
    try {
      const result = await bidAttempt.send<{ leading: boolean; currentPrice: number }>('POST', `/api/products/${productId}/bids`, { maxAmount: amount });
      setSignIn(false);
      toast(
        result.leading
          ? { title: 'Bid placed', description: `You're the highest bidder at ${formatDollars(result.currentPrice)}.` }
          : {
              title: 'Bid placed',
              description: `You've been outbid: another bidder's maximum is higher. The price is now ${formatDollars(result.currentPrice)}.`,
            },
      );
      await refresh();
      return true;
    } catch (error) {
      refused(error);
      return false;
    } finally {
      placing.current = false;
      setBusy(false);
    }
  }

  const historyId = `${id}-history`;
  return (
    <section id="bid" aria-label="Auction" data-auction-status={view.status} className="grid gap-4 rounded-2xl border-2 border-ink/10 bg-white p-4 sm:p-5">
      {/* The one size this auction sells (issue 38): the product page's picker does not change it. */}
      {view.size ? (
        <p className="m-0 text-sm font-bold" data-auction-size="">
          {`Size ${view.size}: this auction sells one in this size.`}
        </p>
      ) : null}
      {view.status === 'running' && <RunningSummary view={view} now={now} />}
      {view.status === 'scheduled' && <Scheduled view={view} now={now} />}
      {!open && <Outcome view={view} />}
      {/* Said as it changes (outbid by someone else's bid, over the stream), not only shown. */}
      <div aria-live="polite" className="empty:hidden">
        <Standing view={view} />
      </div>
      {view.payment && <PayStep productId={productId} payment={view.payment} />}
      {view.status === 'running' && (
        <BidForm id={id} minimumBid={least} busy={busy} error={bidError} signInHref={signIn ? signInHref : null} onBid={placeBid} keptAmount={kept} />
      )}
      {view.status === 'running' && buyNowPrice !== undefined && view.buyNowOffered && view.bidCount === 0 && (
        <p className="m-0 grid gap-1 text-sm text-slate-600" data-buy-now="">
          <a
            href={`/checkout?productId=${productId}`}
            className="rounded-xl bg-ink py-3 text-center text-base font-bold text-white no-underline hover:bg-ink-light"
          >
            {`Buy Now ${formatDollars(buyNowPrice)}`}
          </a>
          <span>Buy Now ends the auction. It is offered until the first bid.</span>
        </p>
      )}
      {open && <AuctionRules view={view} />}
      {view.status !== 'scheduled' && <History view={view} now={now} headingId={historyId} />}
      <DetourDialog id={id} dialogRef={detourDialog} detour={detour?.to ?? { title: '', text: '', href: path, actionText: '' }} />
    </section>
  );
}
