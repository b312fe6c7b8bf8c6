import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { auctions, emailOutbox, games, notifications, orders, payments, products, teams as teamsTable } from '../../src/db/schema.ts';
import { adminWithPin, quickShopper } from '../helpers/actors.ts';
import { seededApp } from '../helpers/app.ts';
import { runTeamJobs } from '../../src/domain/promotions/teams-expiry.ts';
import { toastOf } from '../helpers/html.ts';
import { auctionRows, auctionStore, bidders, placeBid, putAuction } from '../helpers/auctions.ts';
import { book, enter, gameStore, picks, player, START } from '../helpers/games.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { type SquareStore, squareStoresOfFile } from '../helpers/square-app.ts';
import { holdRows, joinTeam, memberRows, startTeam, stockOf, teamMails, teamNotes, teamProduct, teamRows } from '../helpers/teams.ts';

/*
 * Deleting a product ends what is open on it first (issue 34, item 4; flows/end-product.ts): an
 * open team is cancelled (the hold voided at Square, the member told, the unit back), a running
 * auction withdrawn (bidders told, nobody charged), a waiting game canceled (holds voided); money
 * in flight (a team being paid for or being joined, a game being played) refuses with a 409 that
 * names it, and nothing changes.
 */

const MINUTE = 60_000;
const PAYMENTS = { method: 'POST', path: '/v2/payments' };
const LIST = { method: 'GET', path: '/v2/payments' };
const COMPLETE = { method: 'POST', path: /\/complete$/ };
const CANCEL = { method: 'POST', path: /\/cancel$/ };

const openStore = squareStoresOfFile();

async function openTeam(s: SquareStore) {
  const productId = teamProduct(s, 5);
  const alice = await s.shopper('alice');
  const response = await startTeam(alice.client, productId);
  expect(response.status).toBe(201);
  const { code } = (await response.json()) as { code: string };
  return { productId, alice, code };
}

const productRow = (ctx: { db: SquareStore['db'] }, id: number) => ctx.db.select().from(products).where(eq(products.id, id)).get();

/** Every row a refused delete must leave as it was. */
function everything(s: SquareStore, productId: number) {
  return { product: productRow(s, productId), teams: teamRows(s), members: memberRows(s), holds: holdRows(s), square: s.fake.payments().map((p) => p.status) };
}

