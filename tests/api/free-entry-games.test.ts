import { describe, expect, test } from 'bun:test';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { postForm, afterRedirect } from '../helpers/admin-tools.ts';
import { adminWithPin } from '../helpers/actors.ts';
import { book, DAY, END, enter, gameRow, gameStore, holdsOf, notesOf, pick, picks, player, playRow, prizeLines, productBy, START } from '../helpers/games.ts';
import { buyOne, entryRows, flagFree, joinFree } from '../helpers/free-entries.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * Buy one, play free (issue 29): a game with a free entry in it. Settlement captures the $1 holds
 * and has nothing to capture for the free entry; a game that does not go ahead gives the free
 * entry back (usable a week more at least) where it releases the holds.
 */

async function aliceWithFreeEntry(ctx: Awaited<ReturnType<typeof gameStore>>) {
  const alice = await player(ctx, 'alice');
  // Bought on a product that has no game in these tests: the book's game stays the only one.
  const tee = productBy(ctx, 'Patagonia');
  flagFree(ctx.db, tee.id);
  await buyOne(alice.client, tee);
  return alice;
}

describe('a game with a free entry', () => {
  test('settles: the $1 hold is captured, the free entry needs nothing, the winner claims the prize for $1 as always', async () => {
    const ctx = await gameStore();
    const alice = await aliceWithFreeEntry(ctx);
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const play = await pick(alice, productId, picks(ctx, 0));
    expect((await joinFree(alice.client, productId)).status).toBe(201);
    ctx.clock.advance(1_000);
    await enter(bob, productId, picks(ctx, 5));
    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([play.gameId]);
    ctx.clock.set(END);
    const gatewayCallsBefore = ctx.gateway.payments().map((p) => p.status);
    expect((await runGameJobs(ctx.deps)).settled).toEqual([play.gameId]);
    // Exactly one hold in the game, Bob's, and it was captured; Alice's entry stays used.
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['captured']);
    expect(ctx.gateway.payments().filter((p) => p.status === 'COMPLETED' && p.amountCents === 100)).toHaveLength(1);
    expect(gatewayCallsBefore.length).toBe(ctx.gateway.payments().length);
    expect(entryRows(ctx.db, alice.id)[0]).toMatchObject({ status: 'used', playId: play.id });
    const game = gameRow(ctx, play.gameId);
    expect(game.status).toBe('completed');
    expect(prizeLines(ctx)).toEqual([expect.objectContaining({ priceCents: 100, gameId: play.gameId })]);
    // The game's public record and its admin row read fine with an entry that has no payment.
    expect((await ctx.client().get(`/api/games/${play.gameId}`)).status).toBe(200);
    expect((await ctx.client().get(`/games/${play.gameId}`)).status).toBe(200);
    expect(playRow(ctx, play.id).score).not.toBeNull();
  });

  test('a game that does not fill in 6 days: the hold is voided, the free entry is given back for a week at least', async () => {
    const ctx = await gameStore();
    const alice = await aliceWithFreeEntry(ctx);
    const productId = book(ctx).id;
    const play = await pick(alice, productId, picks(ctx, 0));
    expect((await joinFree(alice.client, productId)).status).toBe(201);
    const expiresAt = entryRows(ctx.db, alice.id)[0]!.expiresAt;
    ctx.clock.advance(6 * DAY + 1);
    expect((await runGameJobs(ctx.deps)).canceled).toEqual([play.gameId]);
    expect(holdsOf(ctx)).toHaveLength(0);
    const [entry] = entryRows(ctx.db, alice.id);
    expect(entry).toMatchObject({ status: 'available', playId: null, usedAt: null });
    expect(entry!.expiresAt).toBe(Math.max(expiresAt, ctx.clock.now() + 7 * DAY));
    expect(notesOf(ctx, alice.id, 'game_ended').map((n) => n.title)).toContain('Free entry given back');
    expect(playRow(ctx, play.id).status).toBe('void');
  });

  test("the admin's Cancel game: Bob's hold is voided, Alice's free entry is hers again, and usable at once", async () => {
    const ctx = await gameStore();
    const alice = await aliceWithFreeEntry(ctx);
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const play = await pick(alice, productId, picks(ctx, 0));
    expect((await joinFree(alice.client, productId)).status).toBe(201);
    await enter(bob, productId, picks(ctx, 5));
    const admin = await adminWithPin(ctx);
    const { toast } = await afterRedirect(admin, await postForm(admin, `/admin/games/${play.gameId}/cancel`));
    expect(toast?.title).toBe('Game canceled');
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['voided']);
    expect(entryRows(ctx.db, alice.id)[0]!.status).toBe('available');
    await pick(alice, productId, picks(ctx, 0));
    expect((await joinFree(alice.client, productId)).status).toBe(201);
  });

  test('an entry whose order was canceled while its game waited comes back withdrawn, not available', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const tee = productBy(ctx, 'Patagonia');
    flagFree(ctx.db, tee.id);
    const orderId = await buyOne(alice.client, tee);
    const productId = book(ctx).id;
    await pick(alice, productId, picks(ctx, 0));
    expect((await joinFree(alice.client, productId)).status).toBe(201);
    const admin = await adminWithPin(ctx);
    expect((await admin.post(`/api/admin/orders/${orderId}/status`, { json: { status: 'canceled' } })).status).toBe(200);
    expect(entryRows(ctx.db, alice.id)[0]!.status).toBe('used');
    ctx.clock.advance(6 * DAY + 1);
    await runGameJobs(ctx.deps);
    expect(entryRows(ctx.db, alice.id)[0]).toMatchObject({ status: 'withdrawn', playId: null });
    expect(notesOf(ctx, alice.id, 'game_ended').map((n) => n.title)).not.toContain('Free entry given back');
  });

  test('the product sold out before its start: the game is canceled and the free entry given back', async () => {
    const ctx = await gameStore();
    const alice = await aliceWithFreeEntry(ctx);
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const play = await pick(alice, productId, picks(ctx, 0));
    expect((await joinFree(alice.client, productId)).status).toBe(201);
    await enter(bob, productId, picks(ctx, 5));
    setShelf(ctx.db, productId, 0);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    expect(gameRow(ctx, play.gameId).status).toBe('canceled');
    expect(entryRows(ctx.db, alice.id)[0]!.status).toBe('available');
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['voided']);
  });
});
