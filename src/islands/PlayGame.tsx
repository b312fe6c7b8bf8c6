import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { InfluencerView } from '../domain/games/views.ts';
import { formatFollowers } from '../domain/metrics.ts';
import { formatDollars } from '../domain/money.ts';
import { NOTIFICATIONS_CHANGED } from './lib/events.ts';
import { ApiError } from './lib/http.ts';
import { toast, toastAfterNavigation } from './lib/toast.ts';

export interface PlayGameProps {
  product: {
    id: number;
    /** Brand, or a book's title. */
    brand: string;
    /** Model, or 'by {author}' for books. */
    subtitle: string;
    price: number;
    /** The image as the page shows it (local images carry their `?fallback=` type). */
    imageUrl: string;
    /** The type's default image, for an image from another site that may break. */
    fallbackImageUrl: string | null;
    playEnabled: boolean;
    quantity: number;
  };
  /** The game a play joins now: its entries so far and the players it needs. */
  game: { entries: number; requiredParticipants: number; live: boolean };
  influencers: InfluencerView[];
  signedIn: boolean;
  hasCard: boolean;
}

/** Spec sections 5 and 9: exactly 5 influencers per play, 3 shown at first. */
export const PICKS = 5;
const INITIAL_SHOWN = 3;
export const PAYMENT_METHOD_REQUIRED = 'PAYMENT_METHOD_REQUIRED';

const platformNames: Record<string, string> = { instagram: 'Instagram', tiktok: 'TikTok', youtube: 'YouTube', twitter: 'Twitter' };
const platformName = (key: string) => platformNames[key] ?? key.charAt(0).toUpperCase() + key.slice(1);

type MetricKey = 'followers' | 'engagement' | 'growth' | 'posts';

/** Spec section 9, simulated metric bars: followers scale 10M, engagement x5, growth x5, posts x2, each capped at 100. */
export function metricBarPercent(metric: MetricKey, value: number): number {
  const scaled = { followers: (value / 10_000_000) * 100, engagement: value * 5, growth: value * 5, posts: value * 2 }[metric];
  return Math.round(Math.max(0, Math.min(100, scaled)) * 100) / 100;
}

const metricRows: { key: MetricKey; label: string; text: (value: number) => string }[] = [
  { key: 'followers', label: 'Followers', text: (v) => formatFollowers(v) },
  { key: 'engagement', label: 'Engagement', text: (v) => `${v.toFixed(2)}%` },
  { key: 'growth', label: 'Growth', text: (v) => `${v.toFixed(3)}% a day` },
  { key: 'posts', label: 'Posts', text: (v) => `${v} this minute` },
];

/** A failed call with the server's error code (e.g. PAYMENT_METHOD_REQUIRED), which ApiError does not keep. */
class PlayError extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly code: string | undefined,
  ) {
    super(status, message);
  }
}

async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    const payload = (data ?? {}) as { message?: string; code?: string };
    throw new PlayError(response.status, payload.message ?? `${response.status}: ${text || response.statusText}`, payload.code);
  }
  return data as T;
}

const picksKey = (productId: number) => `csa:play-picks:${productId}`;

function Avatar({ person, size }: { person: InfluencerView; size: 'sm' | 'lg' }) {
  const box = size === 'sm' ? 'h-12 w-12 text-base' : 'h-16 w-16 text-xl';
  if (!person.avatar) {
    const initials = person.name
      .split(/\s+/)
      .map((word) => word.charAt(0))
      .join('')
      .slice(0, 2);
    return (
      <span aria-hidden="true" className={`${box} flex shrink-0 items-center justify-center rounded-full bg-sea font-bold text-white`}>
        {initials}
      </span>
    );
  }
  return <img src={person.avatar} alt="" width={64} height={64} loading="lazy" decoding="async" className={`${box} shrink-0 rounded-full bg-slate-100 object-cover`} />;
}

function CheckIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={3} strokeLinecap="round" strokeLinejoin="round" className="h-4 w-4" aria-hidden="true" focusable="false">
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </svg>
  );
}

function InfoIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" className="h-5 w-5" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" />
      <path d="M12 11v5M12 7.5v.5" />
    </svg>
  );
}

function CloseIcon() {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" className="h-5 w-5" aria-hidden="true" focusable="false">
      <path d="M6 6l12 12M18 6L6 18" />
    </svg>
  );
}

