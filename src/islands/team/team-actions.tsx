import { type Detour, DetourDialog } from '../play/DetourDialog.tsx';
import { useEffect, useRef, useState } from 'react';
import { ApiError, apiRequest } from '../lib/http.ts';
import { toast } from '../lib/toast.ts';
import { timeLeftText } from '../../shared/views/teams.ts';

/*
 * What both team islands share: one money attempt (its Idempotency-Key kept until a definite
 * answer, as ../lib/money.ts does), the detours of a refusal (sign in, add a card, complete the
 * profile: the same as a play's), the ticking time left and the share link.
 */

/** One key per attempt (as ../lib/money.ts makes them), without the checkout's follow-up code this page never needs. */
const newKey = (): string => (typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);

const back = (path: string) => `next=${encodeURIComponent(path)}`;

/** The refusal a page can fix elsewhere, or null when a toast says it all. */
function detourFor(error: ApiError, path: string): Detour | null {
  if (error.code === 'PAYMENT_METHOD_REQUIRED') {
    return {
      title: 'Payment method required',
      text: 'Add a payment card to your profile to buy with a friend. Your half is only held on the card until your team is full.',
      href: `/profile?tab=payment&${back(path)}&from=team`,
      actionText: 'Add Payment Method',
    };
  }
  if (error.code === 'PROFILE_INCOMPLETE') {
    return { title: 'Complete your profile', text: error.message, href: `/profile?tab=personal&${back(path)}&from=team`, actionText: 'Complete Profile' };
  }
  return null;
}

/** Posts a team action once per attempt; a signed-out visitor goes to sign in and comes back. */
export function useTeamAction<T>(
  path: string,
  backTo: string,
  onDone: (answer: T) => void,
  onRefused?: (error: ApiError) => boolean,
  /** The request's JSON body (a start's `{ variantId }`); none when undefined. */
  body?: unknown,
) {
  const key = useRef<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [detour, setDetour] = useState<Detour | null>(null);
  const dialog = useRef<HTMLDialogElement | null>(null);
  useEffect(() => {
    if (detour) dialog.current?.showModal();
  }, [detour]);
  async function run() {
    if (busy) return;
    setBusy(true);
    key.current ??= newKey();
    try {
      const answer = await apiRequest<T>('POST', path, body, { idempotencyKey: key.current });
      key.current = null;
      onDone(answer);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        toast({
          title: 'Connection lost',
          description: 'We could not reach the store. Try again: we check first, so nothing is held twice.',
          variant: 'destructive',
        });
        return;
      }
      // A 5xx keeps the key: the next try asks what became of this one.
      if (error.status < 500) key.current = null;
      if (error.status === 401) {
        window.location.assign(`/auth?${back(backTo)}`);
        return;
      }
      if (onRefused?.(error)) return;
      const found = detourFor(error, backTo);
      if (found) setDetour(found);
      else toast({ title: error.status >= 500 ? 'Still confirming' : 'Not possible', description: error.message, variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }
  const detourDialog = detour ? <DetourDialog id="team" dialogRef={dialog} detour={detour} /> : null;
  return { run, busy, detourDialog };
}

/** The time left, ticking once a minute after hydration (the server's text first, so both match). */
export function TimeLeft({ expiresAt, now }: { expiresAt: number; now: number }) {
  const [at, setAt] = useState(now);
  useEffect(() => {
    setAt(Date.now());
    const timer = setInterval(() => setAt(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return <span data-time-left="">{timeLeftText(expiresAt, at)}</span>;
}

/** The share link with a Copy (or the device's Share) button. */
export function ShareLink({ url, title }: { url: string; title: string }) {
  async function share() {
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast({ title: 'Link copied', description: 'Send it to a friend: when they join, you both pay half.' });
    } catch {
      toast({ title: 'Copy this link', description: url });
    }
  }
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <input
        readOnly
        value={url}
        aria-label="Your team's link"
        className="min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
        data-share-link=""
      />
      <button type="button" onClick={share} className="rounded-lg bg-ink px-4 py-2 text-sm font-bold text-white cursor-pointer hover:bg-ink-light">
        Copy / Share
      </button>
    </div>
  );
}
