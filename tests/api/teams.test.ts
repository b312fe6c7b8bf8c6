import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { emailOutbox, products, userProfiles } from '../../src/db/schema.ts';
import { runTeamJobs } from '../../src/domain/promotions/teams-expiry.ts';
import { adminWithPin, completeProfile, quickShopper, signedInUser } from '../helpers/actors.ts';
import { seededApp, type TestApp } from '../helpers/app.ts';
import {
  holdRows,
  joinTeam,
  memberRows,
  moveAway,
  readTeam,
  snapshot,
  startTeam,
  stockOf,
  teamMails,
  teamNotes,
  teamOrders,
  teamProduct,
  teamRows,
} from '../helpers/teams.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * Half price with a friend (issue 29 item 1) through its API: start (the starter's card held for
 * half the price plus tax), read, join (both holds captured, one order each), every refusal with
 * nothing changed, and the expiry job (hold voided, unit back, starter told).
 */

const DAY = 24 * 60 * 60 * 1000;

async function started(ctx: TestApp, quantity = 5) {
  const productId = teamProduct(ctx, quantity);
  const alice = quickShopper(ctx, 'alice');
  const response = await startTeam(alice.client, productId);
  expect(response.status).toBe(201);
  const { code } = (await response.json()) as { code: string };
  return { productId, alice, code };
}

function declineCard(ctx: TestApp, userId: number) {
  ctx.db
    .update(userProfiles)
    .set({ gatewayCardId: `ccof:test-user${userId}.declined.VISA.1111.12.2030` })
    .where(eq(userProfiles.userId, userId))
    .run();
}

describe('POST /api/products/{id}/teams: starting a team', () => {
  test('201 {code, expiresAt}: half the price (rounded up) plus 8% tax held, not charged; one unit reserved; the starter told', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx, 5);
    const alice = quickShopper(ctx, 'alice');
    const response = await startTeam(alice.client, productId);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { code: string; expiresAt: string };
    expect(body.code).toMatch(/^[a-z2-9]{10}$/);
    expect(Date.parse(body.expiresAt)).toBe(ctx.clock.now() + DAY);
    const [team] = teamRows(ctx);
    expect(team).toMatchObject({ status: 'open', priceCents: 1250, taxCents: 100, holdCents: 1350 });
    const [hold] = holdRows(ctx);
    expect(hold).toMatchObject({ kind: 'team_authorization', status: 'authorized', amountCents: 1350 });
    expect(ctx.gateway.payments()).toEqual([expect.objectContaining({ status: 'APPROVED', amountCents: 1350 })]);
    expect(stockOf(ctx, productId)).toBe(4);
    expect(teamNotes(ctx, alice.id).map((n) => n.title)).toContain('Your team is open');
    expect(teamMails(ctx)).toHaveLength(1);
  });

  test('the same Idempotency-Key twice: one team, the first answer again', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx);
    const alice = quickShopper(ctx, 'alice');
    const headers = { 'idempotency-key': 'start-once' };
    const first = await alice.client.post(`/api/products/${productId}/teams`, { headers });
    const second = await alice.client.post(`/api/products/${productId}/teams`, { headers });
    expect(second.status).toBe(201);
    expect(await second.json()).toEqual(await first.json());
    expect(teamRows(ctx)).toHaveLength(1);
  });

  describe('refusals change nothing', () => {
    const cases: [string, (ctx: TestApp, productId: number) => Promise<Response>, number, string][] = [
      ['signed out', (ctx, id) => startTeam(ctx.client(), id), 401, 'Please log in'],
      ['unknown product', async (ctx) => startTeam(quickShopper(ctx, 'bob').client, 999999), 404, 'Product not found'],
      ['a product id that is not one', async (ctx) => startTeam(quickShopper(ctx, 'bob').client, 'abc'), 404, 'Product not found'],
      [
        'half price not ticked',
        async (ctx, id) => {
          ctx.db.update(products).set({ halfPriceEnabled: false }).where(eq(products.id, id)).run();
          return startTeam(quickShopper(ctx, 'bob').client, id);
        },
        409,
        'cannot be bought with a friend',
      ],
      ['sold out', async (ctx, id) => startTeam(quickShopper(ctx, 'bob').client, id), 409, 'sold out'],
      ['no card on file', async (ctx, id) => startTeam(signedInUser(ctx, 'bob').client, id), 402, 'Add a payment card'],
      [
        'incomplete profile',
        async (ctx, id) => {
          const bob = quickShopper(ctx, 'bob');
          ctx.db.update(userProfiles).set({ phone: null }).where(eq(userProfiles.userId, bob.id)).run();
          return startTeam(bob.client, id);
        },
        403,
        'complete your profile',
      ],
      [
        'address outside 92651',
        async (ctx, id) => {
          const bob = quickShopper(ctx, 'bob');
          moveAway(ctx, bob.id);
          return startTeam(bob.client, id);
        },
        422,
        'Local Delivery Only',
      ],
    ];
    test.each(cases)('%s', async (_label, send, status, message) => {
      const ctx = await seededApp();
      const productId = teamProduct(ctx, _label === 'sold out' ? 0 : 5);
      const before = snapshot(ctx, productId);
      const response = await send(ctx, productId);
      expect(response.status).toBe(status);
      const body = (await response.json()) as { message: string; code?: string };
      expect(body.message).toContain(message);
      if (status === 402) expect(body.code).toBe('PAYMENT_METHOD_REQUIRED');
      expect(snapshot(ctx, productId)).toEqual(before);
      expect(ctx.gateway.payments()).toHaveLength(0);
    });
  });

  test('a second open team for the same product: 409 naming the first, nothing held', async () => {
    const ctx = await seededApp();
    const { productId, alice, code } = await started(ctx);
    const before = snapshot(ctx, productId);
    const response = await startTeam(alice.client, productId);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ message: expect.stringContaining('already have an open team'), teamCode: code });
    expect(snapshot(ctx, productId)).toEqual(before);
  });

  test('a declined card: 402, the unit back on the shelf, no team to join', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx, 3);
    const alice = quickShopper(ctx, 'alice');
    declineCard(ctx, alice.id);
    const response = await startTeam(alice.client, productId);
    expect(response.status).toBe(402);
    expect(((await response.json()) as { message: string }).message).toContain('declined');
    expect(stockOf(ctx, productId)).toBe(3);
    expect(teamRows(ctx).map((t) => t.status)).toEqual(['cancelled']);
    expect((await (await ctx.client().get(`/api/products/${productId}/teams`)).json()).teams).toEqual([]);
  });
});

