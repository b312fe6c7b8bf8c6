import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { auctions, emailOutbox, notifications, userProfiles } from '../../src/db/schema.ts';
import { signedInUser } from '../helpers/actors.ts';
import { type AuctionStore, auctionRows, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';

const MINUTE = 60_000;

async function running(setup: Record<string, unknown> = { startingBid: 10 }): Promise<AuctionStore> {
  const ctx = await auctionStore();
  expect((await putAuction(ctx.admin, ctx.product.id, setup)).status).toBe(200);
  return ctx;
}

const viewAs = async (client: { get(path: string): Promise<Response> }, productId: number) => (await client.get(`/api/products/${productId}/auction`)).json();

describe('POST /api/products/{id}/bids: proxy bidding', () => {
  test('the store bids for each bidder up to their maximum; the history shows masked names', async () => {
    const ctx = await running();
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    const first = await placeBid(alice!.client, ctx.product.id, 30);
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ leading: true, currentPrice: 10, bidCount: 1 });

    const second = await placeBid(bob!.client, ctx.product.id, 20);
    expect(second.status).toBe(201);
    expect(await second.json()).toMatchObject({ leading: false, currentPrice: 21, bidCount: 3 });

    const seenByAlice = await viewAs(alice!.client, ctx.product.id);
    expect(seenByAlice).toMatchObject({ status: 'running', currentPrice: 21, minimumBid: 22, bidCount: 3, leading: true });
    expect(seenByAlice.bids.map((b: { bidder: string; amount: number }) => [b.bidder, b.amount])).toEqual([
      ['a***1', 21],
      ['b***2', 20],
      ['a***1', 10],
    ]);
    expect((await viewAs(bob!.client, ctx.product.id)).leading).toBe(false);
    // Nobody learns a maximum: alice's 30 appears nowhere.
    expect(JSON.stringify(await viewAs(ctx.client(), ctx.product.id))).not.toContain('30');
  });

  test('an overtaken leader is told on the bell and by e-mail, with a link back', async () => {
    const ctx = await running();
    const [alice, carol] = bidders(ctx, ['alice1', 'carol3']);
    await placeBid(alice!.client, ctx.product.id, 30);
    const over = await placeBid(carol!.client, ctx.product.id, 50);
    expect(await over.json()).toMatchObject({ leading: true, currentPrice: 31 });
    const told = ctx.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, alice!.id), eq(notifications.type, 'auction_outbid')))
      .all();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ title: "You've been outbid", actionUrl: `/product/${ctx.product.id}` });
    const mail = ctx.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.userId, alice!.id), eq(emailOutbox.kind, 'auction_outbid')))
      .all();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.textBody).toContain(`/product/${ctx.product.id}`);
    expect(ctx.db.select().from(notifications).where(eq(notifications.userId, carol!.id)).all()).toHaveLength(0);
  });

  test('a leader raises their own maximum without raising the price; a raise not above it is refused', async () => {
    const ctx = await running();
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    await placeBid(alice!.client, ctx.product.id, 30);
    await placeBid(bob!.client, ctx.product.id, 20);
    const raise = await placeBid(alice!.client, ctx.product.id, 80);
    expect(await raise.json()).toMatchObject({ leading: true, currentPrice: 21 });
    const before = auctionRows(ctx, ctx.product.id);
    const same = await placeBid(alice!.client, ctx.product.id, 80);
    expect(same.status).toBe(409);
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
  });

  test('a bid below the current price plus one increment is refused with the minimum shown, and nothing is written', async () => {
    const ctx = await running();
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    await placeBid(alice!.client, ctx.product.id, 30);
    const before = auctionRows(ctx, ctx.product.id);
    const low = await placeBid(bob!.client, ctx.product.id, 10.5);
    expect(low.status).toBe(409);
    expect(await low.json()).toMatchObject({ message: 'Bid at least $11.00', fields: { maxAmount: 'Bid at least $11.00' }, minimumBid: 11 });
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
  });

  test('the reserve: "not met" is told without its amount, and a maximum at the reserve meets it', async () => {
    const ctx = await running({ startingBid: 10, reservePrice: 250 });
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    await placeBid(alice!.client, ctx.product.id, 100);
    const shown = await viewAs(ctx.client(), ctx.product.id);
    expect(shown).toMatchObject({ hasReserve: true, reserveMet: false, currentPrice: 10 });
    expect(JSON.stringify(shown)).not.toContain('250');
    await placeBid(bob!.client, ctx.product.id, 300);
    expect(await viewAs(ctx.client(), ctx.product.id)).toMatchObject({ reserveMet: true, currentPrice: 250 });
  });
});

