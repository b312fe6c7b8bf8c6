import { describe, expect, test } from 'bun:test';
import { argon2idHasher, PRODUCTION_PASSWORD_COST, TEST_PASSWORD_COST } from '../../src/domain/accounts/passwords.ts';

describe('password hashing', () => {
  // The one test that pays the production cost: every other test runs on the cheap one.
  test('production hashes are argon2id at 64 MiB and 2 passes, and verify', async () => {
    const passwords = argon2idHasher();
    const hash = await passwords.hash('correct horse');
    expect(hash).toStartWith(`$argon2id$v=19$m=${PRODUCTION_PASSWORD_COST.memoryCost},t=${PRODUCTION_PASSWORD_COST.timeCost},p=1$`);
    expect(PRODUCTION_PASSWORD_COST.memoryCost).toBeGreaterThanOrEqual(19 * 1024);
    expect(await passwords.verify('correct horse', hash)).toBe(true);
    expect(await passwords.verify('wrong horse', hash)).toBe(false);
    // A hash carries its cost: one made at any cost verifies under another hasher.
    expect(await argon2idHasher(TEST_PASSWORD_COST).verify('correct horse', hash)).toBe(true);
  });

  test('without a stored hash (an unknown username) the answer is false, after a real verification', async () => {
    const passwords = argon2idHasher(TEST_PASSWORD_COST);
    expect(await passwords.verify('not-a-real-password', undefined)).toBe(false);
    expect(await passwords.verify('anything', undefined)).toBe(false);
  });

  test('tests hash cheaply', async () => {
    const hash = await argon2idHasher(TEST_PASSWORD_COST).hash('pw');
    expect(hash).toStartWith('$argon2id$v=19$m=8,t=1,p=1$');
  });
});
