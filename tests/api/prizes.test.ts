import { describe, expect, test } from 'bun:test';
import { and, eq } from 'drizzle-orm';
import { cartItems, emailOutbox, games, notifications, orders, plays, products } from '../../src/db/schema.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { expireUnclaimedPrizes } from '../../src/domain/games/prizes.ts';
import { PRIZE_KEEP_MS } from '../../src/domain/games/schedule.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { type Store, enter, player, postForm, seededStore } from '../helpers/admin-tools.ts';
import { fivePicks } from '../helpers/games.ts';
import { textOf } from '../helpers/html.ts';

/* A won prize is never lost: remove and re-claim, buy at $1 plus tax delivered free, donate, never both, back to stock after 7 days. */

const HOUR = 3_600_000;

function book(ctx: Store) {
  return ctx.db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
}

async function wonPrize(ctx: Store) {
  const product = book(ctx);
  const a = await player(ctx, 'alice');
  const b = await player(ctx, 'bob');
  const picks = fivePicks(ctx.db, 0);
  await enter(a, product.id, picks);
  await enter(b, product.id, fivePicks(ctx.db, 5));
  ctx.clock.advance(2 * HOUR);
  const deps = { db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics: simulatedMetrics };
  await runGameJobs(deps);
  const game = ctx.db.select().from(games).where(eq(games.productId, product.id)).get()!;
  expect(game.status).toBe('completed');
  const winnerUserId = ctx.db.select().from(plays).where(eq(plays.id, game.winnerPlayId!)).get()!.userId;
  const winner = winnerUserId === a.id ? a : b;
  const loser = winner === a ? b : a;
  return { product, game, winner, loser };
}

const gameOf = (ctx: Store, id: number) => ctx.db.select().from(games).where(eq(games.id, id)).get()!;
const prizeLines = (ctx: Store, userId: number) =>
  ctx.db
    .select()
    .from(cartItems)
    .where(and(eq(cartItems.userId, userId), eq(cartItems.type, 'play')))
    .all();

function cartCheckout(
  cart: { id: number; productId: number; quantity: number; price: number; type: string }[],
  summary: Record<string, number>,
  zipCode = '92651',
) {
  return {
    paymentMethod: 'square',
    paymentToken: 'cnon:card-nonce-ok',
    items: cart.map(({ id, productId, quantity, price, type }) => ({ id, productId, quantity, price, type })),
    shipping: { method: 'standard', cost: summary.shipping },
    summary,
    customer: { fullName: 'Win Ner', email: 'win@example.com', phone: '949-555-0100', address: '1 Prize Way', city: 'Laguna Beach', state: 'CA', zipCode },
  };
}

