import { useEffect, useState } from 'react';

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

/** True after the first effect: dates are then shown in the viewer's own time zone (the server's HTML uses UTC). */
export function useMounted(): boolean {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/** 'Nov 26, 3:04 PM' in the viewer's zone once mounted, in UTC (said so) before. */
export function dateTimeText(iso: string, local: boolean): string {
  const text = new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: local ? undefined : 'UTC',
  }).format(new Date(iso));
  return local ? text : `${text} UTC`;
}

/** A bid's time: '3:04:05 PM', with the day when it was not today. */
export function bidTimeText(iso: string, now: number, local: boolean): string {
  const at = new Date(iso);
  const zone = local ? undefined : 'UTC';
  const day = (d: Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeZone: zone }).format(d);
  const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit', timeZone: zone }).format(at);
  const sameDay = day(at) === day(new Date(now));
  const text = sameDay ? time : `${new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: zone }).format(at)}, ${time}`;
  return local ? text : `${text} UTC`;
}
