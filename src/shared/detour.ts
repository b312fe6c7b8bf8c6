/*
 * A detour to the profile (a card, the details) and the way back (issue 37 item 14). The page
 * that sends a shopper there says where from (`from=auction|team|game`) beside `next`, so the
 * profile names the way back after it and, when both a card and details are missing, takes the
 * shopper through both in one trip before going back. Browser-safe: islands build the links.
 */

export type DetourFrom = 'auction' | 'team' | 'game';

const places: Record<DetourFrom, string> = { auction: 'the auction', team: 'the team', game: 'the game' };

export function detourFromOf(value: string | null | undefined): DetourFrom | null {
  return value === 'auction' || value === 'team' || value === 'game' ? value : null;
}

/** 'the auction', 'the team'; a detour that did not say where from came from a game (the first kind there was). */
export function detourPlace(from: DetourFrom | null): string {
  return places[from ?? 'game'];
}

/** 'Back to the auction'. */
export function backLinkText(from: DetourFrom | null): string {
  return `Back to ${detourPlace(from)}`;
}

/** The profile's tab for the rest of a detour: `tab` with the same way back. */
export function detourHref(tab: 'payment' | 'personal', next: string, from: DetourFrom | null): string {
  return `/profile?tab=${tab}&next=${encodeURIComponent(next)}${from ? `&from=${from}` : ''}`;
}
