import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { orderItems, orders } from '../../src/db/schema.ts';
import { donatePrize, runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { END, endedBookGame, filledBookGame, gameRow, gameStore, holdsOf, notesOf, player, prizeLines, START, stockOf } from '../helpers/games.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * What a settled game leaves (DESIGN section 4): the winner's prize as a $1 `play` cart item,
 * the notifications of winner and losers, the stock reserved at the start, and a donated prize.
 */

describe('winner, losers, prize and stock', () => {
  test('winner: game_won → /cart "Claim Prize"; loser: game_lost "Play Again"; both game_ended', async () => {
    const ctx = await gameStore();
    const game = await endedBookGame(ctx);
    await runGameJobs(ctx.deps);
    const winnerPlayId = gameRow(ctx, game.gameId).winnerPlayId;
    const [winner, loser] = winnerPlayId === game.alicePlay ? [game.alice, game.bob] : [game.bob, game.alice];

    const won = notesOf(ctx, winner.id, 'game_won');
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ actionUrl: '/cart', actionText: 'Claim Prize', gameId: game.gameId, productId: game.productId });
    expect(won[0]!.message).toContain('The Old Man and the Sea');
    expect(notesOf(ctx, winner.id, 'game_lost')).toHaveLength(0);

    const lost = notesOf(ctx, loser.id, 'game_lost');
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({ actionText: 'Play Again', gameId: game.gameId });
    expect(lost[0]!.actionUrl).toContain(String(game.productId));
    expect(lost[0]!.message).toContain(winner.username);
    expect(notesOf(ctx, loser.id, 'game_won')).toHaveLength(0);

    // Through the API as the bell reads them.
    const bell = await (await winner.client.get('/api/notifications')).json();
    expect(bell.notifications.map((n: { type: string }) => n.type)).toContain('game_won');
  });

  test('stock: down by exactly 1 at the start, not again at settlement, not again when the prize is bought at $1 + 8% tax, delivered free', async () => {
    const ctx = await gameStore();
    const game = await filledBookGame(ctx);
    expect(stockOf(ctx, game.productId)).toBe(6);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    expect(stockOf(ctx, game.productId)).toBe(5);
    ctx.clock.set(END);
    await runGameJobs(ctx.deps);
    expect(stockOf(ctx, game.productId)).toBe(5);

    const winnerPlayId = gameRow(ctx, game.gameId).winnerPlayId;
    const winner = winnerPlayId === game.alicePlay ? game.alice : game.bob;
    const cart = await (await winner.client.get('/api/cart')).json();
    expect(cart).toHaveLength(1);
    expect(cart[0]).toMatchObject({ productId: game.productId, quantity: 1, price: 1, type: 'play' });
    // The prize cannot become two.
    expect((await winner.client.request('PATCH', `/api/cart/${cart[0].id}`, { json: { quantity: 2 } })).status).toBe(409);

    // The game rules: $1 plus tax, with the free local delivery.
    const summary = { subtotal: 1, shipping: 0, tax: 0.08, total: 1.08 };
    const response = await winner.client.post('/api/checkout', {
      json: {
        paymentMethod: 'cod',
        items: cart.map(({ id, productId, quantity, price, type }: Record<string, unknown>) => ({ id, productId, quantity, price, type })),
        shipping: { method: 'standard', cost: 5.99 },
        summary,
        customer: {
          fullName: 'Win Ner',
          email: 'win@example.com',
          phone: '949-555-0100',
          address: '1 Prize Way',
          city: 'Laguna Beach',
          state: 'CA',
          zipCode: '92651',
        },
      },
    });
    expect(response.status).toBe(201);
    const { orderId } = await response.json();
    expect(ctx.db.select().from(orders).where(eq(orders.id, orderId)).get()).toMatchObject({
      subtotalCents: 100,
      taxCents: 8,
      shippingCents: 0,
      totalCents: 108,
      shippingMethod: 'local',
    });
    expect(ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).all()).toEqual([
      expect.objectContaining({ productId: game.productId, quantity: 1, priceCents: 100, purchaseType: 'play' }),
    ]);
    expect(stockOf(ctx, game.productId)).toBe(5);
    expect(prizeLines(ctx)).toHaveLength(0);
    // The prize is gone from the cart, so it can no longer be donated.
    expect((await winner.client.post(`/api/games/${game.gameId}/donate`)).status).toBe(409);
  });

  test('the prize is still claimable when the last unit was sold meanwhile: it was reserved at the start', async () => {
    const ctx = await gameStore();
    const game = await endedBookGame(ctx);
    await runGameJobs(ctx.deps);
    setShelf(ctx.db, game.productId, 0);
    const winnerPlayId = gameRow(ctx, game.gameId).winnerPlayId;
    const winner = winnerPlayId === game.alicePlay ? game.alice : game.bob;
    const cart = await (await winner.client.get('/api/cart')).json();
    const response = await winner.client.post('/api/checkout', {
      json: {
        paymentMethod: 'cod',
        items: cart.map(({ id, productId, quantity, price, type }: Record<string, unknown>) => ({ id, productId, quantity, price, type })),
        shipping: { method: 'standard', cost: 5.99 },
        summary: { subtotal: 1, shipping: 0, tax: 0.08, total: 1.08 },
        customer: {
          fullName: 'Win Ner',
          email: 'win@example.com',
          phone: '949-555-0100',
          address: '1 Prize Way',
          city: 'Laguna Beach',
          state: 'CA',
          zipCode: '92651',
        },
      },
    });
    expect(response.status).toBe(201);
    expect(stockOf(ctx, game.productId)).toBe(0);
  });

  test('donate: the winner gives the prize away (removed from the cart); others get 404; twice is 409', async () => {
    const ctx = await gameStore();
    const game = await endedBookGame(ctx);
    await runGameJobs(ctx.deps);
    const winnerPlayId = gameRow(ctx, game.gameId).winnerPlayId;
    const [winner, loser] = winnerPlayId === game.alicePlay ? [game.alice, game.bob] : [game.bob, game.alice];
    const stranger = await player(ctx, 'stranger');

    expect((await loser.client.post(`/api/games/${game.gameId}/donate`)).status).toBe(404);
    expect((await stranger.client.post(`/api/games/${game.gameId}/donate`)).status).toBe(404);
    expect((await ctx.client().post(`/api/games/${game.gameId}/donate`)).status).toBe(401);
    expect((await winner.client.post(`/api/games/999999/donate`)).status).toBe(404);
    expect((await winner.client.post(`/api/games/abc/donate`)).status).toBe(404);
    expect(prizeLines(ctx)).toHaveLength(1);

    const donated = await winner.client.post(`/api/games/${game.gameId}/donate`);
    expect(donated.status).toBe(200);
    expect((await donated.json()).message).toBeTruthy();
    expect(prizeLines(ctx)).toHaveLength(0);
    expect(await (await winner.client.get('/api/cart')).json()).toEqual([]);
    expect(gameRow(ctx, game.gameId).prizeOutcome).toBe('donated');
    expect((await winner.client.post(`/api/games/${game.gameId}/donate`)).status).toBe(409);
    // Donating changes nothing else: stock stays reserved, holds stay captured.
    expect(stockOf(ctx, game.productId)).toBe(5);
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['captured', 'captured']);

    const list = await (await ctx.client().get('/api/games/winners')).json();
    expect(list[0]).toMatchObject({ gameId: game.gameId, playId: winnerPlayId, donated: true, username: winner.username });
  });

  test('donatePrize in the domain: a waiting or active game has no prize', async () => {
    const ctx = await gameStore();
    const game = await filledBookGame(ctx);
    expect(() => donatePrize(ctx.deps, game.alice.id, game.gameId)).toThrow(DomainError);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    expect(() => donatePrize(ctx.deps, game.alice.id, game.gameId)).toThrow('No prize of yours was found for this game.');
  });

  test('sold out before the start: the game is canceled, every hold voided, nobody charged', async () => {
    const ctx = await gameStore();
    const game = await filledBookGame(ctx);
    setShelf(ctx.db, game.productId, 0);
    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([]);
    expect(gameRow(ctx, game.gameId).status).toBe('canceled');
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['voided', 'voided']);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['CANCELED', 'CANCELED']);
    expect(stockOf(ctx, game.productId)).toBe(0);
    for (const p of [game.alice, game.bob]) expect(notesOf(ctx, p.id, 'game_ended').map((n) => n.title)).toEqual(['Game canceled']);
  });
});
