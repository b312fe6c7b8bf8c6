import { useEffect, useId, useRef, useState } from 'react';
import type { PlayGameProps } from '../shared/views/games.ts';
import { NOTIFICATIONS_CHANGED } from './lib/events.ts';
import { ApiError } from './lib/http.ts';
import { MoneyAttempt, OutcomeUnknownError } from './lib/money.ts';
import { toast, toastAfterNavigation } from './lib/toast.ts';
import { HowItWorks } from './play/HowItWorks.tsx';
import { InfluencerDialog } from './play/InfluencerDialog.tsx';
import { InfluencerList } from './play/InfluencerList.tsx';
import { JoinBar } from './play/JoinBar.tsx';
import { ConsentDialog } from './play/ConsentDialog.tsx';
import {
  DAILY_LIMIT_REACHED,
  PAYMENT_METHOD_REQUIRED,
  PICKS,
  PLAY_CONSENT_REQUIRED,
  playPath,
  post,
  PROFILE_INCOMPLETE,
  savePicks,
  NO_FREE_ENTRY,
  SELF_EXCLUDED,
  takeSavedPicks,
} from './play/join.ts';
import { cardDetour, type Detour, DetourDialog, backToPlay } from './play/DetourDialog.tsx';
import { PrizeDeliveryChoice } from './play/PrizeDeliveryChoice.tsx';
import { ProductSummary } from './play/ProductSummary.tsx';
import { SizeChoice } from './play/SizeChoice.tsx';
import { OUTSIDE_DELIVERY_MESSAGE, PRIZE_NOT_DELIVERABLE } from '../shared/prize-delivery.ts';

/* The island entry: props, picks state and the join flow. The page's pieces live in ./play/. */
export { metricBarPercent } from './play/InfluencerDialog.tsx';
export { PAYMENT_METHOD_REQUIRED, PICKS } from './play/join.ts';

/**
 * The Play Now page (spec section 2): the product and its game's progress, how scoring works,
 * the influencer list with a detail dialog, and the Join Game bar. Joining creates the play and
 * then holds the $1 entry on the card on file (spec section 4, play flow).
 */
