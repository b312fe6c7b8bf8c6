import { describe, expect, test } from 'bun:test';
import { safeNextPath } from '../../src/shared/safe-next-path.ts';

describe('safeNextPath', () => {
  test('next paths stay on this site', () => {
    expect(safeNextPath('/cart')).toBe('/cart');
    expect(safeNextPath('//evil.example')).toBe('/');
    expect(safeNextPath('/\\evil.example')).toBe('/');
    expect(safeNextPath('https://evil.example')).toBe('/');
    expect(safeNextPath(undefined)).toBe('/');
  });
});
