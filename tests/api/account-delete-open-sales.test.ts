import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, payments, teamMembers, teams, users } from '../../src/db/schema.ts';
import { quickShopper } from '../helpers/actors.ts';
import { seededApp, type TestApp } from '../helpers/app.ts';
import { auctionRows, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { holdRows, memberRows, startTeam, stockOf, teamProduct, teamRows } from '../helpers/teams.ts';

/*
 * Deleting an account ends what is open on it first (issue 34, item 4; flows/end-account.ts):
 * the team a shopper started is cancelled and its hold voided; an account with a bid in an
 * auction not over is kept (as eBay keeps one with open bids), with words naming the auctions;
 * a team hold in flight refuses. A refusal changes nothing; nothing is left holding money.
 */

const PASSWORD = 'first-pass';

/** A ready shopper (profile and card) who can also type a password. */
async function shopperWithPassword(ctx: TestApp, username: string) {
  const made = quickShopper(ctx, username);
  ctx.db
    .update(users)
    .set({ passwordHash: await ctx.passwords.hash(PASSWORD) })
    .where(eq(users.id, made.id))
    .run();
  return made;
}

const userRow = (ctx: TestApp, id: number) => ctx.db.select().from(users).where(eq(users.id, id)).get()!;

describe('deleting an account with a team buy open', () => {
  test('the starter of an open team: the team cancelled, the hold voided at the gateway, the unit back; nothing held for the account', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx, 5);
    const alice = await shopperWithPassword(ctx, 'alice');
    expect((await startTeam(alice.client, productId)).status).toBe(201);
    expect(stockOf(ctx, productId)).toBe(4);
    const response = await alice.client.post('/api/user/delete', { json: { password: PASSWORD } });
    expect(response.status).toBe(200);
    expect(teamRows(ctx).map((team) => team.status)).toEqual(['cancelled']);
    expect(memberRows(ctx).map((member) => member.status)).toEqual(['released']);
    expect(holdRows(ctx).map((row) => row.status)).toEqual(['voided']);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['CANCELED']);
    expect(stockOf(ctx, productId)).toBe(5);
    expect(userRow(ctx, alice.id).deletedAt).not.toBeNull();
  });

  test('a team hold still being asked for: 409 naming the team, nothing changed', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx, 5);
    const alice = await shopperWithPassword(ctx, 'alice');
    expect((await startTeam(alice.client, productId)).status).toBe(201);
    // As a lost answer leaves it: the team 'starting', the member's hold 'authorizing'.
    const [team] = teamRows(ctx);
    ctx.db.update(teams).set({ status: 'starting' }).where(eq(teams.id, team!.id)).run();
    ctx.db.update(teamMembers).set({ status: 'holding' }).where(eq(teamMembers.teamId, team!.id)).run();
    ctx.db.update(payments).set({ status: 'authorizing' }).run();
    const before = { teams: teamRows(ctx), members: memberRows(ctx), holds: holdRows(ctx), stock: stockOf(ctx, productId), user: userRow(ctx, alice.id) };
    const refused = await alice.client.post('/api/user/delete', { json: { password: PASSWORD } });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(`The hold on your card for a team buy is being confirmed (team ${team!.code}). Try again in a few minutes.`);
    expect({ teams: teamRows(ctx), members: memberRows(ctx), holds: holdRows(ctx), stock: stockOf(ctx, productId), user: userRow(ctx, alice.id) }).toEqual(
      before,
    );
  });
});

describe('deleting an account with bids', () => {
  async function running() {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const [alice, bob] = bidders(ctx, ['alice1', 'bob1']);
    for (const bidder of [alice!, bob!]) {
      ctx.db
        .update(users)
        .set({ passwordHash: await ctx.passwords.hash(PASSWORD) })
        .where(eq(users.id, bidder.id))
        .run();
    }
    expect((await placeBid(alice!.client, ctx.product.id, 20)).status).toBe(201);
    expect((await placeBid(bob!.client, ctx.product.id, 30)).status).toBe(201);
    return { ctx, leader: bob!, outbid: alice! };
  }

  test('the highest bidder: 409 naming the auction, nothing changed; once it is over, the account goes', async () => {
    const { ctx, leader } = await running();
    const before = { rows: auctionRows(ctx, ctx.product.id), user: userRow(ctx, leader.id) };
    const refused = await leader.client.post('/api/user/delete', { json: { password: PASSWORD } });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe('You are the highest bidder on Maison Lune One-off Frames: deletion is possible once those auctions end.');
    expect({ rows: auctionRows(ctx, ctx.product.id), user: userRow(ctx, leader.id) }).toEqual(before);
    ctx.db.update(auctions).set({ status: 'unsold' }).where(eq(auctions.productId, ctx.product.id)).run();
    expect((await leader.client.post('/api/user/delete', { json: { password: PASSWORD } })).status).toBe(200);
  });

  test('an outbid bidder (who may still be offered the item): 409 naming the auction', async () => {
    const { ctx, outbid } = await running();
    const refused = await outbid.client.post('/api/user/delete', { json: { password: PASSWORD } });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe('You have bids on Maison Lune One-off Frames: deletion is possible once those auctions end.');
    expect(userRow(ctx, outbid.id).deletedAt).toBeNull();
  });
});