export default function PlayGame({
  product,
  game,
  influencers,
  signedIn,
  hasCard,
  prizeDelivery = 'unknown',
  play = { consented: true, blocked: null },
  freeEntries,
  variantId,
  sizes,
  chooseSizeMessage,
}: PlayGameProps) {
  const id = useId();
  /** Issue 38: a product sold in several sizes plays for one, chosen before anything is posted. */
  const bySize = (sizes?.length ?? 0) > 1;
  const size = sizes?.find((each) => each.variantId === variantId);
  const sizeHeading = useRef<HTMLHeadingElement>(null);
  /** What the play and its payment send: the size, when one is chosen. */
  const sizeField = variantId === undefined ? {} : { variantId };
  const detailDialog = useRef<HTMLDialogElement>(null);
  const detourDialog = useRef<HTMLDialogElement>(null);
  /** The detour shown, numbered so that the same detour twice opens the dialog twice. */
  const [detour, setDetour] = useState<{ to: Detour; n: number } | null>(null);
  const consentDialog = useRef<HTMLDialogElement>(null);
  /** A ref, not state: the join that follows the consent runs before the next render. */
  const consented = useRef(play.consented);
  const [blocked, setBlocked] = useState(play.blocked);
  const [consentError, setConsentError] = useState<string | null>(null);
  const [picks, setPicks] = useState<number[]>([]);
  /** 'If I win, the prize goes to charity': sent with the play and its payment. */
  const [donate, setDonate] = useState(false);
  const [deliveryError, setDeliveryError] = useState<string | null>(null);
  const donateBox = useRef<HTMLInputElement>(null);
  /** The picks as of the last click, so quick clicks never work from a stale list. */
  const picksRef = useRef<number[]>([]);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  /** The $1 entry's attempt: its key goes with every try of the payment (lib/money.ts). */
  const [entry] = useState(() => new MoneyAttempt());
  /** Set at once, before React re-renders the button disabled: a double click joins once. */
  const joining = useRef(false);
  /** Buy one, play free: the entries left to use, and whether this join uses one (a ref: read after the consent dialog). */
  const [freeLeft, setFreeLeft] = useState(freeEntries?.count ?? 0);
  const useFree = useRef(false);
  /** A free join is an attempt of its own (its own key): a lost answer is asked about again, never taken for a refusal. */
  const [freeJoin] = useState(() => new MoneyAttempt());

  const open = product.playEnabled && product.quantity > 0 && !size?.closed;
  const detail = detailId === null ? undefined : influencers.find((person) => person.id === detailId);

  // Picks made before signing in or adding a card come back with the visitor (once per product and list).
  // biome-ignore lint/correctness/useExhaustiveDependencies: choose is a plain function of this render; running again for it would re-take the saved picks.
  useEffect(() => {
    const restored = takeSavedPicks(
      product.id,
      influencers.map((person) => person.id),
    );
    if (restored.length) choose(restored);
  }, [product.id, influencers]);

  useEffect(() => {
    const dialog = detourDialog.current;
    if (detour && dialog && !dialog.open) dialog.showModal();
  }, [detour]);

  useEffect(() => {
    const dialog = detailDialog.current;
    if (detailId !== null && dialog && !dialog.open) dialog.showModal();
  }, [detailId]);

  function choose(next: number[]) {
    picksRef.current = next;
    setPicks(next);
  }

  function keepPicks() {
    savePicks(product.id, picksRef.current);
  }

  function toggle(personId: number) {
    const current = picksRef.current;
    if (current.includes(personId)) {
      choose(current.filter((pick) => pick !== personId));
      return;
    }
    if (current.length >= PICKS) {
      toast({ title: 'Maximum reached', description: 'Maximum reached: You can only select up to 5 influencers.', variant: 'destructive' });
      return;
    }
    choose([...current, personId]);
  }

  /** Every detour keeps the picks: they come back with the player (takeSavedPicks). */
  function detourTo(next: Detour) {
    keepPicks();
    setDetour((shown) => ({ to: next, n: (shown?.n ?? 0) + 1 }));
  }

  function askForCard() {
    detourTo(cardDetour(product.id, size?.size));
  }

  function goSignIn() {
    keepPicks();
    const input = { title: 'Authentication required', description: 'Please login or register to place a play.' };
    toast({ ...input, variant: 'destructive' });
    toastAfterNavigation(input);
    window.location.assign(`/auth?next=${playPath(product.id, size?.size)}`);
  }

  async function join(free = useFree.current) {
    if (busy || joining.current) return;
    useFree.current = free;
    // An entry payment whose answer was lost is asked about again before anything else.
    if (entry.unresolved || freeJoin.unresolved) return pay();
    if (bySize && !size) {
      // Nothing is posted without the size: the prize is that size.
      toast({ title: 'Choose a size', description: chooseSizeMessage ?? 'Choose a size.', variant: 'destructive' });
      sizeHeading.current?.focus();
      return;
    }
    const chosen = picksRef.current;
    if (chosen.length !== PICKS) {
      toast({ title: 'Selection incomplete', description: 'Please select exactly 5 influencers.', variant: 'destructive' });
      return;
    }
    if (!signedIn) return goSignIn();
    if (!hasCard) return askForCard();
    if (prizeDelivery === 'elsewhere' && !donate) return refuseDelivery(OUTSIDE_DELIVERY_MESSAGE);
    if (!consented.current) return consentDialog.current?.showModal();
    joining.current = true;
    setBusy(true);
    try {
      await post('/api/plays', { productId: product.id, ...sizeField, influencerIds: chosen.map(String), donateIfWon: donate });
    } catch (error) {
      return refused(error, false);
    }
    return pay();
  }

  /** The $1 hold that turns the play into an entry. */
  async function pay() {
    joining.current = true;
    setBusy(true);
    // An attempt whose answer was lost is finished first, whichever button is pressed.
    const free = freeJoin.unresolved || (useFree.current && !entry.unresolved);
    try {
      if (free) await freeJoin.send('POST', '/api/payments', { productId: product.id, ...sizeField, type: 'play', useFreeEntry: true, donateIfWon: donate });
      else await entry.send('POST', '/api/payments', { productId: product.id, ...sizeField, amount: 1, type: 'play', donateIfWon: donate });
      toastAfterNavigation({
        title: "You're in!",
        description: free ? 'You joined with a free entry: nothing was held on your card.' : 'Your $1 entry is held on your card until the game ends.',
      });
      window.location.assign(`/product/${product.id}?tab=competition${bySize && size ? `&size=${encodeURIComponent(size.size)}` : ''}`);
    } catch (error) {
      refused(error, true);
    }
  }

  /** Outside 92651 without the charity answer: said at the box, before any money is asked for. */
  function refuseDelivery(message: string) {
    setDeliveryError(message);
    toast({ title: 'Prize delivery', description: message, variant: 'destructive' });
    donateBox.current?.focus();
  }

  function refused(error: unknown, paying: boolean) {
    joining.current = false;
    setBusy(false);
    if (error instanceof ApiError && error.code === PRIZE_NOT_DELIVERABLE) return refuseDelivery(error.message);
    // None left after all (used in another tab): the $1 button stays, with the server's words.
    if (error instanceof ApiError && error.code === NO_FREE_ENTRY) setFreeLeft(0);
    if (error instanceof OutcomeUnknownError) {
      return toast({ title: 'Entry not confirmed yet', description: error.message, variant: 'destructive' });
    }
    if (error instanceof ApiError && error.status === 402 && error.code === PAYMENT_METHOD_REQUIRED) return askForCard();
    if (error instanceof ApiError && error.status === 402 && error.data.declined === true) {
      window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
      return detourTo({
        title: 'Card declined',
        text: error.message,
        href: typeof error.data.actionUrl === 'string' ? error.data.actionUrl : cardDetour(product.id, size?.size).href,
        actionText: 'Update payment card',
      });
    }
    if (error instanceof ApiError && error.code === PROFILE_INCOMPLETE) {
      const missing = Array.isArray(error.data.missing) ? error.data.missing.map(String) : [];
      // Only the card missing: its tab; anything else: the personal details first.
      const onlyCard = missing.length > 0 && missing.every((field) => field === 'payment card');
      return detourTo({
        title: 'Complete your profile',
        text: missing.length ? 'To enter a game, your profile still needs:' : error.message,
        missing,
        href: onlyCard ? cardDetour(product.id, size?.size).href : `/profile?${backToPlay(product.id, size?.size)}`,
        actionText: 'Complete my profile',
      });
    }
    if (error instanceof ApiError && error.status === 401) return goSignIn();
    if (error instanceof ApiError && error.code === PLAY_CONSENT_REQUIRED) {
      consented.current = false;
      return consentDialog.current?.showModal();
    }
    if (error instanceof ApiError && (error.code === SELF_EXCLUDED || error.code === DAILY_LIMIT_REACHED)) {
      setBlocked(error.message);
      return toast({ title: 'Play failed', description: error.message, variant: 'destructive' });
    }
    toast({
      title: 'Play failed',
      description: error instanceof Error ? error.message : 'The play could not be placed. Please try again.',
      variant: 'destructive',
    });
    // A failed payment writes a 'Payment Failed' notification: let the bell show it now.
    if (paying) window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
  }

  async function confirmConsent() {
    setBusy(true);
    setConsentError(null);
    try {
      await post('/api/user/play-consent', { adult: true, acceptRules: true });
      consented.current = true;
      consentDialog.current?.close();
      setBusy(false);
      // Straight on with the join the player asked for.
      await join();
    } catch (error) {
      setBusy(false);
      setConsentError(error instanceof Error ? error.message : 'Your answer could not be saved. Please try again.');
    }
  }

  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start lg:gap-8">
      <div className="grid grid-cols-[minmax(0,1fr)] gap-5 lg:sticky lg:top-16">
        <ProductSummary id={id} product={product} game={game} open={open} />
        {bySize && sizes && <SizeChoice id={id} productId={product.id} sizes={sizes} chosen={size?.variantId} headingRef={sizeHeading} onLeave={keepPicks} />}
        {open && (
          <PrizeDeliveryChoice
            id={id}
            delivery={prizeDelivery}
            donate={donate}
            error={deliveryError}
            boxRef={donateBox}
            onChange={(checked) => {
              setDonate(checked);
              if (checked) setDeliveryError(null);
            }}
          />
        )}
        <HowItWorks id={id} requiredParticipants={game.requiredParticipants} />
      </div>
      <InfluencerList id={id} influencers={influencers} open={open} picks={picks} onDetails={setDetailId} onToggle={toggle} />
      <JoinBar
        id={id}
        product={product}
        open={open}
        closed={size?.closed ?? null}
        blocked={blocked}
        count={picks.length}
        busy={busy}
        freeEntries={freeLeft}
        onJoin={join}
      />
      <InfluencerDialog id={id} dialogRef={detailDialog} detail={detail} open={open} picks={picks} onToggle={toggle} onClose={() => setDetailId(null)} />
      <DetourDialog id={id} dialogRef={detourDialog} detour={detour?.to ?? cardDetour(product.id, size?.size)} />
      <ConsentDialog id={id} dialogRef={consentDialog} busy={busy} error={consentError} onConfirm={confirmConsent} />
    </div>
  );
}
