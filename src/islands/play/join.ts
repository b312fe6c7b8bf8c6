import { apiRequest } from '../lib/http.ts';

/*
 * Placing a play, outside React: the rules' numbers, the POST helper that keeps the server's
 * error code, and the picks kept in sessionStorage while the visitor signs in or adds a card.
 */

/** Spec sections 5 and 9: exactly 5 influencers per play. */
export const PICKS = 5;
export const PAYMENT_METHOD_REQUIRED = 'PAYMENT_METHOD_REQUIRED';
/** Responsible play (the server's codes, domain/accounts/responsible-play.ts). */
export const PLAY_CONSENT_REQUIRED = 'PLAY_CONSENT_REQUIRED';
export const SELF_EXCLUDED = 'SELF_EXCLUDED';
export const DAILY_LIMIT_REACHED = 'DAILY_LIMIT_REACHED';
/** Buy one, play free: no free entry left (domain/promotions/free-entry-use.ts). */
export const NO_FREE_ENTRY = 'NO_FREE_ENTRY';
/** domain/accounts/profile.ts: the refusal lists what is `missing`. */
export const PROFILE_INCOMPLETE = 'PROFILE_INCOMPLETE';

/** Placing a play or its payment: the refusal's `code` comes back on the ApiError. */
export const post = <T>(path: string, body: unknown): Promise<T> => apiRequest<T>('POST', path, body);

/** The play page, for one size when named: the chosen size travels in the URL (`?size=M`), as on the product page. */
export const playPath = (productId: number, size?: string) => `/play/${productId}${size ? `?size=${encodeURIComponent(size)}` : ''}`;

const picksKey = (productId: number) => `csa:play-picks:${productId}`;

/** Keeps the picks for when the visitor comes back from signing in or adding a card. */
export function savePicks(productId: number, picks: number[]): void {
  try {
    sessionStorage.setItem(picksKey(productId), JSON.stringify(picks));
  } catch {
    // Storage may be unavailable (private mode); the picks are then simply not kept.
  }
}

/** The kept picks that are still in the list (at most PICKS), removed from storage; empty when there are none. */
export function takeSavedPicks(productId: number, knownIds: Iterable<number>): number[] {
  try {
    const saved = sessionStorage.getItem(picksKey(productId));
    if (!saved) return [];
    sessionStorage.removeItem(picksKey(productId));
    const known = new Set(knownIds);
    return [...new Set((JSON.parse(saved) as unknown[]).map(Number))].filter((pick) => known.has(pick)).slice(0, PICKS);
  } catch {
    // See savePicks.
    return [];
  }
}
