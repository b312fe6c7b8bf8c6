import { useEffect, useState } from 'react';
import { formatStoreDateTime, formatStoreMoment } from '../../shared/store-time.ts';

/*
 * The auction panel's clock: the server's time, not the device's (a phone a minute off would
 * show a sniper the wrong end). Each view carries the server's `now`; the panel keeps the
 * difference to the device's clock and counts down with it.
 */

const SECOND = 1000;
const DAY = 24 * 60 * 60 * SECOND;

/** 'HH:MM:SS' for what is left, with the days in front when there are any ('2d 04:10:05'). */
export function timeLeftText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / SECOND));
  const days = Math.floor((total * SECOND) / DAY);
  const rest = total - (days * DAY) / SECOND;
  const two = (n: number) => String(n).padStart(2, '0');
  const clock = `${two(Math.floor(rest / 3600))}:${two(Math.floor((rest % 3600) / 60))}:${two(rest % 60)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/**
 * The server's time now: on the first render the view's own `now` (so the HTML is the server's
 * exactly), then the device's clock plus `skewMs`, read at each render (a new end or skew shows
 * in the same render as the view that brought it), re-rendered every second until `target`.
 */
export function useServerClock(viewNow: number, skewMs: number, target: number, running: boolean): number {
  const mounted = useMounted();
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!running || Date.now() + skewMs >= target) return;
    const timer = setInterval(() => {
      setTick((tick) => tick + 1);
      if (Date.now() + skewMs >= target) clearInterval(timer);
    }, SECOND);
    return () => clearInterval(timer);
  }, [target, running, skewMs]);
  return mounted ? Date.now() + skewMs : viewNow;
}

/** True after the first effect: the device's clock is read from then on (the first render is the server's). */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/** 'Nov 26, 2026, 3:04 PM PST': the store's zone, named, on the server and in the browser alike (issue 37 item 13). */
export function dateTimeText(iso: string): string {
  return formatStoreDateTime(iso);
}

/** A bid's time: '3:04:05 PM PST', with the day when it was not today in the store. */
export function bidTimeText(iso: string, now: number): string {
  return formatStoreMoment(iso, now);
}
