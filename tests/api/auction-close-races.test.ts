import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, orders, payments, userProfiles } from '../../src/db/schema.ts';
import { closeDueAuctions, endRunning, offerSecondChance, PAYMENT_WINDOW_MS, payForAuction } from '../../src/domain/auctions/close.ts';
import { chargeBuyer } from '../../src/domain/auctions/payment.ts';
import type { PaymentGateway } from '../../src/domain/payments/gateway.ts';
import { auctionRows, auctionStore, type AuctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';

/*
 * Issue 34, item 5: the close job's moves check what their decision read. Another process's bid
 * or payment is put between the job's read and its update by calling the job's steps with the
 * row as it was read before that bid or payment committed.
 */

const MINUTE = 60_000;
const auctionOf = (ctx: AuctionStore) => ctx.db.select().from(auctions).where(eq(auctions.productId, ctx.product.id)).get()!;
const depsOf = (ctx: AuctionStore, gateway: PaymentGateway = ctx.gateway) => ({ db: ctx.db, clock: ctx.clock, gateway });
const ordersOf = (ctx: AuctionStore, userId: number) => ctx.db.select().from(orders).where(eq(orders.userId, userId)).all();
const chargedOf = (ctx: AuctionStore, userId: number) =>
  ctx.db
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .all()
    .filter((p) => p.status === 'captured');

/** Alice's $300 maximum leads; the auction ends 7 days after set-up. */
async function aliceLeading(ctx: AuctionStore) {
  expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
  const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
  expect((await placeBid(alice!.client, ctx.product.id, 300)).status).toBe(201);
  return { alice: alice!, bob: bob!, endsAt: auctionOf(ctx).endsAt };
}

/** A charge that waits for `release()`: the claim is committed, the money not yet moved. */
function heldCharges(gateway: PaymentGateway) {
  let release!: () => void;
  let started!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const charging = new Promise<void>((resolve) => (started = resolve));
  const held: PaymentGateway = Object.assign(Object.create(gateway) as PaymentGateway, {
    charge: async (input: Parameters<PaymentGateway['charge']>[0]) => {
      started();
      await gate;
      return gateway.charge(input);
    },
  });
  return { gateway: held, charging, release };
}

describe('a bid committed between the close job read and its update', () => {
  test('the outbid leader is not recorded as winner: the close runs again with the bid, and nobody pays above their maximum', async () => {
    const ctx = await auctionStore();
    const { alice, bob, endsAt } = await aliceLeading(ctx);
    ctx.clock.set(endsAt - 10 * MINUTE);
    const readByClose = auctionOf(ctx);
    // Another process: Bob's $400 takes the lead at a price above Alice's $300 (no soft close this early).
    expect((await placeBid(bob.client, ctx.product.id, 400)).status).toBe(201);
    expect(auctionOf(ctx).currentPriceCents).toBeGreaterThan(30_000);
    ctx.clock.set(endsAt);

    expect(endRunning(depsOf(ctx), readByClose, endsAt)).toBe(true);
    expect(auctionOf(ctx)).toMatchObject({ status: 'awaiting_payment', winnerId: bob.id });
    await closeDueAuctions(depsOf(ctx));

    const price = auctionOf(ctx).currentPriceCents!;
    expect(price).toBeLessThanOrEqual(40_000);
    expect(auctionOf(ctx)).toMatchObject({ status: 'ended', winnerId: bob.id });
    expect(chargedOf(ctx, alice.id)).toHaveLength(0);
    expect(ordersOf(ctx, alice.id)).toHaveLength(0);
    expect(chargedOf(ctx, bob.id).map((p) => p.amountCents)).toEqual([price + Math.round(price * 0.08)]);
  });

  test('a bid in the last seconds whose soft close moved the end: the auction keeps running, then closes with that bid', async () => {
    const ctx = await auctionStore();
    const { alice, bob, endsAt } = await aliceLeading(ctx);
    ctx.clock.set(endsAt - 1000);
    const readByClose = auctionOf(ctx);
    expect((await placeBid(bob.client, ctx.product.id, 400)).status).toBe(201);
    const extended = auctionOf(ctx).endsAt;
    expect(extended).toBeGreaterThan(endsAt);
    ctx.clock.set(endsAt);

    expect(endRunning(depsOf(ctx), readByClose, endsAt)).toBe(false);
    expect(auctionOf(ctx)).toMatchObject({ status: 'running', leaderId: bob.id, winnerId: null });

    ctx.clock.set(extended);
    await closeDueAuctions(depsOf(ctx));
    expect(auctionOf(ctx)).toMatchObject({ status: 'ended', winnerId: bob.id });
    expect(chargedOf(ctx, alice.id)).toHaveLength(0);
    expect(chargedOf(ctx, bob.id)).toHaveLength(1);
  });

  test('a first bid after a read that saw none: not ended unsold, the bidder wins', async () => {
    const ctx = await auctionStore();
    expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
    const [carol] = bidders(ctx, ['carol3']);
    const { endsAt } = auctionOf(ctx);
    ctx.clock.set(endsAt - 10 * MINUTE);
    const readByClose = auctionOf(ctx);
    expect((await placeBid(carol!.client, ctx.product.id, 150)).status).toBe(201);
    expect(endRunning(depsOf(ctx), readByClose, endsAt)).toBe(true);
    expect(auctionOf(ctx)).toMatchObject({ status: 'awaiting_payment', winnerId: carol!.id });
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(0);
  });
});

describe("the winner's Retry and the second-chance move race for the one held unit", () => {
  /** Bob's $200 is runner-up; Alice's card declined at the close; her 24 hours are nearly over. */
  async function declinedWinner(ctx: AuctionStore) {
    const { alice, bob, endsAt } = await aliceLeading(ctx);
    expect((await placeBid(bob.client, ctx.product.id, 200)).status).toBe(201);
    const card = (userId: number, outcome: string) =>
      ctx.db
        .update(userProfiles)
        .set({ gatewayCardId: `ccof:test-user${userId}.${outcome}.VISA.1111.12.2030` })
        .where(eq(userProfiles.userId, userId))
        .run();
    card(alice.id, 'declined');
    ctx.clock.set(endsAt + MINUTE);
    await closeDueAuctions(depsOf(ctx));
    expect(auctionOf(ctx)).toMatchObject({ status: 'awaiting_payment', winnerId: alice.id });
    card(alice.id, 'ok');
    const dueAt = auctionOf(ctx).paymentDueAt!;
    expect(dueAt).toBe(endsAt + MINUTE + PAYMENT_WINDOW_MS);
    ctx.clock.set(dueAt - 1000);
    return { alice, bob, dueAt };
  }

  test("the Retry's claim first: the second-chance move read before it misses, and only Alice's order takes the unit", async () => {
    const ctx = await auctionStore();
    const { alice, bob, dueAt } = await declinedWinner(ctx);
    const readByClose = auctionOf(ctx);
    const held = heldCharges(ctx.gateway);
    const retry = payForAuction(depsOf(ctx, held.gateway), alice.id, ctx.product.id);
    await held.charging;

    expect(offerSecondChance(depsOf(ctx), readByClose, dueAt)).toBe(false);
    expect(auctionOf(ctx)).toMatchObject({ status: 'awaiting_payment', winnerId: alice.id });
    // The job's next pass sees the charge under way and leaves it to finish.
    ctx.clock.set(dueAt);
    await closeDueAuctions(depsOf(ctx));
    expect(auctionOf(ctx)).toMatchObject({ status: 'awaiting_payment', winnerId: alice.id });

    held.release();
    await retry;
    expect(auctionOf(ctx)).toMatchObject({ status: 'ended', winnerId: alice.id });
    expect(chargedOf(ctx, alice.id)).toHaveLength(1);
    expect(ordersOf(ctx, bob.id)).toHaveLength(0);
    expect((await bob.client.post(`/api/products/${ctx.product.id}/auction/pay`, { json: {} })).status).toBe(409);
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(0);
  });

  test('the second-chance move first: the Retry is refused, and only Bob can pay', async () => {
    const ctx = await auctionStore();
    const { alice, bob, dueAt } = await declinedWinner(ctx);
    ctx.clock.set(dueAt);
    expect(offerSecondChance(depsOf(ctx), auctionOf(ctx), dueAt)).toBe(true);
    expect((await alice.client.post(`/api/products/${ctx.product.id}/auction/pay`, { json: {} })).status).toBe(409);
    expect(chargedOf(ctx, alice.id)).toHaveLength(0);

    expect((await bob.client.post(`/api/products/${ctx.product.id}/auction/pay`, { json: {} })).status).toBe(201);
    expect(auctionOf(ctx)).toMatchObject({ status: 'ended', winnerId: bob.id });
    expect(chargedOf(ctx, bob.id)).toHaveLength(1);
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(0);
  });

  test('a charge that read the auction inside the time to pay is refused at its claim once the time is over', async () => {
    const ctx = await auctionStore();
    const { alice, dueAt } = await declinedWinner(ctx);
    const readByRetry = auctionOf(ctx);
    ctx.clock.set(dueAt);
    await expect(chargeBuyer(depsOf(ctx), readByRetry, alice.id, readByRetry.currentPriceCents!)).rejects.toThrow(
      'This auction has nothing to pay for any more.',
    );
    expect(chargedOf(ctx, alice.id)).toHaveLength(0);
    expect(offerSecondChance(depsOf(ctx), auctionOf(ctx), dueAt)).toBe(true);
  });
});
