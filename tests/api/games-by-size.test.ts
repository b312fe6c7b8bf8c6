import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { cartItems, emailOutbox, games, orderItems, plays } from '../../src/db/schema.ts';
import { variantStockOf } from '../../src/domain/inventory/stock-counts.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { END, START, competition, gameRow, gameStore, holdsOf, notesOf, type GameStore, picks, player, postPayment, postPlay } from '../helpers/games.ts';
import { sizedProduct } from '../helpers/variants.ts';
import { textOf } from '../helpers/html.ts';

/*
 * Issue 38: a game is for one size. The player picks the size before paying, the entry joins
 * that size's waiting game, the game's start holds a unit of that size and the prize is that
 * size, up to the paid order line. Every unit promised counts per size.
 */

/** A $2 tee (two players fill a game) in M (2 units) and L (3 units), playable. */
const tee = (ctx: GameStore, sizes: Record<string, number> = { M: 2, L: 3 }) =>
  sizedProduct(ctx.db, sizes, { brand: 'Size Tee', priceCents: 200, playEnabled: true });

async function enterIn(ctx: GameStore, who: Awaited<ReturnType<typeof player>>, productId: number, variantId: number, from: number) {
  const picked = await postPlay(who, { productId, variantId, influencerIds: picks(ctx, from) });
  expect(picked.status).toBe(201);
  const play = (await picked.json()) as { gameId: number; variantId: number };
  const paid = await postPayment(who, { productId, variantId, amount: 1, type: 'play' });
  expect(paid.status).toBe(201);
  expect(await paid.json()).toMatchObject({ status: 'entered', gameId: play.gameId });
  return play;
}

const gamesOfSize = (ctx: GameStore, variantId: number) => ctx.db.select().from(games).where(eq(games.variantId, variantId)).all();

