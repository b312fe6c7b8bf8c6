import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { emailOutbox, games, notifications, plays } from '../../src/db/schema.ts';
import { bootstrapAdmin } from '../../src/domain/accounts/bootstrap-admin.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { expireUnclaimedPrizes } from '../../src/domain/games/prizes.ts';
import { PRIZE_KEEP_MS } from '../../src/domain/games/schedule.ts';
import { TEST_PIN } from '../helpers/app.ts';
import { book, DAY, END, enter, filledBookGame, gameStore, type GameStore, picks, player, postPayment, postPlay, START } from '../helpers/games.ts';
import { all, attribute, textOf } from '../helpers/html.ts';
import { afterRedirect, postForm } from '../helpers/admin-tools.ts';
import { sizedProduct } from '../helpers/variants.ts';

/*
 * Issue 38: a game is for one size. Where a game of a product sold in several sizes is named
 * (the admin's Games tab and its cancel step, the prize's reminder and return, the product page's
 * competition panel), its size is named too, in the order lines' words (shared/size-label.ts);
 * a one-size product reads as before.
 */

/** A $2 tee (two players fill a game) in M and L, playable. */
const classicTee = (ctx: GameStore) => sizedProduct(ctx.db, { M: 2, L: 3 }, { brand: 'Classic', model: 'Tee', priceCents: 200, playEnabled: true });

/** Two players fill the tee's game of one size (its variant); its id. */
async function filledTeeGame(ctx: GameStore, productId: number, variantId: number) {
  const [dana, eli] = [await player(ctx, 'dana'), await player(ctx, 'eli')];
  let gameId = 0;
  for (const [who, from] of [
    [dana, 0],
    [eli, 5],
  ] as const) {
    const picked = await postPlay(who, { productId, variantId, influencerIds: picks(ctx, from) });
    expect(picked.status).toBe(201);
    gameId = ((await picked.json()) as { gameId: number }).gameId;
    expect((await postPayment(who, { productId, variantId, amount: 1, type: 'play' })).status).toBe(201);
  }
  return gameId;
}

async function signedInAdmin(ctx: GameStore) {
  await bootstrapAdmin(ctx);
  const admin = ctx.client();
  expect((await admin.post('/api/login', { json: { username: 'admin', password: 'admin-secret' } })).status).toBe(200);
  expect((await admin.post('/api/admin/pin', { json: { pin: TEST_PIN } })).status).toBe(200);
  return admin;
}

const winnerOf = (ctx: GameStore, gameId: number) => {
  const game = ctx.db.select().from(games).where(eq(games.id, gameId)).get()!;
  return ctx.db.select().from(plays).where(eq(plays.id, game.winnerPlayId!)).get()!.userId;
};
const noteOf = (ctx: GameStore, userId: number, title: string) =>
  ctx.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.title, title)))
    .get()?.message;
const mailOf = (ctx: GameStore, userId: number, kind: 'prize_reminder' | 'prize_returned') =>
  ctx.db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.userId, userId), eq(emailOutbox.kind, kind)))
    .get()?.textBody;

