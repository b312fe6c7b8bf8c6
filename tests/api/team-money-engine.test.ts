import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { notifications, payments, teamMembers } from '../../src/db/schema.ts';
import { runTeamJobs } from '../../src/domain/promotions/teams-expiry.ts';
import type { TestClient } from '../helpers/app.ts';
import { squareStoresOfFile, type SquareStore } from '../helpers/square-app.ts';
import { joinTeam, memberRows, startTeam, stockOf, teamNotes, teamOrders, teamProduct, teamRows } from '../helpers/teams.ts';

/*
 * Issue 34, items 1 and 2, for team buys on the one money engine: the admin's Check and Mark
 * failed on a team hold run the team's handlers (not the $1 game's), and a team capture that
 * gives up keeps what it pays for until the admin's Retry finishes the purchase.
 */

const MINUTE = 60_000;
const PAYMENTS = { method: 'POST', path: '/v2/payments' };
const LIST = { method: 'GET', path: '/v2/payments' };

const openStore = squareStoresOfFile();

type Item = { paymentId: number; kind: string; problem: string; actions: string[]; what: string; todo: string; username: string; amount: number };

async function attention(admin: TestClient): Promise<Item[]> {
  const response = await admin.get('/api/admin/payments/attention');
  expect(response.status).toBe(200);
  return response.json();
}

const resolve = (admin: TestClient, id: number, json: unknown) => admin.post(`/api/admin/payments/${id}/resolve`, { json });
const completeOf = (squareId: string) => ({ method: 'POST', path: new RegExp(`^/v2/payments/${squareId}/complete$`) });
const lookUpOf = (squareId: string) => ({ method: 'GET', path: new RegExp(`^/v2/payments/${squareId}$`) });
const holdOf = (s: SquareStore, userId: number) => {
  const member = memberRows(s).find((m) => m.userId === userId)!;
  return s.db.select().from(payments).where(eq(payments.id, member.paymentId!)).get()!;
};
const paidNotes = (s: SquareStore, userId: number) => teamNotes(s, userId).filter((n) => n.eventKey?.endsWith(':filled') || n.type === 'payment_success');

/** A team start whose answer (and Square's look-up) was lost, three minutes ago. */
async function lostStart(options: { taken: boolean }) {
  const s = await openStore();
  const productId = teamProduct(s, 5);
  const alice = await s.shopper('alice');
  s.fake.failNext({ status: 500, afterProcessing: options.taken }, PAYMENTS);
  s.fake.failNext({ status: 503 }, LIST);
  expect((await startTeam(alice.client, productId)).status).toBe(502);
  expect(teamRows(s)[0]!.status).toBe('starting');
  expect(stockOf(s, productId)).toBe(4);
  s.clock.advance(3 * MINUTE);
  return { s, productId, alice, admin: s.admin() };
}

/** A full team whose starter's capture Square refuses every time (the joiner's goes through). */
async function teamWithFailingCapture(fault: { status: number; afterProcessing?: boolean }, lookUps: 'fail' | 'answer') {
  const s = await openStore();
  const productId = teamProduct(s, 5);
  const alice = await s.shopper('alice');
  const started = await startTeam(alice.client, productId);
  expect(started.status).toBe(201);
  const { code } = (await started.json()) as { code: string };
  const bob = await s.shopper('bob');
  const starterSquareId = s.fake.payments()[0]!.id;
  for (let i = 0; i < 20; i++) {
    s.fake.failNext(fault, completeOf(starterSquareId));
    if (lookUps === 'fail') s.fake.failNext({ status: 503 }, lookUpOf(starterSquareId));
  }
  expect((await joinTeam(bob.client, code)).status).toBe(201);
  expect(teamRows(s)[0]!.status).toBe('capturing');
  return { s, productId, alice, bob, code };
}

/** Ticks (reconciler and teams job) until the starter's hold gave up. */
async function untilGivenUp(s: SquareStore, aliceId: number) {
  for (let i = 0; i < 10 && holdOf(s, aliceId).status === 'capturing'; i++) {
    s.clock.advance(70 * MINUTE);
    await s.tick();
    await runTeamJobs(s.games);
  }
  expect(holdOf(s, aliceId).status).toBe('capture_failed');
}

