import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { auctions, emailOutbox, notifications, orders, userProfiles } from '../../src/db/schema.ts';
import { closeDueAuctions, PAYMENT_WINDOW_MS } from '../../src/domain/auctions/close.ts';
import { OUTSIDE_AREA_AT_CLOSE } from '../../src/domain/auctions/payment.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { auctionStore, type AuctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';

/*
 * A winner whose address left 92651 after bidding: the price covers free local delivery only, so
 * they are not charged; they are told why and have the 24 hours a declined card gets to put an
 * address in the area back and pay (Retry), then the runner-up gets the second chance.
 */

const DAY = 24 * 60 * 60 * 1000;
const auctionOf = (ctx: AuctionStore) => ctx.db.select().from(auctions).where(eq(auctions.productId, ctx.product.id)).get()!;
const close = (ctx: AuctionStore) => closeDueAuctions({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway });
const moveTo = (ctx: AuctionStore, userId: number, postalCode: string, city: string) =>
  ctx.db
    .update(userProfiles)
    .set({ address: { ...COMPLETE_PROFILE.address, city, postalCode } })
    .where(eq(userProfiles.userId, userId))
    .run();
const toldOf = (ctx: AuctionStore, userId: number) =>
  ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, 'auction_ended')))
    .all();
const pay = (client: { post: (path: string, o: { json: unknown }) => Promise<Response> }, productId: number) =>
  client.post(`/api/products/${productId}/auction/pay`, { json: {} });

/** Alice ($300) wins over Bob ($200), then moves to Beverly Hills before the end. */
async function movedWinner(ctx: AuctionStore) {
  expect((await putAuction(ctx.admin, ctx.product.id, { startingBid: 100 })).status).toBe(200);
  const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
  expect((await placeBid(alice!.client, ctx.product.id, 300)).status).toBe(201);
  expect((await placeBid(bob!.client, ctx.product.id, 200)).status).toBe(201);
  moveTo(ctx, alice!.id, '90210', 'Beverly Hills');
  ctx.clock.advance(7 * DAY + 60_000);
  return { alice: alice!, bob: bob! };
}

describe('a winner outside 92651 at the close', () => {
  test('not charged, told why once (bell and e-mail), Retry refused until the address is back in the area, then paid once', async () => {
    const ctx = await auctionStore();
    const { alice } = await movedWinner(ctx);
    await close(ctx);
    await close(ctx);
    expect(ctx.gateway.payments()).toEqual([]);
    expect(ctx.db.select().from(orders).all()).toEqual([]);
    expect(auctionOf(ctx)).toMatchObject({ status: 'awaiting_payment', winnerId: alice.id, stockReserved: true });
    const told = toldOf(ctx, alice.id);
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain(OUTSIDE_AREA_AT_CLOSE);
    expect(told[0]!.message).toContain('Retry');
    expect(told[0]!.actionUrl).toBe('/profile?tab=personal');
    const mail = ctx.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, alice.id), eq(emailOutbox.kind, 'auction_result')))
      .all();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('update your address');

    const refused = await pay(alice.client, ctx.product.id);
    expect(refused.status).toBe(422);
    expect((await refused.json()).message).toContain(OUTSIDE_AREA_AT_CLOSE);
    expect(ctx.gateway.payments()).toEqual([]);
    expect(ctx.db.select().from(orders).all()).toEqual([]);

    moveTo(ctx, alice.id, '92651', 'Laguna Beach');
    expect((await pay(alice.client, ctx.product.id)).status).toBe(201);
    await close(ctx);
    expect(ctx.gateway.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
    expect(auctionOf(ctx).status).toBe('ended');
  });

  test('once the address is back in 92651, the next run of the close job charges the winner, once', async () => {
    const ctx = await auctionStore();
    const { alice } = await movedWinner(ctx);
    await close(ctx);
    expect(ctx.gateway.payments()).toEqual([]);
    moveTo(ctx, alice.id, '92651', 'Laguna Beach');
    await close(ctx);
    await close(ctx);
    expect(ctx.gateway.payments().filter((p) => p.status === 'COMPLETED')).toHaveLength(1);
    expect(auctionOf(ctx)).toMatchObject({ status: 'ended', winnerId: alice.id });
    expect(toldOf(ctx, alice.id).map((n) => n.title)).toContain('You won Maison Lune One-off Frames');
  });

  test('still outside after 24 hours: the runner-up is offered the item, as after a decline', async () => {
    const ctx = await auctionStore();
    const { bob } = await movedWinner(ctx);
    await close(ctx);
    ctx.clock.advance(PAYMENT_WINDOW_MS);
    await close(ctx);
    expect(auctionOf(ctx)).toMatchObject({ status: 'second_chance', winnerId: bob.id, currentPriceCents: 20_250, offerCents: 20_000 });
    expect(ctx.gateway.payments()).toEqual([]);
  });
});
