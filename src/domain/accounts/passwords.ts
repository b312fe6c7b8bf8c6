/**
 * Password hashing as a dependency of the process (AppDeps.passwords): argon2id at Bun's
 * defaults in production, a cheap cost in tests, where a production hash (about 140 ms of a
 * core here) made most of the unit and API tests' time. Every hash carries its own cost
 * (`$argon2id$v=19$m=65536,t=2,p=1$...`), so a hash made at one cost verifies under any.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Checks a password against a stored hash. Without one (an unknown username) it still
   * verifies, against a hash of this hasher's cost, so both answers take the same time.
   */
  verify(password: string, hash: string | undefined): Promise<boolean>;
}

export interface PasswordCost {
  /** KiB of memory per hash. */
  memoryCost: number;
  /** Passes over that memory. */
  timeCost: number;
}

/** OWASP's argon2id minimum is 19 MiB and 2 passes; Bun's defaults, 64 MiB and 2, are above it. */
export const PRODUCTION_PASSWORD_COST: PasswordCost = { memoryCost: 65536, timeCost: 2 };

/** For tests only: the smallest cost argon2 takes (half a millisecond). */
export const TEST_PASSWORD_COST: PasswordCost = { memoryCost: 8, timeCost: 1 };

export function argon2idHasher(cost: PasswordCost = PRODUCTION_PASSWORD_COST): PasswordHasher {
  const hash = (password: string) => Bun.password.hash(password, { algorithm: 'argon2id', ...cost });
  let dummy: Promise<string> | undefined;
  return {
    hash,
    async verify(password, stored) {
      dummy ??= hash('not-a-real-password');
      const valid = await Bun.password.verify(password, stored ?? (await dummy));
      return stored !== undefined && valid;
    },
  };
}
