import { parseExpiry } from './card-expiry.ts';

/*
 * Test cards for the built-in `test` gateway (DESIGN section 5).
 *
 * Pure data and functions with no server imports: the card island bundles this file into
 * the browser, and the test gateway plus the fake Square server in tests/ read the same
 * tables, so the three agree on what each card and token does.
 *
 * Tokens follow Square's sandbox payment tokens: `cnon:card-nonce-ok` approves,
 * `cnon:card-nonce-declined` declines with GENERIC_DECLINE, and so on. A token made by
 * `testTokenForCard` carries the card's brand, last four digits and expiry after the base
 * token (`cnon:card-nonce-ok:VISA:1111:12:2030`), so a saved card can show them.
 */

/** What a test card does. Mirrors the suffix of Square's sandbox tokens `cnon:card-nonce-<outcome>`. */
export type TestCardOutcome = 'ok' | 'declined' | 'insufficient-funds' | 'rejected-cvv' | 'rejected-postalcode' | 'rejected-expiration';

export interface TestOutcomeRule {
  /** Square's error code for a payment with this card; null when it approves. */
  code: string | null;
  detail: string;
  /**
   * True when the card is refused already when saved as a card on file (Square verifies the
   * CVV, postal code and expiry then). False for issuer decisions (declined, insufficient
   * funds): such a card saves fine and its later payments decline, which is what a test
   * needs to exercise "saved card declines at play time".
   */
  failsOnSave: boolean;
}

export const TEST_OUTCOMES: Readonly<Record<TestCardOutcome, TestOutcomeRule>> = {
  ok: { code: null, detail: 'Approved.', failsOnSave: false },
  declined: { code: 'GENERIC_DECLINE', detail: 'Card declined.', failsOnSave: false },
  'insufficient-funds': { code: 'INSUFFICIENT_FUNDS', detail: 'Insufficient funds.', failsOnSave: false },
  'rejected-cvv': { code: 'CVV_FAILURE', detail: 'Card verification code check failed.', failsOnSave: true },
  'rejected-postalcode': {
    code: 'ADDRESS_VERIFICATION_FAILURE',
    detail: 'Card postal code check failed.',
    failsOnSave: true,
  },
  'rejected-expiration': { code: 'INVALID_EXPIRATION', detail: 'Card expiration date is invalid.', failsOnSave: true },
};

const OUTCOMES = Object.keys(TEST_OUTCOMES) as TestCardOutcome[];

/** Square's sandbox token for each outcome, e.g. `cnon:card-nonce-declined`. */
export const TEST_NONCE_PREFIX = 'cnon:card-nonce-';
export function testNonce(outcome: TestCardOutcome): string {
  return `${TEST_NONCE_PREFIX}${outcome}`;
}

export interface TestCard {
  /** Digits only. */
  number: string;
  /** Square's CardBrand value. */
  brand: string;
  outcome: TestCardOutcome;
  /** What the card does, in words for the card form's help text. */
  label: string;
}

/**
 * The card numbers the test card form knows. The approving ones are Square's sandbox test
 * cards; the failing ones are the widely used 4000 0000 0000 xxxx test numbers (Square's
 * sandbox makes failures from the CVV, postal code or amount instead; those rules are
 * listed in `testTokenForCard`). Any other number that passes the Luhn check approves.
 */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4111111111111111', brand: 'VISA', outcome: 'ok', label: 'Visa, approves' },
  { number: '5105105105105100', brand: 'MASTERCARD', outcome: 'ok', label: 'Mastercard, approves' },
  { number: '6011000000000004', brand: 'DISCOVER', outcome: 'ok', label: 'Discover, approves' },
  { number: '340000000000009', brand: 'AMERICAN_EXPRESS', outcome: 'ok', label: 'American Express, approves (4-digit CVC)' },
  { number: '3569990010095841', brand: 'JCB', outcome: 'ok', label: 'JCB, approves' },
  { number: '30000000000004', brand: 'DISCOVER_DINERS', outcome: 'ok', label: 'Diners Club, approves' },
  {
    number: '4000000000000002',
    brand: 'VISA',
    outcome: 'declined',
    label: 'Visa, declined (saves as a card on file; every payment on it declines)',
  },
  {
    number: '4000000000009995',
    brand: 'VISA',
    outcome: 'insufficient-funds',
    label: 'Visa, insufficient funds (saves; payments decline)',
  },
  { number: '4000000000000127', brand: 'VISA', outcome: 'rejected-cvv', label: 'Visa, CVC check fails' },
  { number: '4000000000000036', brand: 'VISA', outcome: 'rejected-postalcode', label: 'Visa, postal code check fails' },
  { number: '4000000000000069', brand: 'VISA', outcome: 'rejected-expiration', label: 'Visa, expiry check fails' },
];

/** The card number a page should suggest for an approval and for a decline. */
export const TEST_CARD_OK = '4111111111111111';
export const TEST_CARD_DECLINED = '4000000000000002';
/**
 * The decline the card form's hint names: refused already when saved and at every payment, so a
 * shopper trying it never sees it saved as if fine (TEST_CARD_DECLINED saves and declines later,
 * for tests of a saved card that stops working).
 */
export const TEST_CARD_HINT_DECLINE = '4000000000000127';

export function findTestCard(number: string): TestCard | undefined {
  const digits = number.replace(/[\s-]/g, '');
  return TEST_CARDS.find((card) => card.number === digits);
}

