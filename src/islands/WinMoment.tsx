import { useEffect, useState } from 'react';
import type { NotificationView } from '../shared/views/notifications.ts';
import { TrophyIcon } from '../shared/ui/icons.tsx';
import { safeNextPath } from '../shared/safe-next-path.ts';
import { NOTIFICATIONS_POLLED } from './lib/events.ts';
import { subscribeLive } from './lib/live.ts';
import { toast } from './lib/toast.ts';

/*
 * A win is a moment (issue 27): the second a game settles, its winner sees a 'You won!' toast and
 * a banner above the page, on whatever page of the store they are, from the live stream's
 * notifications (GET /api/events, the user's topic), or the bell's fallback poll when the stream
 * cannot connect. A win arriving between two pages shows on the next one. It is celebrated in
 * every tab open when it arrives, then not again on pages opened later (localStorage), so it
 * does not follow the player around until read.
 */

export const CELEBRATED_KEY = 'csa-wins-celebrated';
const KEEP = 20;

function celebrated(): number[] {
  try {
    const parsed: unknown = JSON.parse(window.localStorage.getItem(CELEBRATED_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is number => typeof id === 'number') : [];
  } catch {
    return [];
  }
}

/** Without storage, the page's own memory keeps one page from celebrating twice. */
const shownHere = new Set<number>();

function remember(id: number): void {
  shownHere.add(id);
  try {
    window.localStorage.setItem(CELEBRATED_KEY, JSON.stringify([...celebrated().filter((seen) => seen !== id), id].slice(-KEEP)));
  } catch {
    // shownHere still holds it for this page.
  }
}

/** The wins celebrated before this page opened: other tabs open now still show a new one. */
let celebratedBefore: Set<number> | null = null;

/** The newest unread win not celebrated before this page opened, nor on it, if any. */
export function freshWin(items: NotificationView[]): NotificationView | null {
  celebratedBefore ??= new Set(celebrated());
  const seen = new Set([...celebratedBefore, ...shownHere]);
  const wins = items.filter((item) => item.type === 'game_won' && !item.read && !seen.has(item.id));
  return wins.sort((a, b) => b.id - a.id)[0] ?? null;
}

export default function WinMoment({ initial }: { initial: NotificationView[] }) {
  const [win, setWin] = useState<NotificationView | null>(null);

  useEffect(() => {
    const celebrate = (items: NotificationView[]) => {
      const found = freshWin(items);
      if (!found) return;
      remember(found.id);
      setWin(found);
      toast({ title: 'You won!', description: found.message });
    };
    celebrate(initial);
    const stop = subscribeLive('user', {}, (message) => {
      const data = message as { notifications?: unknown };
      if (Array.isArray(data.notifications)) celebrate(data.notifications as NotificationView[]);
    });
    // Without the stream, the bell's fallback poll brings the list instead.
    const onPolled = (event: Event) => {
      const list = (event as CustomEvent<unknown>).detail;
      if (Array.isArray(list)) celebrate(list as NotificationView[]);
    };
    window.addEventListener(NOTIFICATIONS_POLLED, onPolled);
    return () => {
      stop();
      window.removeEventListener(NOTIFICATIONS_POLLED, onPolled);
    };
  }, [initial]);

  if (!win) return null;
  return (
    <div className="mx-auto max-w-6xl px-4 pt-4 print:hidden">
      <section
        aria-labelledby="win-banner-title"
        data-win-banner={win.gameId ?? ''}
        className="flex flex-wrap items-center gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 shadow-sm"
      >
        <TrophyIcon className="h-8 w-8 shrink-0 text-amber-500" />
        <div className="min-w-0 flex-1">
          <h2 id="win-banner-title" className="m-0 text-lg font-extrabold text-ink">
            You won!
          </h2>
          <p className="m-0 mt-0.5 text-sm text-slate-700">{win.message}</p>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {win.actionUrl && (
            <a href={safeNextPath(win.actionUrl)} className="rounded-full bg-coral-dark px-4 py-2 text-sm font-bold text-white no-underline hover:bg-coral">
              {win.actionText ?? 'Claim Prize'}
            </a>
          )}
          {win.gameId !== null && (
            <a href={`/games/${win.gameId}`} className="rounded-full px-3 py-2 text-sm font-semibold text-sea-dark no-underline hover:underline">
              See results
            </a>
          )}
          <button
            type="button"
            onClick={() => setWin(null)}
            aria-label="Dismiss"
            className="rounded-md border-0 bg-transparent p-1 text-lg leading-none text-slate-600 cursor-pointer"
          >
            ×
          </button>
        </div>
      </section>
    </div>
  );
}
