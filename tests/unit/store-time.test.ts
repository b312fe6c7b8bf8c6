import { describe, expect, test } from 'bun:test';
import { fromStoreInput, toStoreInput } from '../../src/shared/store-time.ts';

/* The admin's datetime-local fields are Laguna Beach time whatever zone the server runs in. */

describe('store time', () => {
  test('reads a datetime-local value as Pacific time, winter and summer', () => {
    expect(fromStoreInput('2026-12-01T18:00')).toBe('2026-12-02T02:00:00.000Z');
    expect(fromStoreInput('2026-07-01T18:00')).toBe('2026-07-02T01:00:00.000Z');
    expect(fromStoreInput('2026-11-01T00:30:15')).toBe('2026-11-01T07:30:15.000Z');
  });

  test('writes an instant back as the value the field shows, and the two agree', () => {
    expect(toStoreInput(Date.parse('2026-12-02T02:00:00Z'))).toBe('2026-12-01T18:00');
    for (const value of ['2026-03-09T09:15', '2026-11-02T23:59', '2027-01-01T00:00']) expect(toStoreInput(Date.parse(fromStoreInput(value)!))).toBe(value);
  });

  test('anything that is not a date and time is null', () => {
    for (const typed of ['', 'next week', '2026-02-30T10:00', '2026-12-01T24:00', '2026-12-01 18:00', '2026-12-01T18:60'])
      expect(fromStoreInput(typed)).toBeNull();
  });
});
