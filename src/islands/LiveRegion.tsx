import { useEffect } from 'react';
import { startIslands } from './lib/hydrate.ts';
import { onLiveFallback, subscribeLive } from './lib/live.ts';

export interface LiveRegionProps {
  /** The data-live-region of the server-rendered part this keeps fresh. */
  region: string;
  /** The games list changed: the scoreboard. */
  scoreboard?: boolean;
  /** The signed-in user's notifications changed (their game started, ended, was won): My Games. */
  user?: boolean;
  /** Fallback poll while the stream cannot connect (ms). */
  pollMs?: number;
}

/**
 * Keeps a server-rendered part of the page (the scoreboard's games) current: when the live
 * stream says its topic changed, the same page is read again and only that part replaced, with
 * its islands hydrated anew. The server stays the one place that renders it.
 */
export default function LiveRegion({ region, scoreboard = false, user = false, pollMs = 30_000 }: LiveRegionProps) {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    let poll: ReturnType<typeof setInterval> | null = null;
    let busy = false;
    const refresh = async () => {
      if (busy || document.hidden) return;
      busy = true;
      try {
        const response = await fetch(window.location.href, { credentials: 'include', headers: { accept: 'text/html' } });
        if (!response.ok) return;
        const fresh = new DOMParser().parseFromString(await response.text(), 'text/html').querySelector(`[data-live-region="${region}"]`);
        const current = document.querySelector<HTMLElement>(`[data-live-region="${region}"]`);
        if (!fresh || !current || fresh.innerHTML === current.innerHTML) return;
        current.innerHTML = fresh.innerHTML;
        startIslands(undefined, current);
      } catch {
        // The next change, or the fallback poll, tries again.
      } finally {
        busy = false;
      }
    };
    // Changes come in bursts (an entry touches the game and the play): one read for the burst,
    // spread over most of a second so a crowd of open pages does not ask at the same instant.
    const soon = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(refresh, 150 + Math.floor(Math.random() * 650));
    };
    const stopScoreboard = scoreboard ? subscribeLive('scoreboard', { scoreboard: true }, soon) : () => {};
    const stopUser = user ? subscribeLive('user', {}, soon) : () => {};
    const stopFallback = onLiveFallback((polling) => {
      if (poll) clearInterval(poll);
      poll = polling ? setInterval(refresh, pollMs) : null;
    });
    return () => {
      stopScoreboard();
      stopUser();
      stopFallback();
      if (timer) clearTimeout(timer);
      if (poll) clearInterval(poll);
    };
  }, [region, scoreboard, user, pollMs]);
  return null;
}