describe('soft close, on the server clock', () => {
  test('a bid that changes the price with 1:59 left moves the end to 2 minutes after it; a refused bid does not', async () => {
    const ctx = await running();
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    await placeBid(alice!.client, ctx.product.id, 30);
    const end = ctx.db.select().from(auctions).get()!.endsAt;

    ctx.clock.set(end - 2 * MINUTE + 1_000);
    const refused = await placeBid(bob!.client, ctx.product.id, 5);
    expect(refused.status).toBe(409);
    expect(ctx.db.select().from(auctions).get()!.endsAt).toBe(end);

    const extends_ = await placeBid(bob!.client, ctx.product.id, 20);
    expect(extends_.status).toBe(201);
    const bidAt = ctx.clock.now();
    expect(ctx.db.select().from(auctions).get()!.endsAt).toBe(bidAt + 2 * MINUTE);
    expect((await viewAs(ctx.client(), ctx.product.id)).endsAt).toBe(new Date(bidAt + 2 * MINUTE).toISOString());
  });

  test('a bid with more than 2 minutes left leaves the end alone; at the end bids are refused', async () => {
    const ctx = await running();
    const [alice, bob] = bidders(ctx, ['alice1', 'bob22']);
    const end = ctx.db.select().from(auctions).get()!.endsAt;
    ctx.clock.set(end - 3 * MINUTE);
    await placeBid(alice!.client, ctx.product.id, 30);
    expect(ctx.db.select().from(auctions).get()!.endsAt).toBe(end);
    ctx.clock.set(end);
    const before = auctionRows(ctx, ctx.product.id);
    const late = await placeBid(bob!.client, ctx.product.id, 50);
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe('This auction has ended.');
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
  });
});