function SelectButton({ selected, name, onToggle, wide = false }: { selected: boolean; name: string; onToggle: () => void; wide?: boolean }) {
  return (
    <button
      type="button"
      aria-pressed={selected}
      onClick={onToggle}
      className={`inline-flex h-10 items-center justify-center gap-1.5 rounded-full border-2 px-4 text-sm font-bold cursor-pointer ${wide ? 'min-w-32' : 'min-w-24'} ${
        selected ? 'border-coral-dark bg-coral-dark text-white hover:bg-coral' : 'border-ink bg-white text-ink hover:bg-slate-50'
      }`}
    >
      {selected && <CheckIcon />}
      {selected ? 'Selected' : 'Select'}
      <span className="sr-only">{` ${name}`}</span>
    </button>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-3">
      <span aria-hidden="true" className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-ink text-sm font-bold text-white">
        {n}
      </span>
      <div>
        <p className="m-0 font-bold">{title}</p>
        <p className="m-0 mt-0.5 text-sm text-slate-600">{children}</p>
      </div>
    </li>
  );
}

/**
 * The Play Now page (spec section 2): the product and its game's progress, how scoring works,
 * the influencer list with a detail dialog, and the Join Game bar. Joining creates the play and
 * then holds the $1 entry on the card on file (spec section 4, play flow).
 */