describe('GET /api/teams/{code}', () => {
  test('product, price per member, masked members, status, time, whether the viewer is in it', async () => {
    const ctx = await seededApp();
    const { alice, code, productId } = await started(ctx);
    const mine = (await (await readTeam(alice.client, code)).json()) as Record<string, unknown>;
    expect(mine).toMatchObject({
      code,
      status: 'open',
      pricePerMember: 12.5,
      taxPerMember: 1,
      totalPerMember: 13.5,
      starterName: 'a***e',
      members: [{ name: 'a***e', role: 'starter' }],
      viewerIsMember: true,
      product: expect.objectContaining({ id: productId, price: 24.99 }),
    });
    const visitor = (await (await readTeam(ctx.client(), code)).json()) as Record<string, unknown>;
    expect(visitor.viewerIsMember).toBe(false);
    expect(JSON.stringify(visitor)).not.toContain('alice');
  });

  test('an unknown code: 404 with a clear message', async () => {
    const ctx = await seededApp();
    for (const code of ['abcdefghjk', 'nope', 'ABCDEFGHJK']) {
      const response = await readTeam(ctx.client(), code);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { message: string }).message).toContain('does not exist');
    }
  });

  test('the product lists its open teams (masked names, end time)', async () => {
    const ctx = await seededApp();
    const { code, productId } = await started(ctx);
    const list = await (await ctx.client().get(`/api/products/${productId}/teams`)).json();
    expect(list).toMatchObject({ pricePerMember: 12.5, totalPerMember: 13.5, teams: [{ code, starterName: 'a***e', expiresAt: ctx.clock.now() + DAY }] });
  });
});

