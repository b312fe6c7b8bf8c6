import { describe, expect, test } from 'bun:test';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { OUTSIDE_DELIVERY_MESSAGE } from '../../src/shared/prize-delivery.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import {
  book,
  END,
  gameRow,
  gameStore,
  type GameStore,
  notesOf,
  pay,
  picks,
  player,
  playRows,
  postPayment,
  postPlay,
  prizeLines,
  START,
} from '../helpers/games.ts';

/* Issue 27, item 3: eligibility before money. Prizes are delivered in 92651 only. */

/** A player whose profile address is in Irvine (92618), with a working card. */
async function irvinePlayer(ctx: GameStore, username: string) {
  const made = await player(ctx, username, false);
  const address = { ...COMPLETE_PROFILE.address, city: 'Irvine', postalCode: '92618' };
  const saved = await made.client.request('PATCH', '/api/user/profile', {
    json: { ...COMPLETE_PROFILE, address, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } },
  });
  expect(saved.status).toBe(200);
  return made;
}

describe('a player outside 92651', () => {
  test.each([
    ['without the answer', {}],
    ['having said no', { donateIfWon: false }],
  ])('picks %s: 422 with the message on donateIfWon, no play, no hold', async (_label, extra) => {
    const ctx = await gameStore();
    const irene = await irvinePlayer(ctx, 'irene');
    const productId = book(ctx).id;
    const response = await postPlay(irene, { productId, influencerIds: picks(ctx, 0), ...extra });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body).toMatchObject({ message: OUTSIDE_DELIVERY_MESSAGE, code: 'PRIZE_NOT_DELIVERABLE', fields: { donateIfWon: OUTSIDE_DELIVERY_MESSAGE } });
    expect(body.message).toContain("tick 'If I win, the prize goes to charity'");
    expect(playRows(ctx, irene.id)).toHaveLength(0);
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('ticking charity enters her; the choice is kept on the play', async () => {
    const ctx = await gameStore();
    const irene = await irvinePlayer(ctx, 'irene');
    const productId = book(ctx).id;
    const picked = await postPlay(irene, { productId, influencerIds: picks(ctx, 0), donateIfWon: true });
    expect(picked.status).toBe(201);
    expect(await picked.json()).toMatchObject({ donateIfWon: true, status: 'pending' });
    const paid = await postPayment(irene, { productId, amount: 1, type: 'play', donateIfWon: true });
    expect(paid.status).toBe(201);
    expect(playRows(ctx, irene.id)[0]).toMatchObject({ status: 'entered', donateIfWon: true });
  });

  test('taking the answer back at payment is refused before any hold; the pick stays pending', async () => {
    const ctx = await gameStore();
    const irene = await irvinePlayer(ctx, 'irene');
    const productId = book(ctx).id;
    expect((await postPlay(irene, { productId, influencerIds: picks(ctx, 0), donateIfWon: true })).status).toBe(201);
    const response = await postPayment(irene, { productId, amount: 1, type: 'play', donateIfWon: false });
    expect(response.status).toBe(422);
    expect((await response.json()).message).toBe(OUTSIDE_DELIVERY_MESSAGE);
    expect(ctx.gateway.payments()).toHaveLength(0);
    expect(playRows(ctx, irene.id)[0]).toMatchObject({ status: 'pending', donateIfWon: true });
  });

  test('a player in 92651 needs no answer', async () => {
    const ctx = await gameStore();
    const lena = await player(ctx, 'lena');
    const productId = book(ctx).id;
    expect((await postPlay(lena, { productId, influencerIds: picks(ctx, 0) })).status).toBe(201);
    expect((await pay(lena, productId)).status).toBe(201);
    expect(playRows(ctx, lena.id)[0]).toMatchObject({ status: 'entered', donateIfWon: false });
  });

  test('her win goes to charity when the game settles: no cart line, and the win says so', async () => {
    const ctx = await gameStore();
    const irene = await irvinePlayer(ctx, 'irene');
    const ivan = await irvinePlayer(ctx, 'ivan');
    const productId = book(ctx).id;
    for (const [who, from] of [
      [irene, 0],
      [ivan, 5],
    ] as const) {
      expect((await postPlay(who, { productId, influencerIds: picks(ctx, from), donateIfWon: true })).status).toBe(201);
      expect((await pay(who, productId)).status).toBe(201);
      ctx.clock.advance(1_000);
    }
    ctx.clock.set(START);
    const [gameId] = (await runGameJobs(ctx.deps)).started;
    ctx.clock.set(END);
    await runGameJobs(ctx.deps);
    const game = gameRow(ctx, gameId!);
    expect(game).toMatchObject({ status: 'completed', prizeOutcome: 'donated' });
    expect(prizeLines(ctx)).toHaveLength(0);
    const winnerId = [irene, ivan].find((p) => playRows(ctx, p.id)[0]!.id === game.winnerPlayId)!.id;
    const won = notesOf(ctx, winnerId, 'game_won');
    expect(won).toHaveLength(1);
    expect(won[0]!.message).toContain('the prize goes to charity');
  });
});
