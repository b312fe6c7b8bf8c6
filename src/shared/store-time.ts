/*
 * The store's clock face: America/Los_Angeles (Laguna Beach, DESIGN section 2). A form's
 * datetime-local field has no zone, so the admin types store time and the server turns it into
 * an instant here, whatever zone the server itself runs in.
 */

export const STORE_ZONE = 'America/Los_Angeles';

const parts = new Intl.DateTimeFormat('en-US', {
  timeZone: STORE_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function wallClock(epochMs: number) {
  const get = (type: string) => Number(parts.formatToParts(epochMs).find((part) => part.type === type)?.value ?? 0);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour') % 24, minute: get('minute'), second: get('second') };
}

/** How far the store's wall clock is ahead of UTC at an instant (negative in California). */
function offsetAt(epochMs: number): number {
  const w = wallClock(epochMs);
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(epochMs / 1000) * 1000;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** An instant as a datetime-local field's value in store time: 2026-12-01T18:00. */
export function toStoreInput(epochMs: number): string {
  const w = wallClock(epochMs);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** A datetime-local value read as store time, as an ISO 8601 instant; null when it is not one. */
export function fromStoreInput(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((n) => Number(n ?? 0)) as number[];
  const guess = Date.UTC(year!, month! - 1, day!, hour!, minute!, second ?? 0);
  const check = new Date(guess);
  if (check.getUTCMonth() !== month! - 1 || check.getUTCDate() !== day! || hour! > 23 || minute! > 59) return null;
  // Twice: the offset at the guess can differ from the offset at the answer near a clock change.
  const first = guess - offsetAt(guess);
  return new Date(guess - offsetAt(first)).toISOString();
}

/*
 * Times as people read them: always the store's zone, always named ('PST' or 'PDT'), on the
 * server's pages, in the islands and in e-mails alike (issue 37 item 13). The same text on the
 * server and in the browser, so an island's first render matches the HTML it hydrates.
 */

const withYear = new Intl.DateTimeFormat('en-US', {
  timeZone: STORE_ZONE,
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});
const dayOnly = new Intl.DateTimeFormat('en-US', { timeZone: STORE_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
const shortDay = new Intl.DateTimeFormat('en-US', { timeZone: STORE_ZONE, month: 'short', day: 'numeric' });
const clockFace = new Intl.DateTimeFormat('en-US', { timeZone: STORE_ZONE, hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
const clockSeconds = new Intl.DateTimeFormat('en-US', {
  timeZone: STORE_ZONE,
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

const instant = (at: number | string | Date) => (typeof at === 'string' ? Date.parse(at) : typeof at === 'number' ? at : at.getTime());

/** 'Nov 26, 2026, 3:04 PM PST'. */
export function formatStoreDateTime(at: number | string | Date): string {
  return withYear.format(instant(at));
}

/** '3:04 PM PST': a time the reader knows the day of (a game starting this hour). */
export function formatStoreClock(at: number | string | Date): string {
  return clockFace.format(instant(at));
}

/** A moment in a list that runs by the second (a bid): '3:04:05 PM PST' today, 'Nov 25, 3:04:05 PM PST' another day. */
export function formatStoreMoment(at: number | string | Date, now: number): string {
  const ms = instant(at);
  const time = clockSeconds.format(ms);
  return dayOnly.format(ms) === dayOnly.format(now) ? time : `${shortDay.format(ms)}, ${time}`;
}