describe('refusals: 4xx with a message, and no row written', () => {
  test('amounts that are not whole cents, out of range, NaN or text', async () => {
    const ctx = await running();
    const [alice] = bidders(ctx, ['alice1']);
    const before = auctionRows(ctx, ctx.product.id);
    const cases: [unknown, string][] = [
      ['25', 'Enter your maximum bid in dollars, such as 25.00'],
      ['NaN', 'Enter your maximum bid in dollars, such as 25.00'],
      [null, 'Enter your maximum bid in dollars, such as 25.00'],
      [undefined, 'Enter your maximum bid in dollars, such as 25.00'],
      [0, 'Your maximum bid must be more than $0'],
      [-5, 'Your maximum bid must be more than $0'],
      [100_000.01, 'Your maximum bid can be at most $100,000'],
      [1e308, 'Your maximum bid can be at most $100,000'],
      [10.001, 'Your maximum bid must be in whole cents'],
    ];
    for (const [amount, message] of cases) {
      const response = await placeBid(alice!.client, ctx.product.id, amount);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message, fields: { maxAmount: message } });
    }
    const notJson = await alice!.client.post(`/api/products/${ctx.product.id}/bids`, { body: 'maxAmount=5', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
  });

  test('the shop admin, a visitor, an incomplete profile, no card on file', async () => {
    const ctx = await running();
    const before = auctionRows(ctx, ctx.product.id);
    const admin = await placeBid(ctx.admin, ctx.product.id, 20);
    expect(admin.status).toBe(403);
    expect((await admin.json()).message).toBe("The shop's admins cannot bid in its auctions.");
    expect((await placeBid(ctx.client(), ctx.product.id, 20)).status).toBe(401);
    const [noPhone] = bidders(ctx, ['nophone1']);
    ctx.db.update(userProfiles).set({ phone: null }).where(eq(userProfiles.userId, noPhone!.id)).run();
    const incomplete = await placeBid(noPhone!.client, ctx.product.id, 20);
    expect(incomplete.status).toBe(403);
    expect((await incomplete.json()).code).toBe('PROFILE_INCOMPLETE');
    const [noCard] = bidders(ctx, ['nocard1']);
    ctx.db.update(userProfiles).set({ gatewayCardId: null }).where(eq(userProfiles.userId, noCard!.id)).run();
    const card = await placeBid(noCard!.client, ctx.product.id, 20);
    // A new account with nothing on file is asked for the card first, as a play is.
    expect((await placeBid(signedInUser(ctx, 'newbie1').client, ctx.product.id, 20)).status).toBe(402);
    expect(card.status).toBe(402);
    expect(await card.json()).toMatchObject({ message: 'Add a payment card to your profile to bid.', code: 'PAYMENT_METHOD_REQUIRED' });
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
  });

  test('a bidder whose address is outside 92651: the item is delivered locally only', async () => {
    const ctx = await running();
    const [faraway] = bidders(ctx, ['faraway1']);
    const profile = ctx.db.select().from(userProfiles).where(eq(userProfiles.userId, faraway!.id)).get()!;
    ctx.db
      .update(userProfiles)
      .set({ address: { ...profile.address!, city: 'Beverly Hills', postalCode: '90210' } })
      .where(eq(userProfiles.userId, faraway!.id))
      .run();
    const before = auctionRows(ctx, ctx.product.id);
    const refused = await placeBid(faraway!.client, ctx.product.id, 20);
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ code: 'OUTSIDE_LOCAL_DELIVERY', message: expect.stringContaining('Local Delivery Only:') });
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
  });

  test('a product with no auction, an unknown product, a cancelled auction', async () => {
    const ctx = await auctionStore();
    const [alice] = bidders(ctx, ['alice1']);
    const none = await placeBid(alice!.client, ctx.product.id, 20);
    expect(none.status).toBe(409);
    expect((await none.json()).message).toBe('This product has no auction running.');
    expect((await ctx.client().get(`/api/products/${ctx.product.id}/auction`)).status).toBe(404);
    expect((await placeBid(alice!.client, 999_999, 20)).status).toBe(404);
    expect((await ctx.client().get('/api/products/999999/auction')).status).toBe(404);
    expect((await ctx.client().get('/api/products/x1/auction')).status).toBe(404);
    expect(auctionRows(ctx, ctx.product.id)).toMatchObject({ maximums: [], bids: [] });
  });

  test('a burst of bids is rate-limited per user', async () => {
    const ctx = await running();
    const [alice] = bidders(ctx, ['alice1']);
    let amount = 10;
    for (let i = 0; i < 10; i++) expect((await placeBid(alice!.client, ctx.product.id, amount++ * 10)).status).toBe(201);
    const before = auctionRows(ctx, ctx.product.id);
    const limited = await placeBid(alice!.client, ctx.product.id, 5_000);
    expect(limited.status).toBe(429);
    expect((await limited.json()).message).toStartWith('Too many bids at once.');
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
    ctx.clock.advance(MINUTE);
    expect((await placeBid(alice!.client, ctx.product.id, 5_000)).status).toBe(201);
  });

  test('the same Idempotency-Key twice places one bid and answers the first answer again', async () => {
    const ctx = await running();
    const [alice] = bidders(ctx, ['alice1']);
    const headers = { 'idempotency-key': 'bid-1' };
    const first = await placeBid(alice!.client, ctx.product.id, 30, headers);
    const again = await placeBid(alice!.client, ctx.product.id, 30, headers);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(auctionRows(ctx, ctx.product.id).maximums).toHaveLength(1);
  });
});