describe.concurrent('deleting a product with a team buy on it (fake Square)', () => {
  test('an open team: cancelled, the hold voided at Square, the starter told, the unit back; the product archived with its team kept', async () => {
    const s = await openStore();
    const { productId, alice, code } = await openTeam(s);
    expect(stockOf(s, productId)).toBe(4);
    const response = await s.admin().request('DELETE', `/api/products/${productId}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ archived: true });
    await s.fake.waitForProcessed(CANCEL);
    expect(s.fake.payments().map((p) => p.status)).toEqual(['CANCELED']);
    expect(holdRows(s).map((row) => row.status)).toEqual(['voided']);
    expect(teamRows(s)).toEqual([expect.objectContaining({ code, status: 'cancelled' })]);
    expect(memberRows(s).map((member) => member.status)).toEqual(['released']);
    expect(stockOf(s, productId)).toBe(5);
    expect(productRow(s, productId)!.archivedAt).not.toBeNull();
    const told = teamNotes(s, alice.id).find((note) => note.title === 'Your team was cancelled');
    expect(told?.message).toContain('The $13.50 hold on your card is released: you were not charged.');
    expect(teamMails(s).map((mail) => mail.subject)).toContain('Your team was cancelled');
  });

  test('a team being paid for (capturing): 409 naming it, nothing changed; the admin form says the same', async () => {
    const s = await openStore();
    const { productId, code } = await openTeam(s);
    const bob = await s.shopper('bob');
    s.fake.failNext({ status: 500 }, COMPLETE);
    s.fake.failNext({ status: 503 }, { method: 'GET', path: /^\/v2\/payments\/.+/ });
    expect((await joinTeam(bob.client, code)).status).toBe(201);
    expect(teamRows(s)[0]!.status).toBe('capturing');
    const before = everything(s, productId);
    const admin = s.admin();
    const refused = await admin.request('DELETE', `/api/products/${productId}`);
    expect(refused.status).toBe(409);
    const words = `This product has a team buy being paid for (team ${code}). Try again in a few minutes.`;
    expect((await refused.json()).message).toBe(words);
    expect(everything(s, productId)).toEqual(before);

    const posted = await admin.post(`/admin/products/${productId}/delete`);
    expect(posted.status).toBe(303);
    const toast = toastOf(await (await admin.get(posted.headers.get('location')!)).text());
    expect(toast).toEqual({ title: 'Deletion failed', description: words, variant: 'destructive' });
    expect(everything(s, productId)).toEqual(before);
  });

  test("a team whose joiner's hold is still being confirmed: 409 naming it, nothing changed", async () => {
    const s = await openStore();
    const { productId, code } = await openTeam(s);
    const bob = await s.shopper('bob');
    s.fake.failNext({ status: 500 }, PAYMENTS);
    s.fake.failNext({ status: 503 }, LIST);
    expect((await joinTeam(bob.client, code)).status).toBe(502);
    expect(teamRows(s)[0]!.status).toBe('joining');
    const before = everything(s, productId);
    const refused = await s.admin().request('DELETE', `/api/products/${productId}`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(`This product has a team buy whose card hold is being confirmed (team ${code}). Try again in a few minutes.`);
    expect(everything(s, productId)).toEqual(before);
    // Once the reconciler settled it (the team open again), the delete ends the team.
    s.clock.advance(3 * MINUTE);
    await s.tick();
    expect(teamRows(s)[0]!.status).toBe('open');
    expect((await s.admin('boss2').request('DELETE', `/api/products/${productId}`)).status).toBe(200);
    expect(teamRows(s)[0]!.status).toBe('cancelled');
    expect(stockOf(s, productId)).toBe(5);
  });
});

describe('deleting a product with an auction or a game on it', () => {
  test('a running auction with bids: withdrawn, every bidder told, nobody charged, the unit back; bids kept with the archived product', async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const [alice, bob] = bidders(ctx, ['alice1', 'bob1']);
    expect((await placeBid(alice!.client, ctx.product.id, 20)).status).toBe(201);
    expect((await placeBid(bob!.client, ctx.product.id, 30)).status).toBe(201);
    expect(auctionRows(ctx, ctx.product.id).quantity).toBe(0);

    const response = await ctx.admin.request('DELETE', `/api/products/${ctx.product.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ archived: true });
    const rows = auctionRows(ctx, ctx.product.id);
    expect(rows.auctions).toEqual([expect.objectContaining({ status: 'cancelled', stockReserved: false })]);
    expect(rows.quantity).toBe(1);
    expect(rows.bids.length).toBeGreaterThan(0);
    for (const bidder of [alice!, bob!]) {
      const note = ctx.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, bidder.id))
        .all()
        .find((n) => n.title === 'Auction ended early');
      expect(note?.message).toBe(
        'The shop ended the auction for Maison Lune One-off Frames early: the item was withdrawn from sale, so nobody wins it and nobody is charged.',
      );
    }
    expect(ctx.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'auction_result')).all()).toHaveLength(2);
    expect(ctx.db.select().from(payments).all()).toEqual([]);
    expect(ctx.db.select().from(orders).all()).toEqual([]);
    // A withdrawn auction takes no more bids.
    expect((await placeBid(alice!.client, ctx.product.id, 50)).status).toBeGreaterThanOrEqual(400);
  });

  test("an auction waiting for its winner's payment: 409 naming it, nothing changed", async () => {
    const ctx = await auctionStore();
    await putAuction(ctx.admin, ctx.product.id, { startingBid: 10 });
    const [alice] = bidders(ctx, ['alice1']);
    expect((await placeBid(alice!.client, ctx.product.id, 20)).status).toBe(201);
    ctx.db.update(auctions).set({ status: 'awaiting_payment', winnerId: alice!.id }).where(eq(auctions.productId, ctx.product.id)).run();
    const before = auctionRows(ctx, ctx.product.id);
    const refused = await ctx.admin.request('DELETE', `/api/products/${ctx.product.id}`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(
      `This product has an auction waiting for its winner's payment (auction #${before.auctions[0]!.id}). It can be deleted once that auction is paid or over.`,
    );
    expect(auctionRows(ctx, ctx.product.id)).toEqual(before);
    expect(productRow(ctx, ctx.product.id)!.archivedAt).toBeNull();
  });

  test('a waiting game: canceled by the games rule, the $1 hold voided, the player told', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    const admin = await adminWithPin(ctx);
    const response = await admin.request('DELETE', `/api/products/${productId}`);
    expect(response.status).toBe(200);
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()!.status).toBe('canceled');
    expect(
      ctx.db
        .select()
        .from(payments)
        .all()
        .map((row) => row.status),
    ).toEqual(['voided']);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['CANCELED']);
    const told = ctx.db.select().from(notifications).where(eq(notifications.userId, alice.id)).all();
    expect(told.find((n) => n.title === 'Game canceled')?.message).toContain('withdrew');
  });

  test('a game being played: 409 naming it, nothing changed', async () => {
    const ctx = await gameStore();
    const [alice, bob] = [await player(ctx, 'alice'), await player(ctx, 'bob')];
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    await enter(bob, productId, picks(ctx, 5));
    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
    const before = { product: productRow(ctx, productId), payments: ctx.db.select().from(payments).all() };
    const admin = await adminWithPin(ctx);
    const refused = await admin.request('DELETE', `/api/products/${productId}`);
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toBe(`This product has a game being played (game #${gameId}). It can be deleted once the game ends.`);
    expect({ product: productRow(ctx, productId), payments: ctx.db.select().from(payments).all() }).toEqual(before);
  });
});

