/* Buy one, play free (issue 29): the words every page, island and e-mail uses for a free entry. Browser-safe. */

const dateFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', dateStyle: 'medium' });

/** The day a free entry must be used by, in the store's zone ('Dec 26, 2026'). */
export function freeEntryDate(expiresAt: number): string {
  return dateFormat.format(expiresAt);
}

/** '1 free game entry, use by Dec 26, 2026' (the order page). */
export function freeEntryLine(count: number, expiresAt: number): string {
  return `${count} free game ${count === 1 ? 'entry' : 'entries'}, use by ${freeEntryDate(expiresAt)}`;
}

/** The product page's line for a flagged product. */
export const BUY_ONE_PLAY_FREE = 'Buy one, play free: each unit you buy gives you a free game entry';