describe('a game names its size', () => {
  test("the admin's Games tab names the size beside a sized product, the cancel step too; a book's game reads as before", async () => {
    const ctx = await gameStore();
    const admin = await signedInAdmin(ctx);
    const { productId, variants } = classicTee(ctx);
    const teeGame = await filledTeeGame(ctx, productId, variants.L!);
    const { gameId: bookGame } = await filledBookGame(ctx);

    const html = await (await admin.get('/admin?tab=games', { headers: { accept: 'text/html' } })).text();
    const rows = new Map(all(html, 'li[data-game-id]').map((row) => [Number(row.getAttribute('data-game-id')), textOf(row)]));
    expect(rows.get(teeGame)).toContain(`Game #${teeGame} · Classic Tee · Size L`);
    expect(rows.get(bookGame)).toContain(`Game #${bookGame} · ${book(ctx).brand} ${book(ctx).model}`);
    expect(rows.get(bookGame)).not.toContain('Size');

    const cancel = await (await admin.get(`/admin/games/${teeGame}/cancel`, { headers: { accept: 'text/html' } })).text();
    expect(textOf(cancel)).toContain('Classic Tee · Size L');

    // Canceled, each player is told which size's game ended; the book's players as before.
    for (const gameId of [teeGame, bookGame])
      expect((await afterRedirect(admin, await postForm(admin, `/admin/games/${gameId}/cancel`))).toast?.title).toBe('Game canceled');
    const told = (gameId: number) =>
      ctx.db
        .select({ message: notifications.message })
        .from(notifications)
        .innerJoin(plays, eq(plays.userId, notifications.userId))
        .where(and(eq(plays.gameId, gameId), eq(notifications.title, 'Game canceled')))
        .all()
        .map((note) => note.message);
    expect(told(teeGame)).toEqual(Array(2).fill('The store canceled the game for Classic in size L. Your $1 hold was released; nothing was charged.'));
    expect(told(bookGame)).toEqual(Array(2).fill(`The store canceled the game for ${book(ctx).brand}. Your $1 hold was released; nothing was charged.`));
  });

  test('the prize reminder and the return to stock name the size won, in the notification and the e-mail; a one-size prize reads as before', async () => {
    const ctx = await gameStore();
    const { productId, variants } = classicTee(ctx);
    const teeGame = await filledTeeGame(ctx, productId, variants.M!);
    const { gameId: bookGame } = await filledBookGame(ctx);
    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started.sort()).toEqual([teeGame, bookGame].sort());
    ctx.clock.set(END);
    await runGameJobs(ctx.deps);
    const [teeWinner, bookWinner] = [winnerOf(ctx, teeGame), winnerOf(ctx, bookGame)];
    const settledAt = ctx.db.select().from(games).where(eq(games.id, teeGame)).get()!.settledAt!;
    const deps = { db: ctx.db, clock: ctx.clock };

    expect(expireUnclaimedPrizes(deps, settledAt + 6 * DAY)).toEqual({ reminded: 2, returned: 0 });
    expect(noteOf(ctx, teeWinner, 'Claim your prize')).toStartWith('Your prize Classic Tee · Size M is kept for you until ');
    expect(mailOf(ctx, teeWinner, 'prize_reminder')).toContain('Your prize Classic Tee · Size M is kept for you until ');
    expect(noteOf(ctx, bookWinner, 'Claim your prize')).toStartWith('Your prize The Old Man and the Sea is kept for you until ');

    expect(expireUnclaimedPrizes(deps, settledAt + PRIZE_KEEP_MS)).toEqual({ reminded: 0, returned: 2 });
    expect(noteOf(ctx, teeWinner, 'Prize returned to stock')).toStartWith('Your prize from the game for Classic Tee · Size M was not claimed within 7 days');
    expect(mailOf(ctx, teeWinner, 'prize_returned')).toContain('Your prize from the game for Classic Tee · Size M was not claimed');
    expect(noteOf(ctx, bookWinner, 'Prize returned to stock')).toStartWith('Your prize from the game for The Old Man and the Sea was not claimed');
  });

  test("the product page's competition panel says which size its game is for, as the live view does; a book's panel names no size", async () => {
    const ctx = await gameStore();
    const { productId, variants } = classicTee(ctx);
    const alice = await player(ctx, 'alice');
    const picked = await postPlay(alice, { productId, variantId: variants.L!, influencerIds: picks(ctx, 0) });
    expect(picked.status).toBe(201);
    expect((await postPayment(alice, { productId, variantId: variants.L!, amount: 1, type: 'play' })).status).toBe(201);

    const page = await (await ctx.client().get(`/product/${productId}?tab=competition`)).text();
    expect(attribute(page, '[data-game-size]', 'data-game-size')).toBe('L');
    expect(textOf(page)).toContain('Size L game');
    expect(textOf(page)).toContain('Waiting for 1 more participants. (1/2 entries)');
    // The live stream and the poll send the same view.
    expect(((await (await ctx.client().get(`/api/products/${productId}/competition`)).json()) as { size?: string }).size).toBe('L');

    await enter(alice, book(ctx).id, picks(ctx, 5));
    const bookPage = await (await ctx.client().get(`/product/${book(ctx).id}?tab=competition`)).text();
    expect(textOf(bookPage)).toContain('(1/2 entries)');
    expect(all(bookPage, '[data-game-size]')).toHaveLength(0);
    expect(textOf(bookPage)).not.toContain('Size');
  });
});