export default function PlayGame({ product, game, influencers, signedIn, hasCard }: PlayGameProps) {
  const id = useId();
  const detailDialog = useRef<HTMLDialogElement>(null);
  const paymentDialog = useRef<HTMLDialogElement>(null);
  const [picks, setPicks] = useState<number[]>([]);
  /** The picks as of the last click, so quick clicks never work from a stale list. */
  const picksRef = useRef<number[]>([]);
  const [expanded, setExpanded] = useState(false);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);

  const open = product.playEnabled && product.quantity > 0;
  const closedMessage = !product.playEnabled
    ? 'Games are not open for this product.'
    : product.quantity <= 0
      ? 'This product is out of stock, so no game can be played for it right now.'
      : null;
  const shown = expanded ? influencers : influencers.slice(0, INITIAL_SHOWN);
  const detail = detailId === null ? undefined : influencers.find((person) => person.id === detailId);
  const required = Math.max(1, game.requiredParticipants);
  const progress = Math.min(100, Math.round((game.entries / required) * 100));
  const missing = Math.max(0, game.requiredParticipants - game.entries);

  // Picks made before signing in or adding a card come back with the visitor.
  useEffect(() => {
    try {
      const saved = sessionStorage.getItem(picksKey(product.id));
      if (!saved) return;
      sessionStorage.removeItem(picksKey(product.id));
      const known = new Set(influencers.map((person) => person.id));
      const restored = [...new Set((JSON.parse(saved) as unknown[]).map(Number))].filter((pick) => known.has(pick)).slice(0, PICKS);
      if (restored.length) choose(restored);
    } catch {
      // Storage may be unavailable (private mode); the picks are then simply not kept.
    }
  }, [product.id, influencers]);

  useEffect(() => {
    const dialog = detailDialog.current;
    if (detailId !== null && dialog && !dialog.open) dialog.showModal();
  }, [detailId]);

  function choose(next: number[]) {
    picksRef.current = next;
    setPicks(next);
  }

  function keepPicks() {
    try {
      sessionStorage.setItem(picksKey(product.id), JSON.stringify(picksRef.current));
    } catch {
      // See above.
    }
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

  function askForCard() {
    keepPicks();
    paymentDialog.current?.showModal();
  }

  function goSignIn() {
    keepPicks();
    const input = { title: 'Authentication required', description: 'Please login or register to place a play.' };
    toast({ ...input, variant: 'destructive' });
    toastAfterNavigation(input);
    window.location.assign(`/auth?next=/play/${product.id}`);
  }

  async function join() {
    if (busy) return;
    const chosen = picksRef.current;
    if (chosen.length !== PICKS) {
      toast({ title: 'Selection incomplete', description: 'Please select exactly 5 influencers.', variant: 'destructive' });
      return;
    }
    if (!signedIn) return goSignIn();
    if (!hasCard) return askForCard();
    setBusy(true);
    let stage: 'play' | 'payment' = 'play';
    try {
      await post('/api/plays', { productId: product.id, influencerIds: chosen.map(String) });
      stage = 'payment';
      await post('/api/payments', { productId: product.id, amount: 1, type: 'play' });
      toastAfterNavigation({ title: "You're in!", description: 'Your $1 entry is held on your card until the game ends.' });
      window.location.assign(`/product/${product.id}?tab=competition`);
    } catch (error) {
      setBusy(false);
      if (error instanceof PlayError && error.status === 402 && error.code === PAYMENT_METHOD_REQUIRED) return askForCard();
      if (error instanceof PlayError && error.status === 401) return goSignIn();
      toast({ title: 'Play failed', description: error instanceof Error ? error.message : 'The play could not be placed. Please try again.', variant: 'destructive' });
      // A failed payment writes a 'Payment Failed' notification: let the bell show it now.
      if (stage === 'payment') window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED));
    }
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start lg:gap-8">
      <div className="grid gap-5 lg:sticky lg:top-16">
        <section aria-labelledby={`${id}-title`} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
          <div className="flex gap-4">
            <img
              src={product.imageUrl}
              alt={`${product.brand} ${product.subtitle}`}
              width={160}
              height={160}
              fetchPriority="high"
              data-fallback={product.fallbackImageUrl ?? undefined}
              className="h-24 w-24 shrink-0 rounded-xl bg-slate-50 object-contain sm:h-32 sm:w-32"
            />
            <div className="min-w-0">
              <p className="m-0 text-xs font-semibold uppercase tracking-widest text-coral-dark">Play Now</p>
              <h1 id={`${id}-title`} className="m-0 mt-1 text-xl font-extrabold leading-tight sm:text-2xl">
                {product.brand}
              </h1>
              <p className="m-0 mt-0.5 truncate text-sm text-slate-600">{product.subtitle}</p>
              <div className="mt-2 flex flex-wrap items-center gap-2">
                <span className="text-lg font-extrabold">{formatDollars(product.price)}</span>
                <span className="rounded-full bg-coral/10 px-2.5 py-0.5 text-sm font-bold text-coral-dark">Entry: $1</span>
              </div>
            </div>
          </div>
          {open && (
            <div className="mt-4">
              <div className="flex items-baseline justify-between gap-2 text-sm">
                <p id={`${id}-progress`} className="m-0 font-semibold">
                  {`${game.entries} of ${game.requiredParticipants} players joined`}
                </p>
                <p className="m-0 text-slate-600">{missing > 0 ? `${missing} more to start` : 'Starts at the top of the hour'}</p>
              </div>
              <div
                role="progressbar"
                aria-labelledby={`${id}-progress`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={progress}
                className="mt-2 h-2.5 overflow-hidden rounded-full bg-slate-200"
              >
                <div className="h-full rounded-full bg-coral-dark" style={{ width: `${progress}%` }} />
              </div>
              {game.live && <p className="m-0 mt-2 text-sm text-slate-600">A game for this product is live right now. Joining enters you in the next one.</p>}
            </div>
          )}
        </section>

        <section aria-labelledby={`${id}-how`} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
          <h2 id={`${id}-how`} className="m-0 text-lg font-bold">
            How it works
          </h2>
          <ol className="m-0 mt-3 grid list-none gap-3 p-0">
            <Step n={1} title="Pick 5 influencers">
              Choose the five you think will score the most points in the next game.
            </Step>
            <Step n={2} title="Pay $1 to enter">
              Your $1 is only held on your card, and charged when the game ends.
            </Step>
            <Step n={3} title="Win the product for $1">
              {`Once ${game.requiredParticipants} players have joined, the game starts at the top of the next hour and lasts an hour. The highest combined score wins the product for $1.`}
            </Step>
          </ol>
          <details className="group mt-4 rounded-xl bg-sand">
            <summary className="flex items-center justify-between gap-2 rounded-xl px-4 py-3 text-sm font-bold">
              How are influencers scored?
              <span aria-hidden="true" className="text-lg leading-none transition-transform group-open:rotate-45">
                +
              </span>
            </summary>
            <div className="px-4 pb-4 text-sm text-slate-700">
              <p className="m-0">During the game's hour, each influencer earns points minute by minute from four metrics on every platform they post on:</p>
              <ul className="m-0 mt-2 grid gap-1 pl-5">
                <li>
                  <strong>Followers gained</strong>: new followers won across their platforms.
                </li>
                <li>
                  <strong>Engagement</strong>: how much their audience likes, comments and shares.
                </li>
                <li>
                  <strong>Growth</strong>: how fast their audience is growing.
                </li>
                <li>
                  <strong>Posts</strong>: each new post earns bonus points.
                </li>
              </ul>
              <p className="m-0 mt-2">Your score is the sum of your five influencers' points. The score shown on each influencer is what they earned over the last hour.</p>
            </div>
          </details>
        </section>
      </div>

      <section aria-labelledby={`${id}-list`} className="rounded-2xl border border-slate-200 bg-white p-4 sm:p-5">
        <div className="flex items-baseline justify-between gap-3">
          <h2 id={`${id}-list`} className="m-0 text-base font-bold sm:text-lg">
            {open ? 'Pick your 5 influencers' : 'Influencers'}
          </h2>
          {open && <p className="m-0 shrink-0 whitespace-nowrap text-sm font-semibold text-slate-600">{`${picks.length}/${PICKS} selected`}</p>}
        </div>
        <ul id={`${id}-influencers`} className="m-0 mt-3 grid list-none gap-2 p-0">
          {shown.map((person) => {
            const selected = picks.includes(person.id);
            return (
              <li
                key={person.id}
                data-influencer={person.id}
                className={`flex flex-col gap-2 rounded-xl border-2 p-3 sm:flex-row sm:items-center sm:gap-3 ${selected ? 'border-coral-dark bg-coral/5' : 'border-slate-200'}`}
              >
                <div className="flex min-w-0 flex-1 items-center gap-3">
                  <Avatar person={person} size="sm" />
                  <div className="min-w-0 flex-1">
                    <p className="m-0 truncate font-bold">{person.name}</p>
                    <p className="m-0 truncate text-sm text-slate-600">{person.handle}</p>
                    <ul className="m-0 mt-1 flex list-none flex-wrap gap-1 p-0" aria-label={`${person.name}'s platforms`}>
                      {Object.entries(person.platforms).map(([platform, followers]) => (
                        <li key={platform} className="whitespace-nowrap rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                          {`${platformName(platform)} ${followers}`}
                        </li>
                      ))}
                    </ul>
                  </div>
                </div>
                <div className="flex items-center justify-between gap-2 border-t border-slate-100 pt-2 sm:border-0 sm:pt-0">
                  <p className="m-0 flex items-baseline gap-1.5 text-xs text-slate-600 sm:mr-1 sm:block sm:text-right">
                    Score
                    <span className="text-base font-extrabold text-ink sm:block">{person.score.toFixed(1)}</span>
                  </p>
                  <div className="flex items-center gap-2">
                    <button
                      type="button"
                      aria-haspopup="dialog"
                      aria-label={`Details for ${person.name}`}
                      onClick={() => setDetailId(person.id)}
                      className="flex h-10 w-10 items-center justify-center rounded-full border border-slate-300 bg-white text-slate-700 cursor-pointer hover:bg-slate-50"
                    >
                      <InfoIcon />
                    </button>
                    {open && <SelectButton selected={selected} name={person.name} onToggle={() => toggle(person.id)} />}
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
        {influencers.length > INITIAL_SHOWN && (
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={`${id}-influencers`}
            onClick={() => setExpanded(!expanded)}
            className="mt-3 w-full rounded-xl border border-slate-300 bg-white py-2.5 text-sm font-bold text-ink cursor-pointer hover:bg-slate-50"
          >
            {expanded ? 'Show Less' : 'View More'}
          </button>
        )}
        {influencers.length === 0 && <p className="m-0 text-slate-600">No influencers are available right now. Check back soon!</p>}
      </section>

      {/* Room for the fixed bar, so the last row is never hidden behind it. */}
      <div aria-hidden="true" className="h-4 lg:col-span-2" />

      <div
        className="fixed inset-x-0 bottom-16 z-30 border-t border-slate-200 bg-white/95 shadow-[0_-4px_16px_rgba(15,42,68,0.08)] backdrop-blur"
        style={{ marginBottom: 'env(safe-area-inset-bottom, 0px)' }}
      >
        <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-3">
          {open ? (
            <>
              <div className="min-w-0">
                <p className="m-0 text-sm font-bold" aria-live="polite" id={`${id}-count`}>
                  {`${picks.length}/${PICKS} selected`}
                </p>
                <div className="mt-1 flex gap-1" aria-hidden="true">
                  {Array.from({ length: PICKS }, (_, index) => (
                    <span key={index} className={`h-1.5 w-5 rounded-full ${index < picks.length ? 'bg-coral-dark' : 'bg-slate-200'}`} />
                  ))}
                </div>
              </div>
              <button
                type="button"
                onClick={join}
                disabled={busy}
                aria-describedby={`${id}-count`}
                className="h-12 shrink-0 rounded-xl border-0 bg-coral-dark px-6 text-base font-bold text-white cursor-pointer hover:bg-coral disabled:cursor-wait disabled:opacity-60"
              >
                {busy ? 'Joining...' : 'Join Game - $1'}
              </button>
            </>
          ) : (
            <>
              <p className="m-0 text-sm font-semibold" role="status">
                {closedMessage}
              </p>
              <a href={`/product/${product.id}`} className="shrink-0 rounded-xl bg-ink px-4 py-2.5 text-sm font-bold text-white no-underline hover:bg-ink-light">
                Back to product
              </a>
            </>
          )}
        </div>
      </div>

      <dialog
        ref={detailDialog}
        aria-labelledby={`${id}-detail-title`}
        onClose={() => setDetailId(null)}
        className="w-[min(92vw,32rem)] max-h-[85vh] overflow-y-auto rounded-2xl border-0 p-0 shadow-2xl backdrop:bg-black/50"
      >
        {detail && (
          <div className="p-5">
            <div className="flex items-start gap-3">
              <Avatar person={detail} size="lg" />
              <div className="min-w-0 flex-1">
                <h2 id={`${id}-detail-title`} className="m-0 text-xl font-extrabold">
                  {detail.name}
                </h2>
                <p className="m-0 text-sm text-slate-600">{`${detail.handle}${detail.category ? ` · ${detail.category}` : ''}`}</p>
                <p className="m-0 mt-1 text-sm">
                  Score (last hour): <strong>{detail.score.toFixed(1)}</strong>
                </p>
              </div>
              <button
                type="button"
                aria-label="Close"
                onClick={() => detailDialog.current?.close()}
                className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full border-0 bg-slate-100 text-ink cursor-pointer hover:bg-slate-200"
              >
                <CloseIcon />
              </button>
            </div>
            <p className="m-0 mt-4 text-xs text-slate-600">This minute's metrics, per platform.</p>
            <div className="mt-2 grid gap-3">
              {Object.entries(detail.metrics).map(([platform, metrics]) => (
                <section key={platform} aria-labelledby={`${id}-${platform}`} className="rounded-xl bg-sand p-3" data-platform={platform}>
                  <h3 id={`${id}-${platform}`} className="m-0 text-sm font-bold">
                    {`${platformName(platform)} · ${detail.platforms[platform] ?? formatFollowers(metrics.followers)} followers`}
                  </h3>
                  <ul className="m-0 mt-2 grid list-none gap-2 p-0">
                    {metricRows.map((row) => {
                      const value = metrics[row.key];
                      return (
                        <li key={row.key} data-metric={row.key}>
                          <div className="flex justify-between gap-2 text-xs">
                            <span className="font-semibold">{row.label}</span>
                            <span className="text-slate-700">{row.text(value)}</span>
                          </div>
                          <div className="mt-1 h-2 overflow-hidden rounded-full bg-white" aria-hidden="true">
                            <div data-bar="" className="h-full rounded-full bg-sea" style={{ width: `${metricBarPercent(row.key, value)}%` }} />
                          </div>
                        </li>
                      );
                    })}
                  </ul>
                </section>
              ))}
            </div>
            <div className="mt-5 flex flex-wrap justify-end gap-3">
              <button
                type="button"
                onClick={() => detailDialog.current?.close()}
                className="h-10 rounded-full border border-slate-300 bg-white px-4 text-sm font-bold cursor-pointer hover:bg-slate-50"
              >
                Close
              </button>
              {open && <SelectButton selected={picks.includes(detail.id)} name={detail.name} onToggle={() => toggle(detail.id)} wide />}
            </div>
          </div>
        )}
      </dialog>

      <dialog
        ref={paymentDialog}
        aria-labelledby={`${id}-pay-title`}
        aria-describedby={`${id}-pay-text`}
        className="w-[min(92vw,28rem)] rounded-2xl border-0 p-6 shadow-2xl backdrop:bg-black/50"
      >
        <h2 id={`${id}-pay-title`} className="m-0 text-lg font-bold">
          Payment method required
        </h2>
        <p id={`${id}-pay-text`} className="mt-2 text-sm text-slate-600">
          Add a payment card to your profile to enter games. Your $1 entry is only held on the card until the game ends.
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <button
            type="button"
            onClick={() => paymentDialog.current?.close()}
            className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-bold cursor-pointer hover:bg-slate-50"
          >
            Cancel
          </button>
          <a href="/profile?tab=payment" className="rounded-lg bg-coral-dark px-4 py-2 text-sm font-bold text-white no-underline hover:bg-coral">
            Add Payment Method
          </a>
        </div>
      </dialog>
    </div>
  );
}
