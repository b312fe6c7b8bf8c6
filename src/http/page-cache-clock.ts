import type { PageKey } from './page-cache.ts';

const MINUTE = 60_000;

/** Nothing on the page changes with the clock: it holds until the storefront moves. */
export const timeless: PageKey = { key: '', until: Number.POSITIVE_INFINITY };

/**
 * The part of a cached page's key that the clock moves, from moments worked out once per
 * storefront version (page-cache.ts `remember`), so a hit asks the database nothing: how many of
 * the page's moments have passed (an auction starting or ending, a team's offer running out),
 * and, when the page counts down to the minute, which minute it is. `until` is the next moment
 * the key changes; a visitor's answer kept before the router is sent until then.
 *
 * `moments` are sorted ascending.
 */
export function timeKey(moments: readonly number[], now: number, perMinute: boolean): PageKey {
  // How many moments are at or before now: a binary search, as a listing holds every live auction's two.
  let passed = 0;
  let high = moments.length;
  while (passed < high) {
    const middle = (passed + high) >>> 1;
    if (moments[middle]! <= now) passed = middle + 1;
    else high = middle;
  }
  const next = passed < moments.length ? moments[passed]! : Number.POSITIVE_INFINITY;
  if (!perMinute) return moments.length === 0 ? timeless : { key: `t${passed}`, until: next };
  const minute = Math.floor(now / MINUTE);
  return { key: `t${passed}m${minute}`, until: Math.min(next, (minute + 1) * MINUTE) };
}

/** Combines the parts of a page's key: the earliest `until` wins. */
export function joinKeys(...parts: (PageKey | string)[]): PageKey {
  let key = '';
  let until = Number.POSITIVE_INFINITY;
  for (const part of parts) {
    if (typeof part === 'string') key += `|${part}`;
    else {
      key += `|${part.key}`;
      until = Math.min(until, part.until);
    }
  }
  return { key, until };
}
