import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { and, count, eq } from 'drizzle-orm';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { rateLimitEvents } from '../../src/db/schema.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { CARD_ATTEMPT_WINDOW_MS, CARD_ATTEMPTS_PER_ADDRESS, CARD_ATTEMPTS_PER_USER, withCardAttempt } from '../../src/domain/payments/card-attempts.ts';

/*
 * The card-attempt rule alone (src/domain/payments/card-attempts.ts): whatever order the
 * gateway's answers come back in, no more refusals reach the gateway than the limits allow.
 */

/** What the gateway does with an attempt: refuses it, takes it, fails to answer then is found to have taken it, or is never asked. */
type Outcome = 'refused' | 'ok' | 'recovered' | 'not-asked';

const attemptArb = fc.record({
  user: fc.integer({ min: 1, max: 2 }),
  address: fc.constantFrom('198.51.100.1', '198.51.100.2'),
  outcome: fc.constantFrom<Outcome>('refused', 'refused', 'ok', 'recovered', 'not-asked'),
});

async function store() {
  const db = await openMigratedDatabase();
  const clock = new ManualClock(Date.UTC(2026, 10, 21, 18, 0));
  const kept = (bucket: string, key: string) =>
    db
      .select({ n: count() })
      .from(rateLimitEvents)
      .where(and(eq(rateLimitEvents.bucket, bucket), eq(rateLimitEvents.key, key)))
      .get()!.n;
  return { db, clock, kept };
}

describe('card attempts', () => {
  test('any interleaving of attempts: refusals reaching the gateway never pass the per-user and per-address limits (fast-check)', async () => {
    const { db, clock, kept } = await store();
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.array(attemptArb, { minLength: 1, maxLength: 60 }), async (s, attempts) => {
        db.delete(rateLimitEvents).run();
        const reached: (typeof attempts)[number][] = [];
        // Calls at the gateway now, and refusals it gave, per user and per address: each holds a slot.
        const holding = new Map<string, number>();
        const hold = (a: (typeof attempts)[number], by: number) => {
          for (const key of [`user ${a.user}`, `address ${a.address}`]) holding.set(key, (holding.get(key) ?? 0) + by);
        };
        const runs = attempts.map((a) =>
          s
            .schedule(Promise.resolve(), `start ${a.user}@${a.address}`)
            .then(() =>
              withCardAttempt({ db, clock }, { userId: a.user, address: a.address }, async (gate) => {
                if (a.outcome === 'not-asked') {
                  await s.schedule(Promise.resolve(), 'refused by a rule before the gateway');
                  throw new DomainError(409, 'A checkout is already in progress.');
                }
                try {
                  return await gate.call(async () => {
                    reached.push(a);
                    hold(a, 1);
                    expect(holding.get(`user ${a.user}`)!).toBeLessThanOrEqual(CARD_ATTEMPTS_PER_USER);
                    expect(holding.get(`address ${a.address}`)!).toBeLessThanOrEqual(CARD_ATTEMPTS_PER_ADDRESS);
                    await s.schedule(Promise.resolve(), `gateway answers ${a.outcome}`);
                    if (a.outcome === 'refused') throw new Error(a.outcome);
                    hold(a, -1);
                    if (a.outcome === 'recovered') throw new Error('no answer');
                    return 'paid';
                  });
                } catch (error) {
                  if (a.outcome === 'recovered') return 'paid after asking';
                  throw error;
                }
              }),
            )
            .catch((error: unknown) => error),
        );
        await s.waitAll();
        await Promise.all(runs);

        const refusals = reached.filter((a) => a.outcome === 'refused');
        for (const user of new Set(attempts.map((a) => a.user))) {
          const own = refusals.filter((a) => a.user === user).length;
          expect(own).toBeLessThanOrEqual(CARD_ATTEMPTS_PER_USER);
          // Only refusals keep their slot: whatever went through, or never reached the gateway, gave it back.
          expect(kept('card-attempt-user', String(user))).toBe(own);
        }
        for (const address of new Set(attempts.map((a) => a.address))) {
          const there = refusals.filter((a) => a.address === address).length;
          expect(there).toBeLessThanOrEqual(CARD_ATTEMPTS_PER_ADDRESS);
          expect(kept('card-attempt-address', address)).toBe(there);
        }
      }),
      { numRuns: 100 },
    );
  });

  test('a burst of refused attempts from one user: exactly the limit reaches the gateway, the rest are 429 with the wait', async () => {
    const { db, clock } = await store();
    let calls = 0;
    let release!: () => void;
    const gatewayAnswers = new Promise<void>((resolve) => (release = resolve));
    const burst = Array.from({ length: 30 }, () =>
      withCardAttempt({ db, clock }, { userId: 7, address: '203.0.113.9' }, (gate) =>
        gate.call(async () => {
          calls++;
          await gatewayAnswers;
          throw new Error('declined');
        }),
      ).catch((error: unknown) => error),
    );
    release();
    const errors = await Promise.all(burst);
    expect(calls).toBe(CARD_ATTEMPTS_PER_USER);
    const limited = errors.filter((e): e is DomainError => e instanceof DomainError && e.status === 429);
    expect(limited).toHaveLength(30 - CARD_ATTEMPTS_PER_USER);
    expect(limited[0]!.message).toBe('Too many card attempts. Please try again in 15 minutes.');
    clock.advance(CARD_ATTEMPT_WINDOW_MS);
    expect(await withCardAttempt({ db, clock }, { userId: 7, address: '203.0.113.9' }, (gate) => gate.call(async () => 'paid'))).toBe('paid');
  });
});