describe('prizes', () => {
  test('the winner gets a game_won e-mail with the claim link; removing the prize asks first and returns it to "to claim"; Claim Prize puts it back', async () => {
    const ctx = await seededStore();
    const { game, winner } = await wonPrize(ctx);
    const won = ctx.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'game_won')).all();
    expect(won.map((m) => [m.userId, m.eventKey])).toEqual([[winner.id, `game:${game.id}:won`]]);
    expect(won[0]?.textBody).toContain('/cart');
    expect(won[0]?.textBody).toContain('$1 plus tax with free delivery within 2-3 hours');

    const [line] = prizeLines(ctx, winner.id);
    // The cart's Remove on a prize shows a confirmation step first; nothing moves.
    const step = await postForm(winner.client, `/cart/items/${line!.id}/remove`);
    expect(step.status).toBe(200);
    expect(textOf(await step.text())).toContain('Remove prize from cart?');
    expect(prizeLines(ctx, winner.id)).toHaveLength(1);
    expect((await postForm(winner.client, `/cart/items/${line!.id}/remove`, { confirmed: 'yes' })).status).toBe(303);
    expect(prizeLines(ctx, winner.id)).toHaveLength(0);
    expect(gameOf(ctx, game.id).prizeOutcome).toBe('unclaimed');
    const myGames = await (await winner.client.get('/scoreboard?tab=my-games')).text();
    expect(myGames).toContain('data-prize-state="to_claim"');
    expect(textOf(myGames)).toContain('Claim Prize');

    // The API's DELETE does the same; claiming again (twice) brings one line back.
    expect((await winner.client.post(`/api/games/${game.id}/claim`)).status).toBe(200);
    expect((await winner.client.post(`/api/games/${game.id}/claim`)).status).toBe(200);
    const back = prizeLines(ctx, winner.id);
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({ priceCents: 100, gameId: game.id });
    expect((await winner.client.request('DELETE', `/api/cart/${back[0]!.id}`)).status).toBe(200);
    expect(gameOf(ctx, game.id).prizeOutcome).toBe('unclaimed');
    // Donate works from 'to claim' too, and after it nothing else does.
    expect((await winner.client.post(`/api/games/${game.id}/donate`)).status).toBe(200);
    expect(gameOf(ctx, game.id).prizeOutcome).toBe('donated');
    expect((await winner.client.post(`/api/games/${game.id}/claim`)).status).toBe(409);
    expect(prizeLines(ctx, winner.id)).toHaveLength(0);
    expect(await (await winner.client.get(`/games/${game.id}`)).text()).toContain('data-prize-state="donated"');
  });

  test('only the winner can claim; others and visitors get 404 and 401', async () => {
    const ctx = await seededStore();
    const { game, loser } = await wonPrize(ctx);
    expect((await loser.client.post(`/api/games/${game.id}/claim`)).status).toBe(404);
    expect((await ctx.client().post(`/api/games/${game.id}/claim`)).status).toBe(401);
    for (const id of ['0', '-1', 'abc', '99999']) expect((await loser.client.post(`/api/games/${id}/claim`)).status).toBe(404);
  });

  test('buying the prize costs $1 plus tax with the free local delivery, needs ZIP 92651, and ends as bought with its order linked', async () => {
    const ctx = await seededStore();
    const { game, winner } = await wonPrize(ctx);
    const cart = (await (await winner.client.get('/api/cart')).json()) as { id: number; productId: number; quantity: number; price: number; type: string }[];
    // The old charge ($5.99 standard shipping) is refused with the right totals.
    const old = await winner.client.post('/api/checkout', { json: cartCheckout(cart, { subtotal: 1, shipping: 5.99, tax: 0.08, total: 7.07 }) });
    expect(old.status).toBe(409);
    expect((await old.json()).summary).toEqual({ subtotal: 1, shipping: 0, tax: 0.08, total: 1.08 });
    const far = await winner.client.post('/api/checkout', { json: cartCheckout(cart, { subtotal: 1, shipping: 0, tax: 0.08, total: 1.08 }, '90210') });
    expect(far.status).toBe(400);
    expect((await far.json()).message).toContain('Local Delivery Only');
    expect(gameOf(ctx, game.id).prizeOutcome).toBe('cart');

    const bought = await winner.client.post('/api/checkout', { json: cartCheckout(cart, { subtotal: 1, shipping: 0, tax: 0.08, total: 1.08 }) });
    expect(bought.status).toBe(201);
    const { orderId } = (await bought.json()) as { orderId: number };
    expect(ctx.db.select().from(orders).where(eq(orders.id, orderId)).get()).toMatchObject({ totalCents: 108, shippingCents: 0, shippingMethod: 'local' });
    expect(gameOf(ctx, game.id).prizeOutcome).toBe('bought');
    const myGames = await (await winner.client.get('/scoreboard?tab=my-games')).text();
    expect(myGames).toContain('data-prize-state="bought"');
    expect(myGames).toContain(`href="/orders/${orderId}"`);
    expect(textOf(myGames)).not.toContain('Donate');
    expect((await winner.client.post(`/api/games/${game.id}/donate`)).status).toBe(409);
    expect((await winner.client.post(`/api/games/${game.id}/claim`)).status).toBe(409);
  });

  test('claim, donate and remove at once from two tabs: the prize ends in exactly one state, never both bought and donated', async () => {
    const ctx = await seededStore();
    const { game, winner } = await wonPrize(ctx);
    const [line] = prizeLines(ctx, winner.id);
    const answers = await Promise.all([
      winner.client.post(`/api/games/${game.id}/donate`),
      winner.client.request('DELETE', `/api/cart/${line!.id}`),
      winner.client.post(`/api/games/${game.id}/claim`),
      winner.client.post(`/api/games/${game.id}/donate`),
    ]);
    expect(answers.every((r) => r.status < 500)).toBe(true);
    const outcome = gameOf(ctx, game.id).prizeOutcome;
    expect(outcome).toBe('donated');
    expect(prizeLines(ctx, winner.id)).toHaveLength(0);
  });

  test('kept 7 days: a reminder (notification and e-mail) a day before, then back to stock with a notification and an e-mail, once', async () => {
    const ctx = await seededStore();
    const { game, winner, product } = await wonPrize(ctx);
    const stock = ctx.db.select().from(products).where(eq(products.id, product.id)).get()!.quantity;
    const deps = { db: ctx.db, clock: ctx.clock };
    const settledAt = gameOf(ctx, game.id).settledAt!;
    expect(expireUnclaimedPrizes(deps, settledAt + 5 * 24 * HOUR)).toEqual({ reminded: 0, returned: 0 });
    expect(expireUnclaimedPrizes(deps, settledAt + 6 * 24 * HOUR)).toEqual({ reminded: 1, returned: 0 });
    expect(expireUnclaimedPrizes(deps, settledAt + 6 * 24 * HOUR + 1)).toEqual({ reminded: 0, returned: 0 });
    expect(gameOf(ctx, game.id).prizeOutcome).toBe('cart');
    expect(expireUnclaimedPrizes(deps, settledAt + PRIZE_KEEP_MS)).toEqual({ reminded: 0, returned: 1 });
    expect(expireUnclaimedPrizes(deps, settledAt + PRIZE_KEEP_MS + HOUR)).toEqual({ reminded: 0, returned: 0 });
    expect(gameOf(ctx, game.id).prizeOutcome).toBe('expired');
    expect(prizeLines(ctx, winner.id)).toHaveLength(0);
    expect(ctx.db.select().from(products).where(eq(products.id, product.id)).get()!.quantity).toBe(stock + 1);
    const told = ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, winner.id))
      .all()
      .map((n) => n.title);
    expect(told).toContain('Claim your prize');
    expect(told).toContain('Prize returned to stock');
    const mails = ctx.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.userId, winner.id))
      .all()
      .map((m) => m.kind);
    expect(mails).toEqual(['game_won', 'prize_reminder', 'prize_returned']);
    expect(await (await winner.client.get('/scoreboard?tab=my-games')).text()).toContain('data-prize-state="returned"');
    expect((await winner.client.post(`/api/games/${game.id}/claim`)).status).toBe(409);
  });

  test('a prize being paid for is never returned to stock under the payer', async () => {
    const ctx = await seededStore();
    const { game } = await wonPrize(ctx);
    ctx.db.update(games).set({ prizeOutcome: 'buying' }).where(eq(games.id, game.id)).run();
    expect(expireUnclaimedPrizes({ db: ctx.db, clock: ctx.clock }, gameOf(ctx, game.id).settledAt! + PRIZE_KEEP_MS * 2)).toEqual({ reminded: 0, returned: 0 });
    expect(gameOf(ctx, game.id).prizeOutcome).toBe('buying');
  });
});