describe('what the admin sees, and the records kept', () => {
  test('the confirmation page says what ends first, or why the product cannot go now', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx, 5);
    expect((await startTeam(quickShopper(ctx, 'alice').client, productId)).status).toBe(201);
    const admin = await adminWithPin(ctx);
    const page = await (await admin.get(`/admin/products/${productId}/delete`)).text();
    expect(page).toContain('What is open on it ends first:');
    expect(page).toContain('1 open team buy cancelled: holds released, members told.');
    ctx.db.update(teamsTable).set({ status: 'capturing' }).run();
    const refusing = await (await admin.get(`/admin/products/${productId}/delete`)).text();
    expect(refusing).toContain(`This product has a team buy being paid for (team ${teamRows(ctx)[0]!.code}). Try again in a few minutes.`);
  });

  test('a product whose only team expired is archived, not deleted: the team and its released hold stay on record', async () => {
    const ctx = await seededApp();
    const productId = teamProduct(ctx, 5);
    expect((await startTeam(quickShopper(ctx, 'alice').client, productId)).status).toBe(201);
    ctx.clock.advance(24 * 60 * MINUTE);
    expect(await runTeamJobs({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway })).toEqual({ expired: 1, finished: 0 });
    const response = await (await adminWithPin(ctx)).request('DELETE', `/api/products/${productId}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ archived: true });
    expect(productRow(ctx, productId)!.archivedAt).not.toBeNull();
    expect(teamRows(ctx).map((team) => team.status)).toEqual(['expired']);
    expect(memberRows(ctx)).toHaveLength(1);
    expect(holdRows(ctx).map((row) => row.status)).toEqual(['voided']);
  });
});
