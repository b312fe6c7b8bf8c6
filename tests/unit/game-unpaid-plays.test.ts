import { describe, expect, test } from 'bun:test';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { testTokenForCard } from '../../src/shared/test-cards.ts';
import {
  book,
  END,
  enter,
  enteredOf,
  filledWithCarolPending,
  gameRow,
  gameStore,
  holdsOf,
  MINUTE,
  notesOf,
  pay,
  pick,
  picks,
  player,
  playRow,
  START,
  T0,
} from '../helpers/games.ts';

/*
 * Plays whose $1 hold is not in place (DESIGN section 4): a pick never paid does not count and
 * goes void, a card that declines leaves no entry and tells the player.
 */

function decliningCardToken(): string {
  const made = testTokenForCard('4000000000000002', 12, 2030, '123');
  if ('error' in made) throw new Error(made.error);
  return made.token;
}

describe('pending plays (never paid) do not count', () => {
  test('a picked but unpaid play does not fill the game; after 15 minutes it is void and cannot be paid', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    const bobs = await pick(bob, productId, picks(ctx, 5));
    expect(bobs).toMatchObject({ gameId, status: 'pending' });
    expect(enteredOf(ctx, gameId)).toHaveLength(1);

    // 15 minutes exactly: still payable in principle, still pending after a tick.
    ctx.clock.set(T0 + 15 * MINUTE);
    await runGameJobs(ctx.deps);
    expect(playRow(ctx, bobs.id).status).toBe('pending');

    ctx.clock.set(T0 + 15 * MINUTE + 1);
    expect((await pay(bob, productId)).status).toBe(404);
    await runGameJobs(ctx.deps);
    expect(playRow(ctx, bobs.id).status).toBe('void');

    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([]);
    expect(gameRow(ctx, gameId).status).toBe('waiting');
    expect(holdsOf(ctx).filter((h) => h.userId === bob.id)).toHaveLength(0);
    expect(ctx.gateway.payments()).toHaveLength(1);
  });

  test('a pending play in a game that starts is voided at the start and takes no part in settlement', async () => {
    const ctx = await gameStore();
    const { gameId, carol, pending } = await filledWithCarolPending(ctx);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    expect(playRow(ctx, pending.id).status).toBe('void');
    ctx.clock.set(END);
    await runGameJobs(ctx.deps);
    expect(playRow(ctx, pending.id).score).toBeNull();
    expect(notesOf(ctx, carol.id).filter((n) => n.type.startsWith('game_'))).toHaveLength(0);
    expect(gameRow(ctx, gameId).status).toBe('completed');
  });
});

describe('a hold that declines', () => {
  test('a saved card that declines: 402, no entry, a payment_failed notification; the game does not fill', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const dora = await player(ctx, 'dora', decliningCardToken());
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    const play = await pick(dora, productId, picks(ctx, 5));

    const response = await pay(dora, productId);
    expect(response.status).toBe(402);
    const body = await response.json();
    expect(body.message).toContain('declined');
    expect(playRow(ctx, play.id).status).toBe('void');
    expect(enteredOf(ctx, gameId)).toHaveLength(1);
    const failed = holdsOf(ctx).filter((h) => h.userId === dora.id);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ status: 'failed', errorCode: 'GENERIC_DECLINE' });
    // Declines are not listed by the test gateway: only Alice's hold exists there.
    expect(ctx.gateway.payments()).toHaveLength(1);

    const notes = notesOf(ctx, dora.id, 'payment_failed');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      title: 'Payment Failed',
      message: 'There was an issue processing your payment for The Old Man and the Sea game entry.',
      actionText: 'Update Payment Method',
      productId,
      gameId,
    });
    expect(notesOf(ctx, dora.id, 'payment_success')).toHaveLength(0);

    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([]);
    expect(gameRow(ctx, gameId).status).toBe('waiting');
  });

  test('after a decline the player fixes the card, picks again and enters', async () => {
    const ctx = await gameStore();
    const dora = await player(ctx, 'dora', decliningCardToken());
    const productId = book(ctx).id;
    await pick(dora, productId, picks(ctx, 5));
    expect((await pay(dora, productId)).status).toBe(402);
    ctx.clock.advance(MINUTE);
    expect(
      (await dora.client.request('PATCH', '/api/user/profile', { json: { paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } } })).status,
    ).toBe(200);
    const again = await pick(dora, productId, picks(ctx, 6));
    const paid = await pay(dora, productId);
    expect(paid.status).toBe(201);
    expect(playRow(ctx, again.id)).toMatchObject({ status: 'entered', influencerIds: picks(ctx, 6) });
    expect(notesOf(ctx, dora.id, 'payment_success')[0]!.message).toBe(
      'Your $1 game entry for The Old Man and the Sea is held on your card: it is charged when the game is settled, and released if the game is canceled.',
    );
  });
});
