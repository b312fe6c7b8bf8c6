import { LOCAL_ZIP } from './schemas/profile.ts';

/*
 * Who can receive a prize (issue 27, item 3): prizes travel by the store's own local delivery,
 * in ZIP 92651 only. A player elsewhere may still play, having said before paying that a win
 * goes to charity. Browser-safe: the play page shows the same words the server refuses with.
 */

export const PRIZE_DELIVERY_NOTE = `Prizes are delivered in Laguna Beach (${LOCAL_ZIP}) only.`;
export const DONATE_IF_WON_LABEL = 'If I win, the prize goes to charity';
export const PRIZE_NOT_DELIVERABLE = 'PRIZE_NOT_DELIVERABLE';
export const OUTSIDE_DELIVERY_MESSAGE = `${PRIZE_DELIVERY_NOTE} Your address is outside ${LOCAL_ZIP}: tick '${DONATE_IF_WON_LABEL}' to play.`;

/** Where the player's prize could go: their profile's ZIP in 92651, elsewhere, or no ZIP yet. */
export type PrizeDelivery = 'local' | 'elsewhere' | 'unknown';

export function prizeDeliveryFor(postalCode: string | null | undefined): PrizeDelivery {
  const zip = postalCode?.trim() ?? '';
  if (!zip) return 'unknown';
  // ZIP+4 (92651-1234) is still Laguna Beach.
  return zip.slice(0, 5) === LOCAL_ZIP ? 'local' : 'elsewhere';
}
