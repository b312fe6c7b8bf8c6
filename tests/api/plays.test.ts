import { describe, expect, test } from 'bun:test';
import { games, plays } from '../../src/db/schema.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { aviator, book, competition, enter, gameStore, MINUTE, pay, picks, player, playRows, postPayment, postPlay } from '../helpers/games.ts';
import { setShelf } from '../helpers/variants.ts';

/*
 * POST /api/plays (spec section 7) through app.request(): picking five influencers for a
 * product's game, with every rule of spec section 5 and its message.
 */

const PICK_FIVE = 'Please select exactly 5 influencers.';
const SIGN_IN = 'Please login or register to place a play.';

describe('POST /api/plays: the rules of spec section 5', () => {
  test('signed out: 401 "Please login or register to place a play." (plays and payments); nothing stored', async () => {
    const ctx = await gameStore();
    const visitor = ctx.client();
    const play = await postPlay(visitor, { productId: book(ctx).id, influencerIds: picks(ctx, 0) });
    expect(play.status).toBe(401);
    expect((await play.json()).message).toBe(SIGN_IN);
    const payment = await postPayment(visitor, { productId: book(ctx).id, amount: 1, type: 'play' });
    expect(payment.status).toBe(401);
    expect((await payment.json()).message).toBe(SIGN_IN);
    expect(ctx.db.select().from(games).all()).toHaveLength(0);
  });

  test('a registered user (real sign-up) with a saved card enters: 201 pending, then 201 entered', async () => {
    const ctx = await gameStore();
    const client = ctx.client();
    expect((await client.post('/api/register', { json: { username: 'reader', password: 'secret-pass' } })).status).toBe(201);
    expect(
      (await client.request('PATCH', '/api/user/profile', { json: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } } }))
        .status,
    ).toBe(200);
    const productId = book(ctx).id;
    const refused = await client.post('/api/plays', { json: { productId: String(productId), influencerIds: picks(ctx, 0) } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'PLAY_CONSENT_REQUIRED' });
    expect((await client.post('/api/user/play-consent', { json: { adult: true, acceptRules: true } })).status).toBe(200);
    const made = await client.post('/api/plays', { json: { productId: String(productId), influencerIds: picks(ctx, 0) } });
    expect(made.status).toBe(201);
    const play = await made.json();
    // A copy: Bun 1.4.5's toMatchObject writes its asymmetric matchers into the object it checks.
    expect({ ...play }).toMatchObject({ productId, status: 'pending', influencerIds: picks(ctx, 0), gameId: expect.any(Number), id: expect.any(Number) });
    const paid = await client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } });
    expect(paid.status).toBe(201);
    expect(await paid.json()).toMatchObject({ playId: play.id, status: 'entered', gameId: play.gameId, productId, amount: 1 });
    const view = await competition(ctx, productId);
    expect(view).toMatchObject({ gameId: play.gameId, gameStatus: 'waiting', participants: 1, requiredParticipants: 2 });
  });

  test.each([
    ['four', (ids: string[]) => ids.slice(0, 4)],
    ['six', (ids: string[]) => [...ids, String(Number(ids[4]) + 1)]],
    ['none', () => []],
    ['a duplicate', (ids: string[]) => [ids[0], ids[0], ids[1], ids[2], ids[3]]],
    ['a string, not an array', (ids: string[]) => ids.join(',')],
    ['missing', () => undefined],
    ['an object', (ids: string[]) => ({ ...ids })],
    ['a blank id', (ids: string[]) => [...ids.slice(0, 4), '']],
    ['a non-numeric id', (ids: string[]) => [...ids.slice(0, 4), 'abc']],
    ['a zero id', (ids: string[]) => [...ids.slice(0, 4), '0']],
    ['a fractional id', (ids: string[]) => [...ids.slice(0, 4), '2.5']],
    ['a null id', (ids: string[]) => [...ids.slice(0, 4), null]],
  ])('influencerIds %s: 400 "Please select exactly 5 influencers."; no play, no game', async (_label, make) => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const response = await postPlay(alice, { productId: book(ctx).id, influencerIds: make(picks(ctx, 0)) });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe(PICK_FIVE);
    expect(body.fields).toEqual({ influencerIds: PICK_FIVE });
    expect(playRows(ctx, alice.id)).toHaveLength(0);
    expect(ctx.db.select().from(games).all()).toHaveLength(0);
  });

  test('numbers as well as strings are accepted, and stored as strings', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const response = await postPlay(alice, { productId: book(ctx).id, influencerIds: picks(ctx, 0).map(Number) });
    expect(response.status).toBe(201);
    expect((await response.json()).influencerIds).toEqual(picks(ctx, 0));
  });

  test('an unknown influencer id: 400 with the unknown-id message', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const response = await postPlay(alice, { productId: book(ctx).id, influencerIds: [...picks(ctx, 0).slice(0, 4), '9999'] });
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.message).toBe('One of the chosen influencers does not exist.');
    expect(body.fields.influencerIds).toBe(body.message);
    expect(playRows(ctx, alice.id)).toHaveLength(0);
  });

  // BUG (src/domain/games/entry.ts checkInfluencers): duplicates are looked for among the
  // strings as sent, not the ids they name, so ['1', '01', ...] or [1, '1.0', ...] pass the
  // "5 different" check and are then reported as an unknown influencer instead of
  // 'Please select exactly 5 influencers.'.
  test('the same influencer written two ways is a duplicate: "Please select exactly 5 influencers."', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const ids = picks(ctx, 0);
    const response = await postPlay(alice, { productId: book(ctx).id, influencerIds: [ids[0], `0${ids[0]}`, ids[1], ids[2], ids[3]] });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(PICK_FIVE);
  });

  test('a product that is not playEnabled: 409', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const response = await postPlay(alice, { productId: aviator(ctx).id, influencerIds: picks(ctx, 0) });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe('Games are not open for this product.');
    expect(ctx.db.select().from(games).all()).toHaveLength(0);
  });

  test('a playEnabled product that is out of stock: 409', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    setShelf(ctx.db, book(ctx).id, 0);
    const response = await postPlay(alice, { productId: book(ctx).id, influencerIds: picks(ctx, 0) });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toContain('out of stock');
    expect(ctx.db.select().from(games).all()).toHaveLength(0);
  });

  test('an unknown product: 404 "Product not found"', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const response = await postPlay(alice, { productId: 999999, influencerIds: picks(ctx, 0) });
    expect(response.status).toBe(404);
    expect((await response.json()).message).toBe('Product not found');
  });

  // Issue 11: `true` was read as product 1 and '0x10' as 16; a product id is a positive whole number or its decimal text.
  test.each([
    ['text', 'abc'],
    ['missing', undefined],
    ['negative', -1],
    ['fractional', 1.5],
    ['true', true],
    ['hex text', '0x1'],
    ['an exponent', '1e0'],
  ])('product %s: 400 "Choose a product by its id.", no play stored', async (_label, productId) => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const response = await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Choose a product by its id.', fields: { productId: 'Choose a product by its id.' } });
    expect(ctx.db.select().from(plays).all()).toHaveLength(0);
  });

  test('no card on file: 402 with code PAYMENT_METHOD_REQUIRED; no play stored', async () => {
    const ctx = await gameStore();
    const nocard = await player(ctx, 'nocard', false);
    const response = await postPlay(nocard, { productId: book(ctx).id, influencerIds: picks(ctx, 0) });
    expect(response.status).toBe(402);
    const body = await response.json();
    expect(body.code).toBe('PAYMENT_METHOD_REQUIRED');
    expect(body.message).toBeTruthy();
    expect(playRows(ctx, nocard.id)).toHaveLength(0);
  });

  test('bodies that are not a JSON object: 400 or 415, never 500', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    expect((await postPlay(alice, [1, 2, 3])).status).toBe(400);
    expect((await postPlay(alice, 'text')).status).toBe(400);
    expect((await alice.client.post('/api/plays', { body: '{not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await alice.client.post('/api/plays', { body: 'productId=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
  });

  test('one play per user per game: a second entry after paying is 409 "You have already joined this game."', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    const first = await enter(alice, productId, picks(ctx, 0));
    const again = await postPlay(alice, { productId, influencerIds: picks(ctx, 5) });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe('You have already joined this game.');
    expect(playRows(ctx, alice.id)).toEqual([expect.objectContaining({ id: first.id, status: 'entered', influencerIds: picks(ctx, 0) })]);
    // And no second payment: there is no pending play left.
    expect((await pay(alice, productId)).status).toBe(404);
    expect(ctx.gateway.payments()).toHaveLength(1);
  });

  test('re-picking before paying replaces the picks (same play, one row) and restarts the 15 minutes', async () => {
    const ctx = await gameStore();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    const first = await (await postPlay(alice, { productId, influencerIds: picks(ctx, 0) })).json();
    ctx.clock.advance(10 * MINUTE);
    const second = await postPlay(alice, { productId, influencerIds: picks(ctx, 7) });
    expect(second.status).toBe(201);
    const replaced = await second.json();
    expect(replaced).toMatchObject({ id: first.id, gameId: first.gameId, influencerIds: picks(ctx, 7), status: 'pending' });
    expect(playRows(ctx, alice.id)).toHaveLength(1);
    // 20 minutes after the first pick but 10 after the second: still payable.
    ctx.clock.advance(10 * MINUTE);
    expect((await pay(alice, productId)).status).toBe(201);
    expect(playRows(ctx, alice.id)[0]).toMatchObject({ status: 'entered', influencerIds: picks(ctx, 7) });
  });
});
