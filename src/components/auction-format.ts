/*
 * An auction's time left as a server-rendered page says it. A listing page is kept in the page
 * cache for the rest of its minute (cacheListings, page-cache-clock.ts), so the time is counted from the
 * end of that minute: the text never promises more time than is left, and no script is needed.
 */

const MINUTE = 60_000;

/** '2d 5h left', '2h 14m left', '9m left', or 'ending soon' in the last minute or two. */
export function timeLeftText(endsAt: number, now: number): string {
  const minuteEnd = (Math.floor(now / MINUTE) + 1) * MINUTE;
  const minutes = Math.floor(Math.max(0, endsAt - minuteEnd) / MINUTE);
  if (minutes < 1) return 'ending soon';
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  if (days > 0) return `${days}d ${hours}h left`;
  if (hours > 0) return `${hours}h ${minutes % 60}m left`;
  return `${minutes}m left`;
}