describe('games by size', () => {
  test('two players pick M and one L: separate games; M fills, starts holding one M unit; the prize and its paid order line say M', async () => {
    const ctx = await gameStore();
    const { productId, variants } = tee(ctx);
    const [alice, bob, carol] = [await player(ctx, 'alice'), await player(ctx, 'bob'), await player(ctx, 'carol')];

    const a = await enterIn(ctx, alice, productId, variants.M!, 0);
    const c = await enterIn(ctx, carol, productId, variants.L!, 10);
    // Each game needs one more: the scoreboard's Play Now goes to that game's size.
    const board = await (await ctx.client().get('/scoreboard')).text();
    expect(board).toContain(`href="/play/${productId}?size=M"`);
    expect(board).toContain(`href="/play/${productId}?size=L"`);
    ctx.clock.advance(1_000);
    const b = await enterIn(ctx, bob, productId, variants.M!, 5);
    expect(a.variantId).toBe(variants.M!);
    expect(b.gameId).toBe(a.gameId);
    expect(c.gameId).not.toBe(a.gameId);
    expect(gameRow(ctx, a.gameId).variantId).toBe(variants.M!);
    expect(gameRow(ctx, c.gameId).variantId).toBe(variants.L!);
    expect(notesOf(ctx, alice.id, 'game_ready').at(-1)!.message).toBe('The game for Size Tee in size M is full and starts at the top of the hour.');

    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([a.gameId]);
    expect(variantStockOf(ctx.db, variants.M!)).toMatchObject({ available: 1, held: 1 });
    expect(variantStockOf(ctx.db, variants.L!)).toMatchObject({ available: 3, held: 0 });
    expect(gameRow(ctx, c.gameId).status).toBe('waiting');
    // The scoreboard and the competition name each game's size.
    const active = (await (await ctx.client().get('/api/games/active')).json()) as { id: number; size?: string }[];
    expect(active.filter((g) => g.id === a.gameId || g.id === c.gameId).map((g) => [g.id, g.size])).toEqual([
      [a.gameId, 'M'],
      [c.gameId, 'L'],
    ]);
    expect(await competition(ctx, productId)).toMatchObject({ gameId: a.gameId, size: 'M' });
    expect(textOf(await (await ctx.client().get('/scoreboard')).text())).toContain('Size M');
    expect(notesOf(ctx, alice.id, 'game_started')[0]!.message).toContain('in size M');

    ctx.clock.set(END);
    await runGameJobs(ctx.deps);
    const game = gameRow(ctx, a.gameId);
    expect(game.status).toBe('completed');
    const winnerId = ctx.db.select().from(plays).where(eq(plays.id, game.winnerPlayId!)).get()!.userId;
    const winner = winnerId === alice.id ? alice : bob;
    const prize = ctx.db
      .select()
      .from(cartItems)
      .where(and(eq(cartItems.userId, winnerId), eq(cartItems.type, 'play')))
      .get()!;
    expect(prize.variantId).toBe(variants.M!);
    expect(notesOf(ctx, winnerId, 'game_won')[0]!.message).toContain('in size M');
    const loserId = winnerId === alice.id ? bob.id : alice.id;
    expect(notesOf(ctx, loserId, 'game_lost')[0]!.actionUrl).toBe(`/play/${productId}?size=M`);
    expect(ctx.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'game_won')).get()!.subject).toBe('You won Size Tee in size M!');
    // The record keeps the size, and its page and the winners list say it.
    expect(((await (await ctx.client().get(`/api/games/${a.gameId}`)).json()) as { product: { size?: string } }).product.size).toBe('M');
    expect(textOf(await (await ctx.client().get(`/games/${a.gameId}`)).text())).toContain('Size M');
    const winnersList = (await (await ctx.client().get('/api/games/winners')).json()) as { gameId: number; size?: string }[];
    expect(winnersList.find((w) => w.gameId === a.gameId)?.size).toBe('M');

    const cart = (await (await winner.client.get('/api/cart')).json()) as {
      id: number;
      productId: number;
      quantity: number;
      price: number;
      type: string;
      size: string;
    }[];
    expect(cart[0]).toMatchObject({ size: 'M', type: 'play' });
    const bought = await winner.client.post('/api/checkout', {
      json: {
        paymentMethod: 'square',
        paymentToken: 'cnon:card-nonce-ok',
        items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
        shipping: { method: 'standard', cost: 0 },
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
    expect(bought.status).toBe(201);
    const { orderId } = (await bought.json()) as { orderId: number };
    expect(ctx.db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).get()).toMatchObject({
      variantId: variants.M!,
      sizeLabel: 'M',
      purchaseType: 'play',
    });
  });

  test('a size with one unit has at most one waiting game; the next player of that size is refused naming the size', async () => {
    const ctx = await gameStore();
    const { productId, variants } = tee(ctx, { S: 1, M: 4 });
    const [alice, bob, carol] = [await player(ctx, 'alice'), await player(ctx, 'bob'), await player(ctx, 'carol')];
    await enterIn(ctx, alice, productId, variants.S!, 0);
    await enterIn(ctx, bob, productId, variants.S!, 5);
    // The S game is full and waits for its hour; S has no unit left for a second game.
    const refused = await postPlay(carol, { productId, variantId: variants.S!, influencerIds: picks(ctx, 10) });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toContain('size S');
    expect(gamesOfSize(ctx, variants.S!)).toHaveLength(1);
    // M still takes players.
    const m = await postPlay(carol, { productId, variantId: variants.M!, influencerIds: picks(ctx, 10) });
    expect(m.status).toBe(201);
  });

  test('a sold-out size refuses with a message naming it, nothing written', async () => {
    const ctx = await gameStore();
    const { productId, variants } = tee(ctx, { M: 0, L: 2 });
    const alice = await player(ctx, 'alice');
    const refused = await postPlay(alice, { productId, variantId: variants.M!, influencerIds: picks(ctx, 0) });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toContain('Size M is sold out');
    expect(ctx.db.select().from(games).where(eq(games.productId, productId)).all()).toEqual([]);
  });

  test('a multi-size product without variantId: 400 naming the sizes, no game, no play, no hold', async () => {
    const ctx = await gameStore();
    const { productId } = tee(ctx);
    const alice = await player(ctx, 'alice');
    const holdsBefore = holdsOf(ctx).length;
    const refused = await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: 'Choose a size: M or L.', fields: { variantId: 'Choose a size: M or L.' } });
    expect(ctx.db.select().from(games).where(eq(games.productId, productId)).all()).toEqual([]);
    expect(ctx.db.select().from(plays).where(eq(plays.productId, productId)).all()).toEqual([]);
    expect(holdsOf(ctx)).toHaveLength(holdsBefore);
    // Paying for nothing picked writes no hold either.
    expect((await postPayment(alice, { productId, amount: 1, type: 'play' })).status).toBe(404);
    expect(holdsOf(ctx)).toHaveLength(holdsBefore);
  });

  test('a size of another product is refused as a choice', async () => {
    const ctx = await gameStore();
    const { productId } = tee(ctx);
    const other = tee(ctx);
    const alice = await player(ctx, 'alice');
    const refused = await postPlay(alice, { productId, variantId: other.variants.M!, influencerIds: picks(ctx, 0) });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fields).toHaveProperty('variantId');
  });
});
