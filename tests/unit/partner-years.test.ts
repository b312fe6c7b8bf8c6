import { describe, expect, test } from 'bun:test';
import { partnerSinceText, partnerYears } from '../../src/routes/pages/marketing/shared.tsx';

/*
 * The partner store's years in business (issue 27: the copy said 35 in 2026): counted from 1988
 * by the shop's clock in Laguna Beach, so the copy never goes stale.
 */

describe('partnerYears', () => {
  test('38 in 2026, 39 in 2027', () => {
    expect(partnerYears(Date.UTC(2026, 10, 26, 12))).toBe(38);
    expect(partnerYears(Date.UTC(2027, 0, 15))).toBe(39);
    expect(partnerSinceText(Date.UTC(2026, 10, 26))).toBe('In business for 38 years, since 1988');
  });

  test('the year turns at midnight in Laguna Beach, not in UTC', () => {
    // 1 January 2027, 05:00 UTC is still New Year's Eve 2026 in California.
    expect(partnerYears(Date.UTC(2027, 0, 1, 5))).toBe(38);
    expect(partnerYears(Date.UTC(2027, 0, 1, 9))).toBe(39);
  });
});
