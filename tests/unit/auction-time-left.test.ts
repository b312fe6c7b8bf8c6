import { describe, expect, test } from 'bun:test';
import { timeLeftText } from '../../src/components/auction-format.ts';

/*
 * The time left a server-rendered list shows (issue 28, item 6): counted from the end of the
 * minute the page is kept for, it never promises more time than is left.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const AT = Date.UTC(2026, 10, 21, 18, 0, 0);

describe('timeLeftText', () => {
  test('days and hours, hours and minutes, minutes, then ending soon', () => {
    expect(timeLeftText(AT + MINUTE + 2 * 24 * HOUR + 5 * HOUR + 30 * MINUTE, AT)).toBe('2d 5h left');
    expect(timeLeftText(AT + MINUTE + 2 * HOUR + 14 * MINUTE + 59_000, AT)).toBe('2h 14m left');
    expect(timeLeftText(AT + MINUTE + 9 * MINUTE, AT)).toBe('9m left');
    expect(timeLeftText(AT + 2 * MINUTE - 1, AT)).toBe('ending soon');
    expect(timeLeftText(AT - HOUR, AT)).toBe('ending soon');
  });

  test('the same text all through the minute, and never more than what is left at its end', () => {
    const endsAt = AT + 3 * HOUR + 7 * MINUTE + 20_000;
    const texts = new Set([0, 1, 30_000, 59_999].map((into) => timeLeftText(endsAt, AT + into)));
    expect([...texts]).toEqual(['3h 6m left']);
    for (let now = AT; now < endsAt; now += 7_919) {
      const [hours, minutes] = /^(?:(\d+)h )?(\d+)m left$/
        .exec(timeLeftText(endsAt, now))
        ?.slice(1)
        .map((n) => Number(n ?? 0)) ?? [0, 0];
      expect((hours! * 60 + minutes!) * MINUTE).toBeLessThanOrEqual(endsAt - now);
    }
  });
});
