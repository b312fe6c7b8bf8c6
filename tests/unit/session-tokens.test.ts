import { describe, expect, test } from 'bun:test';
import { generateSessionToken, sessionIdFromToken } from '../../src/domain/accounts/sessions.ts';

describe('sessions', () => {
  test('tokens are 32 base32 characters and only their SHA-256 is an id', () => {
    const token = generateSessionToken();
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    expect(generateSessionToken()).not.toBe(token);
    expect(sessionIdFromToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionIdFromToken(token)).toBe(sessionIdFromToken(token));
  });
});
