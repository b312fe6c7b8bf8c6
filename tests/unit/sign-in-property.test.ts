import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { users } from '../../src/db/schema.ts';
import { createAccountLimits } from '../../src/domain/accounts/account-limits.ts';
import { logIn } from '../../src/domain/accounts/accounts.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import type { PasswordHasher } from '../../src/domain/accounts/passwords.ts';
import { propertyRuns } from '../helpers/property-runs.ts';

/*
 * Issue 25: for any sequence of sign-in attempts, wrong or right, from any addresses, in bursts
 * sent at once or one by one, with time passing in between, the right password from a clean
 * address (one that never failed) always signs in.
 */

/** Hashing is not what is checked here; a plain stand-in keeps hundreds of runs fast. */
const plainHasher: PasswordHasher = {
  hash: async (password) => `plain:${password}`,
  verify: async (password, hash) => hash === `plain:${password}`,
};

const RUNS = propertyRuns(100);

const ACCOUNTS = { alice: 'alice-pass', admin: 'admin-pass', bob: 'bob-pass' } as const;
type Name = keyof typeof ACCOUNTS;

const attempt = fc.record({
  // Names as an attacker types them: other letters' case, and names nobody has.
  username: fc.constantFrom('alice', 'ALICE', 'admin', 'Admin', 'bob', 'nobody'),
  // Mostly wrong: an attacker's run, with the owner's own right tries now and then.
  right: fc.oneof({ arbitrary: fc.constant(false), weight: 9 }, { arbitrary: fc.constant(true), weight: 1 }),
  address: fc.integer({ min: 0, max: 5 }).map((n) => `203.0.113.${n}`),
});
const burst = fc.record({
  attempts: fc.array(attempt, { minLength: 1, maxLength: 30 }),
  together: fc.boolean(),
  minutesAfter: fc.integer({ min: 0, max: 20 }),
});

async function store() {
  const db = await openMigratedDatabase();
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 18));
  for (const [username, password] of Object.entries(ACCOUNTS))
    db.insert(users)
      .values({ username, passwordHash: `plain:${password}`, email: `${username}@example.com`, isAdmin: username === 'admin', createdAt: clock.now() })
      .run();
  return { db, clock, passwords: plainHasher, limits: createAccountLimits(db, clock, true) };
}

const passwordOf = (username: string) => ACCOUNTS[username.toLowerCase() as Name] ?? 'no-such-pass';

describe('sign-in under any sequence of attempts', () => {
  test('the right password from a clean address always signs in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(burst, { minLength: 1, maxLength: 8 }), fc.constantFrom<Name>('alice', 'admin', 'bob'), async (bursts, owner) => {
        const deps = await store();
        const send = (a: { username: string; right: boolean; address: string }) =>
          logIn(deps, { username: a.username, password: a.right ? passwordOf(a.username) : 'wrong-pass' }, a.address).catch(() => undefined);
        for (const b of bursts) {
          if (b.together) await Promise.all(b.attempts.map(send));
          else for (const a of b.attempts) await send(a);
          deps.clock.advance(b.minutesAfter * 60_000);
        }
        const user = await logIn(deps, { username: owner, password: ACCOUNTS[owner] }, '192.0.2.1');
        expect(user.username).toBe(owner);
        deps.db.$client.close();
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});