/** Luhn (mod 10) check over a string of digits. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Square's CardBrand for a card number, from its leading digits. */
export function brandForNumber(digits: string): string {
  const known = findTestCard(digits);
  if (known) return known.brand;
  const two = Number(digits.slice(0, 2));
  const four = Number(digits.slice(0, 4));
  const three = Number(digits.slice(0, 3));
  if (digits.startsWith('4')) return 'VISA';
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return 'MASTERCARD';
  if (two === 34 || two === 37) return 'AMERICAN_EXPRESS';
  if (digits.startsWith('6011') || two === 65 || (three >= 644 && three <= 649)) return 'DISCOVER';
  if (two === 35) return 'JCB';
  if (two === 36 || two === 38 || (three >= 300 && three <= 305)) return 'DISCOVER_DINERS';
  if (two === 62) return 'CHINA_UNIONPAY';
  return 'OTHER_BRAND';
}

export type TestTokenResult = { token: string; brand: string; last4: string } | { error: string };

/**
 * Validates a card the way a card form would and returns the test token it maps to.
 *
 * - number: 13 to 19 digits (spaces and dashes ignored) passing the Luhn check;
 * - expiry: month 1-12, year as 2 or 4 digits, not before the current month of `now` (UTC)
 *   and at most 20 years ahead;
 * - CVC: 3 or 4 digits.
 *
 * A listed `TEST_CARDS` number gives its outcome; any other valid number approves. As in
 * Square's sandbox card form, CVC 911 gives a CVV failure and expiry 01/40 an expiry failure.
 */
export function testTokenForCard(
  number: string,
  expMonth: number | string,
  expYear: number | string,
  cvc: string | number,
  now: Date = new Date(),
): TestTokenResult {
  const digits = String(number).replace(/[\s-]/g, '');
  if (!/^\d*$/.test(digits)) return { error: 'The card number may contain digits only.' };
  if (digits.length < 13 || digits.length > 19) return { error: 'Enter a card number of 13 to 19 digits.' };
  if (!luhnValid(digits)) return { error: 'That card number is not valid. Check the digits.' };

  const monthText = String(expMonth).trim();
  const yearText = String(expYear).trim();
  if (!/^\d{1,2}$/.test(monthText) || Number(monthText) < 1 || Number(monthText) > 12) {
    return { error: 'Enter the expiry month as 1 to 12.' };
  }
  if (!/^(\d{2}|\d{4})$/.test(yearText)) return { error: 'Enter the expiry year as 2 or 4 digits.' };
  const month = Number(monthText);
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  const nowYear = now.getUTCFullYear();
  const nowMonth = now.getUTCMonth() + 1;
  if (year < nowYear || (year === nowYear && month < nowMonth)) return { error: 'This card has expired.' };
  if (year > nowYear + 20) return { error: 'Enter a valid expiry year.' };

  const cvcText = String(cvc).trim();
  if (!/^\d{3,4}$/.test(cvcText)) return { error: 'Enter the 3 or 4 digit security code (CVC).' };

  let outcome: TestCardOutcome = findTestCard(digits)?.outcome ?? 'ok';
  if (outcome === 'ok' && cvcText === '911') outcome = 'rejected-cvv';
  if (outcome === 'ok' && month === 1 && year === 2040) outcome = 'rejected-expiration';

  const brand = brandForNumber(digits);
  const last4 = digits.slice(-4);
  const token = `${testNonce(outcome)}:${brand}:${last4}:${String(month).padStart(2, '0')}:${year}`;
  return { token, brand, last4 };
}

/** The card form's fields as typed, the expiry as one text ('1230', '12/30', '12 / 2030'): what the test card form sends. */
export function testTokenForTypedCard(number: string, expiry: string, cvc: string, now: Date = new Date()): TestTokenResult {
  const parsed = parseExpiry(expiry);
  return 'error' in parsed ? parsed : testTokenForCard(number, parsed.month, parsed.year, cvc, now);
}

export interface TestNonceInfo {
  outcome: TestCardOutcome;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/**
 * Reads a test token: Square's bare sandbox tokens (`cnon:card-nonce-ok`, ...) or one made
 * by `testTokenForCard`. Returns null for anything else. Bare tokens get the details of
 * the matching TEST_CARDS card and an expiry of December, three years after `now`.
 */
export function parseTestNonce(sourceId: string, now: Date = new Date()): TestNonceInfo | null {
  if (!sourceId.startsWith(TEST_NONCE_PREFIX)) return null;
  const [kind, ...details] = sourceId.slice(TEST_NONCE_PREFIX.length).split(':');
  const outcome = OUTCOMES.find((candidate) => candidate === kind);
  if (!outcome) return null;
  if (details.length === 0) {
    const card = TEST_CARDS.find((candidate) => candidate.outcome === outcome && candidate.brand === 'VISA');
    return {
      outcome,
      brand: card?.brand ?? 'VISA',
      last4: (card?.number ?? TEST_CARD_OK).slice(-4),
      expMonth: 12,
      expYear: now.getUTCFullYear() + 3,
    };
  }
  const [brand, last4, month, year] = details;
  if (details.length !== 4 || !brand || !/^[A-Z_]+$/.test(brand) || !/^\d{4}$/.test(last4 ?? '')) return null;
  const expMonth = Number(month);
  const expYear = Number(year);
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12 || !Number.isInteger(expYear) || expYear < 2000) {
    return null;
  }
  return { outcome, brand, last4: last4 as string, expMonth, expYear };
}
