import { describe, expect, test } from 'bun:test';
import { payments } from '../../src/db/schema.ts';
import {
  book,
  clockRoute,
  competition,
  filledBookGame,
  gameStore,
  giftBook,
  MINUTE,
  pay,
  picks,
  player,
  playRows,
  postPayment,
  postPlay,
  START,
} from '../helpers/games.ts';

/*
 * POST /api/payments (spec section 7): the $1 hold that turns a pick into an entry, and the
 * 15 minutes a pick may wait for it.
 */

describe('POST /api/payments: the $1 entry', () => {
  test.each([
    ['amount 2', { amount: 2, type: 'play' }],
    ['amount 0.5', { amount: 0.5, type: 'play' }],
    ['amount missing', { type: 'play' }],
    ['amount as text', { amount: 'one', type: 'play' }],
    ['type regular', { amount: 1, type: 'regular' }],
    ['type missing', { amount: 1 }],
  ])('%s: 400, nothing charged, the play stays pending', async (_label, body) => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    const response = await postPayment(alice, { productId, ...body });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBeTruthy();
    expect(ctx.gateway.payments()).toHaveLength(0);
    expect(playRows(ctx, alice.id)[0]!.status).toBe('pending');
  });

  test('no pending play for the product: 404', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    expect((await pay(alice, productId)).status).toBe(404);
    // A play for another product does not count for this one.
    await postPlay(alice, { productId: giftBook(ctx).id, influencerIds: picks(ctx, 0) });
    const response = await pay(alice, productId);
    expect(response.status).toBe(404);
    expect((await response.json()).message).toContain('Pick your 5 influencers first');
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('success: 201, $1 authorized (not captured), the entry counts, payment_success written', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    const play = await (await postPlay(alice, { productId, influencerIds: picks(ctx, 0) })).json();
    expect((await competition(ctx, productId)).participants).toBe(0);
    const response = await pay(alice, productId);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ id: play.id, status: 'entered', amount: 1 });
    expect(ctx.gateway.payments()).toEqual([expect.objectContaining({ status: 'APPROVED', amountCents: 100 })]);
    expect(ctx.db.select().from(payments).all()).toEqual([
      expect.objectContaining({ kind: 'play_authorization', status: 'authorized', amountCents: 100, playId: play.id }),
    ]);
    const view = await competition(ctx, productId);
    // The game waits: its picks stay hidden until it starts (waiting-game-picks.test.ts).
    expect(view).toMatchObject({ participants: 1, plays: [expect.objectContaining({ id: play.id, userId: alice.id, influencerIds: null })] });
    const bell = await (await alice.client.get('/api/notifications')).json();
    const success = bell.notifications.filter((n: { type: string }) => n.type === 'payment_success');
    expect(success).toHaveLength(1);
    expect(success[0].message).toBe(
      'Your $1 game entry for The Old Man and the Sea is held on your card: it is charged when the game is settled, and released if the game is canceled.',
    );
    // One more is needed: game_ready 'Only needed 1 more player'.
    const ready = bell.notifications.filter((n: { type: string }) => n.type === 'game_ready');
    expect(ready).toHaveLength(1);
    expect(ready[0].message).toContain('Only needed 1 more player');
  });

  test('a play left unpaid for 15+ minutes cannot be paid (404) and is void after a tick', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    const tick = await clockRoute(alice.client, { advanceMs: 15 * MINUTE + 1 });
    expect(tick.status).toBe(200);
    expect(playRows(ctx, alice.id)[0]!.status).toBe('void');
    expect((await pay(alice, productId)).status).toBe(404);
    expect(ctx.gateway.payments()).toHaveLength(0);
    expect((await competition(ctx, productId)).participants).toBe(0);
  });

  test('unpaid for 15+ minutes without a tick: still 404 (the time alone decides)', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    ctx.clock.advance(16 * MINUTE);
    expect((await pay(alice, productId)).status).toBe(404);
    expect(playRows(ctx, alice.id)[0]!.status).toBe('pending');
    await clockRoute(alice.client, { advanceMs: 0 });
    expect(playRows(ctx, alice.id)[0]!.status).toBe('void');
    // Picking again gives a fresh 15 minutes.
    expect((await postPlay(alice, { productId, influencerIds: picks(ctx, 0) })).status).toBe(201);
    expect((await pay(alice, productId)).status).toBe(201);
  });

  test('a game takes exactly its players: a pick into a full game opens the next one, and the started game keeps its players', async () => {
    const ctx = await gameStore();
    const { productId, gameId } = await filledBookGame(ctx);
    const carol = await player(ctx, 'carol');
    ctx.clock.set(START - 3 * MINUTE);
    const next = await (await postPlay(carol, { productId, influencerIds: picks(ctx, 2) })).json();
    expect(next.gameId).not.toBe(gameId);
    await clockRoute(carol.client, { now: START });
    expect((await pay(carol, productId)).status).toBe(201);
    const view = await competition(ctx, productId);
    expect(view).toMatchObject({ gameId, gameStatus: 'active', participants: 2, nextGame: { id: next.gameId, participants: 1, requiredParticipants: 2 } });
    expect(view.plays.map((p: { userId: number }) => p.userId)).not.toContain(carol.id);
  });
});
