import { ApiError } from '../lib/http.ts';

/*
 * Placing a play, outside React: the rules' numbers, the POST helper that keeps the server's
 * error code, and the picks kept in sessionStorage while the visitor signs in or adds a card.
 */

/** Spec sections 5 and 9: exactly 5 influencers per play. */
export const PICKS = 5;
export const PAYMENT_METHOD_REQUIRED = 'PAYMENT_METHOD_REQUIRED';
/** Responsible play (the server's codes, domain/games/responsible-play.ts). */
export const PLAY_CONSENT_REQUIRED = 'PLAY_CONSENT_REQUIRED';
export const SELF_EXCLUDED = 'SELF_EXCLUDED';
export const DAILY_LIMIT_REACHED = 'DAILY_LIMIT_REACHED';

/** A failed call with the server's error code (e.g. PAYMENT_METHOD_REQUIRED), which ApiError does not keep. */
export class PlayError extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly code: string | undefined,
  ) {
    super(status, message);
  }
}

export async function post<T>(path: string, body: unknown): Promise<T> {
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
