import { describe, expect, test } from 'bun:test';
import { hostname } from 'node:os';
import { type Db, openMigratedDatabase } from '../../src/db/client.ts';
import { users } from '../../src/db/schema.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { processGone, renewProcessLease, PROCESS_LEASE_MS } from '../../src/domain/operations/process-lease.ts';
import {
  type Claimant,
  claimIdempotencyKey,
  findGuestKey,
  noteIdempotentOrder,
  recordIdempotentAnswer,
  underIdempotencyKey,
} from '../../src/domain/payments/idempotency.ts';

/*
 * Issue 34, item 9: an Idempotency-Key row names the process running its request, and a retry
 * takes the key over as soon as that process is gone, whatever the (manual) game clock says.
 * Item 7: a guest's key is one per route, whoever sends it.
 */

const scope = 'POST /api/orders';

async function store(): Promise<{ db: Db; userId: (name: string) => number }> {
  const db = await openMigratedDatabase();
  const userId = (name: string) => db.insert(users).values({ username: name, passwordHash: 'x', createdAt: 0 }).returning({ id: users.id }).get().id;
  return { db, userId };
}

const alive = new Set<string>();
const claimant = (owner: string, extra: Partial<Claimant> = {}): Claimant => ({ owner, ownerGone: (other) => !alive.has(other), ...extra });

describe('a key whose process died is taken over at once', () => {
  test('while its process lives, a retry waits (in progress); once it is gone, the retry takes it over, under a clock that never moved', async () => {
    const { db, userId } = await store();
    const clock = new ManualClock(1_000);
    const id = { userId: userId('ann'), scope, key: 'k-1' };
    alive.add('a');
    expect(claimIdempotencyKey(db, clock, id, 'h', claimant('a'))).toEqual({ kind: 'claimed' });
    expect(claimIdempotencyKey(db, clock, id, 'h', claimant('b'))).toEqual({ kind: 'in-progress' });
    alive.delete('a');
    expect(claimIdempotencyKey(db, clock, id, 'h', claimant('b'))).toEqual({ kind: 'claimed', takenOver: { from: 'a', orderId: null } });
    // The dead one's late answer (it was not dead after all) does not overwrite the new owner's.
    recordIdempotentAnswer(db, id, 'a', 201, '{"late":true}');
    recordIdempotentAnswer(db, id, 'b', 201, '{"id":7}');
    expect(claimIdempotencyKey(db, clock, id, 'h', claimant('c'))).toEqual({ kind: 'answered', status: 201, body: '{"id":7}' });
    expect(claimIdempotencyKey(db, clock, id, 'other body', claimant('c'))).toEqual({ kind: 'different-request' });
  });

  test('the order a request placed is written on its key in the same transaction, and a takeover learns it', async () => {
    const { db, userId } = await store();
    const clock = new ManualClock(1_000);
    const id = { userId: userId('bea'), scope, key: 'k-2' };
    claimIdempotencyKey(db, clock, id, 'h', claimant('a'));
    underIdempotencyKey(id, 'a', () => db.transaction((tx) => noteIdempotentOrder(tx, 41)));
    // Outside a request nothing is written, and a second order of the same request is not its own.
    db.transaction((tx) => noteIdempotentOrder(tx, 99));
    underIdempotencyKey(id, 'a', () => db.transaction((tx) => noteIdempotentOrder(tx, 42)));
    expect(claimIdempotencyKey(db, clock, id, 'h', claimant('b'))).toEqual({ kind: 'claimed', takenOver: { from: 'a', orderId: 41 } });
  });

  test('a row from before owners were recorded keeps the old rule: taken over 2 minutes after it was claimed', async () => {
    const { db, userId } = await store();
    const clock = new ManualClock(1_000);
    const id = { userId: userId('cid'), scope, key: 'k-3' };
    db.$client
      .query('insert into idempotency_keys (user_id, scope, key, request_hash, created_at) values (?, ?, ?, ?, ?)')
      .run(id.userId, scope, id.key, 'h', 1_000);
    expect(claimIdempotencyKey(db, clock, id, 'h', claimant('b'))).toEqual({ kind: 'in-progress' });
    clock.advance(2 * 60_000 + 1);
    expect(claimIdempotencyKey(db, clock, id, 'h', claimant('b')).kind).toBe('claimed');
  });
});

describe("a guest's key is the route's alone", () => {
  test('two first tries with two new guests: the second is told to act as the first guest; the key is found by route and key', async () => {
    const { db, userId } = await store();
    const clock = new ManualClock(1_000);
    const [first, second] = [userId('visitor:1'), userId('visitor:2')];
    const guest = { madeGuest: true };
    alive.add('a');
    expect(claimIdempotencyKey(db, clock, { userId: first, scope, key: 'g' }, 'h', claimant('a', { guest })).kind).toBe('claimed');
    expect(claimIdempotencyKey(db, clock, { userId: second, scope, key: 'g' }, 'h', claimant('a', { guest }))).toEqual({ kind: 'other-guest', userId: first });
    expect(claimIdempotencyKey(db, clock, { userId: second, scope, key: 'g' }, 'other', claimant('a', { guest }))).toEqual({ kind: 'different-request' });
    expect(findGuestKey(db, scope, 'g')).toEqual({ userId: first, requestHash: 'h', madeGuest: true });
    expect(findGuestKey(db, 'POST /api/checkout', 'g')).toBeUndefined();
    // A signed-in user's key is theirs: the same key elsewhere is not found as a guest's.
    claimIdempotencyKey(db, clock, { userId: userId('dee'), scope, key: 's' }, 'h', claimant('a'));
    expect(findGuestKey(db, scope, 's')).toBeUndefined();
  });
});

describe('process liveness', () => {
  test('a live heartbeat row means alive; a lapsed or missing one, or a pid that exited on this machine, means gone', async () => {
    const { db } = await store();
    const now = Date.now();
    const elsewhere = 'other-host:123:abcd';
    expect(processGone(db, elsewhere, now)).toBe(true);
    renewProcessLease(db, elsewhere, now);
    expect(processGone(db, elsewhere, now + PROCESS_LEASE_MS - 1)).toBe(false);
    expect(processGone(db, elsewhere, now + PROCESS_LEASE_MS)).toBe(true);

    const exited = Bun.spawn(['true']);
    await exited.exited;
    const here = `${hostname()}:${exited.pid}:abcd`;
    renewProcessLease(db, here, now);
    expect(processGone(db, here, now)).toBe(true);
    const self = `${hostname()}:${process.pid}:abcd`;
    renewProcessLease(db, self, now);
    expect(processGone(db, self, now)).toBe(false);
  });
});
