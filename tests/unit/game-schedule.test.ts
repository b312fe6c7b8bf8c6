import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { entryTime, filledAt, HOUR_MS, nextTopOfHour, startOfFilledGame, topOfHourAtOrAfter } from '../../src/domain/games/schedule.ts';

const at = (hh: number, mm: number, ss = 0) => Date.UTC(2026, 10, 21, hh, mm, ss);

describe('game time (schedule.ts, the one home of when games fill and start)', () => {
  test('a game that fills at 13:40 starts at 14:00; one that fills on the hour starts then', () => {
    expect(topOfHourAtOrAfter(at(13, 40))).toBe(at(14, 0));
    expect(topOfHourAtOrAfter(at(14, 0))).toBe(at(14, 0));
    expect(topOfHourAtOrAfter(at(14, 0, 1))).toBe(at(15, 0));
    expect(nextTopOfHour(at(14, 0))).toBe(at(15, 0));
    expect(nextTopOfHour(at(13, 59, 59))).toBe(at(14, 0));
  });

  test('a game fills with its required-th entry, in time order, whatever order the rows come in', () => {
    const times = [at(13, 50), at(13, 5), at(13, 30), at(14, 10)];
    expect(filledAt(times, 3)).toBe(at(13, 50));
    expect(startOfFilledGame(times, 3)).toBe(at(14, 0));
    expect(startOfFilledGame(times, 4)).toBe(at(15, 0));
    expect(filledAt(times, 5)).toBeNull();
    expect(startOfFilledGame(times, 5)).toBeNull();
    expect(times).toEqual([at(13, 50), at(13, 5), at(13, 30), at(14, 10)]);
  });

  test('an entry counts from when it was entered; rows from before that was kept, from their creation', () => {
    expect(entryTime({ enteredAt: at(13, 10), createdAt: at(13, 0) })).toBe(at(13, 10));
    expect(entryTime({ enteredAt: null, createdAt: at(13, 0) })).toBe(at(13, 0));
  });

  test('a filled game starts on the hour, at most an hour after it filled, never before (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10 * 24 * HOUR_MS }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 1, max: 20 }),
        (times, required) => {
          const start = startOfFilledGame(times, required);
          if (times.length < required) return expect(start).toBeNull();
          const filled = filledAt(times, required)!;
          expect(start! % HOUR_MS).toBe(0);
          expect(start!).toBeGreaterThanOrEqual(filled);
          expect(start! - filled).toBeLessThan(HOUR_MS);
          expect(times.filter((t) => t <= filled).length).toBeGreaterThanOrEqual(required);
        },
      ),
    );
  });
});