describe.concurrent('team holds on the one money engine', () => {
  test("a team start whose answer was lost: the admin's Mark failed cancels the team, its unit comes back, a new start is allowed", async () => {
    const { s, productId, alice, admin } = await lostStart({ taken: false });
    const [item] = await attention(admin);
    expect(item).toMatchObject({ kind: 'team_authorization', problem: 'unconfirmed_hold', actions: ['check', 'mark_failed'], username: 'alice' });
    expect(item!.what).toContain('@alice');
    expect(item!.what).toContain('$13.50');
    // Before the fix, a new start was refused 'already open' for ever.
    expect((await startTeam(alice.client, productId)).status).toBe(409);
    expect((await resolve(admin, item!.paymentId, { action: 'mark_failed' })).status).toBe(200);
    expect(teamRows(s)[0]!.status).toBe('cancelled');
    expect(stockOf(s, productId)).toBe(5);
    expect(memberRows(s)[0]!.status).toBe('released');
    expect(await attention(admin)).toEqual([]);
    expect((await startTeam(alice.client, productId)).status).toBe(201);
    expect(stockOf(s, productId)).toBe(4);
  });

  test("a team start whose answer was lost and Square never took it: the admin's Check ends it the same way", async () => {
    const { s, productId, admin } = await lostStart({ taken: false });
    const [item] = await attention(admin);
    expect((await resolve(admin, item!.paymentId, { action: 'check' })).status).toBe(200);
    expect(teamRows(s)[0]!.status).toBe('cancelled');
    expect(stockOf(s, productId)).toBe(5);
  });

  test("a team start Square did take: Mark failed is refused, the admin's Check opens the team and tells the starter", async () => {
    const { s, productId, alice, admin } = await lostStart({ taken: true });
    const [item] = await attention(admin);
    const refused = await resolve(admin, item!.paymentId, { action: 'mark_failed' });
    expect(refused.status).toBe(409);
    expect((await resolve(admin, item!.paymentId, { action: 'check' })).status).toBe(200);
    expect(teamRows(s)[0]!.status).toBe('open');
    expect(stockOf(s, productId)).toBe(4);
    expect(teamNotes(s, alice.id).map((n) => n.title)).toContain('Your team is open');
  });

  test('a team capture refused 5 times stays under Needs attention with its place and unit; Retry makes both orders and tells both', async () => {
    const { s, productId, alice, bob } = await teamWithFailingCapture({ status: 400 }, 'answer');
    s.admin('watcher');
    await untilGivenUp(s, alice.id);
    expect(holdOf(s, bob.id).status).toBe('captured');
    // Nothing given back, nothing finished without its order.
    expect(teamRows(s)[0]!.status).toBe('capturing');
    expect(memberRows(s).map((m) => m.status)).toEqual(['held', 'held']);
    expect(stockOf(s, productId)).toBe(3);
    expect(teamOrders(s)).toHaveLength(0);
    s.fake.reset();
    const admin = s.admin();
    const [item] = await attention(admin);
    expect(item).toMatchObject({ problem: 'capture_failed', actions: ['retry', 'mark_failed'], username: 'alice', amount: 13.5 });
    expect(item!.todo).toContain('Retry');
    const alerts = s.db.select().from(notifications).where(eq(notifications.type, 'admin_alert')).all();
    expect(alerts.some((a) => a.message.includes('@alice') && a.message.includes('Retry'))).toBe(true);
    expect((await resolve(admin, item!.paymentId, { action: 'dismiss' })).status).toBe(409);
    expect((await resolve(admin, item!.paymentId, { action: 'retry' })).status).toBe(200);
    expect(teamRows(s)[0]!.status).toBe('filled');
    expect(teamOrders(s)).toHaveLength(2);
    expect(memberRows(s).map((m) => m.status)).toEqual(['paid', 'paid']);
    expect(stockOf(s, productId)).toBe(3);
    for (const member of [alice, bob]) expect(paidNotes(s, member.id).length).toBeGreaterThanOrEqual(2);
    expect(await attention(admin)).toEqual([]);
  });

  test('a team capture that went through at Square but whose answer and look-ups were lost ends as a paid purchase after the reconciler', async () => {
    const s = await openStore();
    const productId = teamProduct(s, 5);
    const alice = await s.shopper('alice');
    const { code } = (await (await startTeam(alice.client, productId)).json()) as { code: string };
    const bob = await s.shopper('bob');
    const starterSquareId = s.fake.payments()[0]!.id;
    s.fake.failNext({ status: 500, afterProcessing: true }, completeOf(starterSquareId));
    // Both look-ups lost: the gateway's own after the failed capture, and the engine's.
    s.fake.failNext({ status: 503 }, lookUpOf(starterSquareId));
    s.fake.failNext({ status: 503 }, lookUpOf(starterSquareId));
    expect((await joinTeam(bob.client, code)).status).toBe(201);
    expect(s.fake.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(teamOrders(s)).toHaveLength(0);
    s.clock.advance(2 * MINUTE);
    // The reconciler alone: the engine's captured handler finishes the team.
    await s.tick();
    expect(teamRows(s)[0]!.status).toBe('filled');
    expect(teamOrders(s)).toHaveLength(2);
    expect(stockOf(s, productId)).toBe(3);
  });

  test('a capture taken at Square but unconfirmed for 5 tries: Mark failed is refused, Retry finishes the purchase', async () => {
    const { s, alice } = await teamWithFailingCapture({ status: 500, afterProcessing: true }, 'fail');
    await untilGivenUp(s, alice.id);
    s.fake.reset();
    const admin = s.admin();
    const [item] = await attention(admin);
    const refused = await resolve(admin, item!.paymentId, { action: 'mark_failed' });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toContain('Retry');
    expect((await resolve(admin, item!.paymentId, { action: 'retry' })).status).toBe(200);
    expect(teamRows(s)[0]!.status).toBe('filled');
    expect(teamOrders(s)).toHaveLength(2);
    expect(
      s.db
        .select()
        .from(teamMembers)
        .all()
        .every((m) => m.orderId !== null),
    ).toBe(true);
  });

  test("Mark failed on a capture that gave up (Square never captured it) releases that hold: the other member's order is made", async () => {
    const { s, productId, alice, bob } = await teamWithFailingCapture({ status: 400 }, 'answer');
    await untilGivenUp(s, alice.id);
    s.fake.reset();
    const admin = s.admin();
    const [item] = await attention(admin);
    expect((await resolve(admin, item!.paymentId, { action: 'mark_failed' })).status).toBe(200);
    expect(holdOf(s, alice.id).status).toBe('voided');
    expect(teamRows(s)[0]!.status).toBe('filled');
    expect(teamOrders(s).map((o) => o.order.userId)).toEqual([bob.id]);
    expect(stockOf(s, productId)).toBe(4);
  });
});
