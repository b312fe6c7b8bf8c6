import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { EXPIRY_FORMAT_MESSAGE, EXPIRY_MONTH_MESSAGE, formatExpiryInput, parseExpiry } from '../../src/shared/card-expiry.ts';
import { TEST_CARD_HINT_DECLINE, TEST_OUTCOMES, findTestCard, testTokenForTypedCard } from '../../src/shared/test-cards.ts';

/*
 * Issue 27, finding 7: the card expiry is typed as people type it ('1230', '12/30',
 * '12 / 2030'), the field puts the slash in as they type, and the hint's decline card is
 * refused already when saved.
 */

/** What the field shows after typing `text` one key at a time. */
function typed(text: string): string {
  let value = '';
  for (const key of text) value = formatExpiryInput(value + key);
  return value;
}

describe('parseExpiry', () => {
  test.each(['1230', '12/30', '12 / 2030', '12/2030', '122030', ' 12-30 ', '12 30'])('%p is December 2030', (text) => {
    expect(parseExpiry(text)).toEqual({ month: 12, year: 2030 });
  });

  test('a one-digit month apart from its year: 1/30 is January 2030', () => {
    expect(parseExpiry('1/30')).toEqual({ month: 1, year: 2030 });
  });

  test.each(['13/30', '00/30', '1330'])('%p names the month rule', (text) => {
    expect(parseExpiry(text)).toEqual({ error: EXPIRY_MONTH_MESSAGE });
  });

  test.each(['', '12', '123', '12/3', '12/203', 'ab/cd', '12//30', '12/30/1'])('%p says how to type it', (text) => {
    expect(parseExpiry(text)).toEqual({ error: EXPIRY_FORMAT_MESSAGE });
  });

  test('every month and year, typed in each of the four ways, reads back as itself', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2000, max: 2099 }), (month, year) => {
        const mm = String(month).padStart(2, '0');
        const yy = String(year % 100).padStart(2, '0');
        for (const text of [`${mm}${yy}`, `${mm}/${yy}`, `${mm} / ${year}`, `${mm}/${year}`]) {
          expect(parseExpiry(text)).toEqual({ month, year });
        }
      }),
    );
  });

  test('any text gives a month 1 to 12 and a 4-digit year, or a message; never a throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        const parsed = parseExpiry(text);
        if ('error' in parsed) expect([EXPIRY_FORMAT_MESSAGE, EXPIRY_MONTH_MESSAGE]).toContain(parsed.error);
        else {
          expect(parsed.month).toBeGreaterThanOrEqual(1);
          expect(parsed.month).toBeLessThanOrEqual(12);
          expect(parsed.year).toBeGreaterThanOrEqual(2000);
          expect(parsed.year).toBeLessThanOrEqual(9999);
        }
      }),
    );
  });
});

describe('formatExpiryInput: the slash comes in as the shopper types', () => {
  test.each([
    ['1', '1'],
    ['12', '12/'],
    ['123', '12/3'],
    ['1230', '12/30'],
    ['12/30', '12/30'],
    ['12 / 2030', '12/2030'],
    ['4', '04/'],
    ['1/', '01/'],
    ['1/30', '01/30'],
    ['12/20301', '12/2030'],
  ])('typing %p shows %p', (keys, shown) => {
    expect(typed(keys)).toBe(shown);
  });

  test('a backspace over the slash removes it instead of putting it back', () => {
    expect(formatExpiryInput('12', true)).toBe('12');
  });

  test('whatever digits are typed, what the field shows reads as the same month and year', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 2000, max: 2099 }), fc.boolean(), (month, year, long) => {
        const keys = `${String(month).padStart(2, '0')}${long ? year : String(year % 100).padStart(2, '0')}`;
        expect(parseExpiry(typed(keys))).toEqual({ month, year });
      }),
    );
  });
});

describe('the test card form takes the expiry as typed', () => {
  const now = new Date('2026-11-26T00:00:00Z');
  test.each(['1230', '12/30', '12 / 2030', '12/2030'])('%p makes a token expiring 12/2030', (expiry) => {
    const made = testTokenForTypedCard('4111 1111 1111 1111', expiry, '123', now);
    expect('token' in made && made.token.endsWith(':12:2030')).toBe(true);
  });

  test('a month past 12 says so, and an expired card is still refused', () => {
    expect(testTokenForTypedCard('4111111111111111', '1330', '123', now)).toEqual({ error: EXPIRY_MONTH_MESSAGE });
    expect(testTokenForTypedCard('4111111111111111', '10/26', '123', now)).toEqual({ error: 'This card has expired.' });
  });
});

test("the hint's decline card is refused when saved as well as at a payment", () => {
  const card = findTestCard(TEST_CARD_HINT_DECLINE);
  expect(card).toBeDefined();
  const rule = TEST_OUTCOMES[card!.outcome];
  expect(rule.failsOnSave).toBe(true);
  expect(rule.code).not.toBeNull();
});
