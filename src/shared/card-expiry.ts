/*
 * A card's expiry as people type it: '1230', '12/30', '12 / 2030', '12/2030', '1/30'.
 * The card field formats with `formatExpiryInput` as the shopper types and reads with
 * `parseExpiry`; the test card form (test-cards.ts) takes the same text. Browser-safe.
 */

export const EXPIRY_FORMAT_MESSAGE = 'Enter the expiry as MM/YY, for example 12/30.';
export const EXPIRY_MONTH_MESSAGE = 'The expiry month must be 01 to 12.';

export type ParsedExpiry = { month: number; year: number } | { error: string };

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** Month and 4-digit year of a typed expiry, or the message saying what to type. */
export function parseExpiry(text: string): ParsedExpiry {
  const trimmed = text.trim();
  // Month and year apart by a slash, dash or spaces; or run together as MMYY / MMYYYY.
  const apart = /^(\d{1,2})\s*[/\-\s]\s*(\d{2}|\d{4})$/.exec(trimmed);
  const together = /^(\d{2})(\d{2}|\d{4})$/.exec(trimmed);
  const match = apart ?? together;
  if (!match) return { error: EXPIRY_FORMAT_MESSAGE };
  const month = Number(match[1]);
  const yearText = match[2] as string;
  if (month < 1 || month > 12) return { error: EXPIRY_MONTH_MESSAGE };
  return { month, year: yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText) };
}

/**
 * The field's text after a keystroke: the slash comes in once the month is typed ('12' ->
 * '12/', '4' -> '04/', '1/' -> '01/'). Deleting is left alone so a backspace can remove it.
 */
export function formatExpiryInput(raw: string, deleting = false): string {
  if (deleting) return raw;
  const slash = raw.search(/[/-]/);
  let month: string;
  let year: string;
  if (slash >= 0) {
    month = digitsOf(raw.slice(0, slash));
    year = digitsOf(raw.slice(slash + 1));
    if (month.length === 1) month = `0${month}`;
  } else {
    const digits = digitsOf(raw);
    if (digits.length === 1 && digits > '1') return `0${digits}/`;
    month = digits.slice(0, 2);
    year = digits.slice(2);
  }
  if (month.length < 2) return month;
  return `${month.slice(0, 2)}/${year.slice(0, 4)}`;
}