describe('POST /api/teams/{code}/join', () => {
  test('both holds captured, each member their own paid order (team, local, free delivery), both told', async () => {
    const ctx = await seededApp();
    const { alice, code, productId } = await started(ctx);
    const bob = quickShopper(ctx, 'bob');
    const response = await joinTeam(bob.client, code);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { status: string; orderId: number };
    expect(body.status).toBe('filled');
    expect(teamRows(ctx)[0]!.status).toBe('filled');
    expect(ctx.gateway.payments().map((p) => [p.status, p.amountCents])).toEqual([
      ['COMPLETED', 1350],
      ['COMPLETED', 1350],
    ]);
    const orders = teamOrders(ctx);
    expect(orders.map((o) => o.order.userId).sort()).toEqual([alice.id, bob.id].sort());
    for (const { order, item } of orders) {
      expect(order).toMatchObject({ status: 'processing', totalCents: 1350, subtotalCents: 1250, taxCents: 100, shippingCents: 0, shippingMethod: 'local' });
      expect(item).toMatchObject({ productId, quantity: 1, priceCents: 1250, purchaseType: 'team' });
    }
    expect(orders.find((o) => o.order.userId === bob.id)!.order.id).toBe(body.orderId);
    expect(stockOf(ctx, productId)).toBe(3);
    for (const user of [alice, bob]) expect(teamNotes(ctx, user.id).map((n) => n.title)).toContain('Your team is full');
    // Each member: the receipt of their own order and the 'team is full' e-mail.
    const mails = ctx.db.select().from(emailOutbox).all();
    for (const user of [alice, bob]) {
      const own = mails.filter((m) => m.userId === user.id).map((m) => m.subject);
      expect(own).toContain('Your team is full');
      expect(own.some((subject) => /^Your order #\d+ is confirmed$/.test(subject))).toBe(true);
    }
    // Each member's order page reads it as paid.
    const page = await bob.client.get(`/api/orders/${body.orderId}`);
    expect(page.status).toBe(200);
  });

  describe('refusals change nothing', () => {
    const cases: [string, (ctx: TestApp, team: Awaited<ReturnType<typeof started>>) => Promise<Response>, number, string][] = [
      ['signed out', (ctx, t) => joinTeam(ctx.client(), t.code), 401, 'Please log in'],
      ['unknown code', async (ctx) => joinTeam(quickShopper(ctx, 'bob').client, 'abcdefghjk'), 404, 'does not exist'],
      ['own team', async (_ctx, t) => joinTeam(t.alice.client, t.code), 409, 'You cannot join your own team.'],
      ['no card on file', async (ctx, t) => joinTeam(signedInUser(ctx, 'bob').client, t.code), 402, 'Add a payment card'],
      [
        'address outside 92651',
        async (ctx, t) => {
          const bob = quickShopper(ctx, 'bob');
          moveAway(ctx, bob.id);
          return joinTeam(bob.client, t.code);
        },
        422,
        'Local Delivery Only',
      ],
      [
        'past its 24 hours (the job has not run yet)',
        async (ctx, t) => {
          ctx.clock.advance(DAY);
          return joinTeam(quickShopper(ctx, 'bob').client, t.code);
        },
        409,
        'expired',
      ],
      ['the last unit is already reserved', async (ctx, t) => joinTeam(quickShopper(ctx, 'bob').client, t.code), 409, 'sold out'],
    ];
    test.each(cases)('%s', async (_label, send, status, message) => {
      const ctx = await seededApp();
      const team = await started(ctx, _label === 'the last unit is already reserved' ? 1 : 5);
      const paymentsBefore = ctx.gateway.payments().length;
      const before = snapshot(ctx, team.productId);
      const response = await send(ctx, team);
      expect(response.status).toBe(status);
      expect(((await response.json()) as { message: string }).message).toContain(message);
      expect(snapshot(ctx, team.productId)).toEqual(before);
      expect(ctx.gateway.payments()).toHaveLength(paymentsBefore);
      expect(teamRows(ctx)[0]!.status).toBe('open');
    });
  });

  test('a full team: 409, nothing held', async () => {
    const ctx = await seededApp();
    const team = await started(ctx);
    expect((await joinTeam(quickShopper(ctx, 'bob').client, team.code)).status).toBe(201);
    const before = snapshot(ctx, team.productId);
    const response = await joinTeam(quickShopper(ctx, 'carol').client, team.code);
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toContain('already full');
    expect(snapshot(ctx, team.productId)).toEqual(before);
  });

  test("a joiner's declined card: 402, their unit back, the team open again for someone else", async () => {
    const ctx = await seededApp();
    const team = await started(ctx, 5);
    const bob = quickShopper(ctx, 'bob');
    declineCard(ctx, bob.id);
    expect((await joinTeam(bob.client, team.code)).status).toBe(402);
    expect(stockOf(ctx, team.productId)).toBe(4);
    expect(teamRows(ctx)[0]!.status).toBe('open');
    const carol = quickShopper(ctx, 'carol');
    expect((await joinTeam(carol.client, team.code)).status).toBe(201);
    expect(teamOrders(ctx)).toHaveLength(2);
  });
});

describe('the teams job: expiry', () => {
  test('an open team past 24 hours: the hold voided, the unit back, the starter told; once only', async () => {
    const ctx = await seededApp();
    const { alice, productId, code } = await started(ctx, 5);
    const deps = { db: ctx.db, clock: ctx.clock, gateway: ctx.gateway };
    ctx.clock.advance(DAY - 1000);
    expect(await runTeamJobs(deps)).toEqual({ expired: 0, finished: 0 });
    ctx.clock.advance(1000);
    expect(await runTeamJobs(deps)).toEqual({ expired: 1, finished: 0 });
    expect(await runTeamJobs(deps)).toEqual({ expired: 0, finished: 0 });
    expect(teamRows(ctx)[0]!.status).toBe('expired');
    expect(holdRows(ctx)[0]!.status).toBe('voided');
    expect(ctx.gateway.payments()[0]!.status).toBe('CANCELED');
    expect(stockOf(ctx, productId)).toBe(5);
    expect(memberRows(ctx)[0]!.status).toBe('released');
    expect(teamNotes(ctx, alice.id).map((n) => n.title)).toContain('Your team has expired');
    expect(teamMails(ctx).map((m) => m.subject)).toEqual(['Your team is open', 'Your team has expired']);
    const after = (await (await readTeam(ctx.client(), code)).json()) as { status: string };
    expect(after.status).toBe('expired');
    // The starter may start a new one.
    completeProfile(ctx, alice.id);
    expect((await startTeam(alice.client, productId)).status).toBe(201);
  });
});

test('the expiry job in slices: 20 teams on two products, every unit back to its product, every starter told once, every hold voided', async () => {
  const ctx = await seededApp();
  const first = teamProduct(ctx, 10);
  const second = ctx.db
    .select()
    .from(products)
    .where(eq(products.halfPriceEnabled, true))
    .all()
    .find((p) => p.id !== first)!.id;
  setShelf(ctx.db, second, 10);
  const starters = Array.from({ length: 20 }, (_, i) => quickShopper(ctx, `starter${i}`));
  for (const [i, starter] of starters.entries()) expect((await startTeam(starter.client, i % 2 ? second : first)).status).toBe(201);
  expect([stockOf(ctx, first), stockOf(ctx, second)]).toEqual([0, 0]);
  ctx.clock.advance(DAY);
  const deps = { db: ctx.db, clock: ctx.clock, gateway: ctx.gateway };
  expect(await runTeamJobs(deps)).toEqual({ expired: 20, finished: 0 });
  expect([stockOf(ctx, first), stockOf(ctx, second)]).toEqual([10, 10]);
  expect(holdRows(ctx).every((row) => row.status === 'voided')).toBe(true);
  for (const starter of starters) expect(teamNotes(ctx, starter.id).filter((n) => n.title === 'Your team has expired')).toHaveLength(1);
  expect(await runTeamJobs(deps)).toEqual({ expired: 0, finished: 0 });
});

test('a team order cancelled by the admin is refunded as any paid order (the captured hold is its charge), its unit back on the shelf', async () => {
  const ctx = await seededApp();
  const { code, productId } = await started(ctx);
  const bob = quickShopper(ctx, 'bob');
  const { orderId } = (await (await joinTeam(bob.client, code)).json()) as { orderId: number };
  expect(stockOf(ctx, productId)).toBe(3);
  const admin = await adminWithPin(ctx);
  const response = await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'canceled' } });
  expect(response.status).toBe(200);
  expect(holdRows(ctx).find((row) => row.kind === 'refund')).toMatchObject({ status: 'refunded', amountCents: 1350, orderId });
  expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
  // Bob's own unit goes back on the shelf, as a cancelled Buy Now's does.
  expect(stockOf(ctx, productId)).toBe(4);
});
