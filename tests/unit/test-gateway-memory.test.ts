import { describe, expect, test } from 'bun:test';
import { createTestGateway } from '../../src/domain/payments/test-gateway.ts';

/*
 * The built-in test gateway keeps its payments in memory; a long run in test mode (the soak: 55,000
 * payments in 10 minutes) grew the store's heap without end. It now remembers a bounded number of
 * each kind, the oldest forgotten first, as a restart would forget them.
 */
describe('the test gateway remembers a bounded number of payments', () => {
  test('past the bound the oldest payment, key and reference are forgotten; the newest still answer', async () => {
    const gateway = createTestGateway({ memory: 5 });
    const made = [];
    for (let n = 1; n <= 8; n++) made.push(await gateway.charge({ sourceId: 'cnon:card-nonce-ok', amountCents: 100 * n, idempotencyKey: `key-${n}` }));
    expect(gateway.payments().map((p) => p.amountCents)).toEqual([400, 500, 600, 700, 800]);
    const found = await gateway.findPayments(['key-1', 'key-8'], 0);
    expect(found.has('key-1')).toBe(false);
    expect(found.get('key-8')?.id).toBe(made[7]!.id);
    // The newest key still replays its payment instead of charging again.
    const again = await gateway.charge({ sourceId: 'cnon:card-nonce-ok', amountCents: 800, idempotencyKey: 'key-8' });
    expect(again.id).toBe(made[7]!.id);
    expect(gateway.payments()).toHaveLength(5);
  });
});
