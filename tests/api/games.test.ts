import { describe, expect, test } from 'bun:test';
import { and, asc, eq } from 'drizzle-orm';
import { games, influencers, payments, plays, products, users } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { seedInfluencers } from '../../src/db/seed-influencers.ts';
import { expectedScore as scoreUnderSeed } from '../helpers/games.ts';
import { giveConsent } from '../helpers/actors.ts';
import { createSession, generateSessionToken } from '../../src/domain/sessions.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { testApp, type TestClient } from '../helpers/app.ts';

/*
 * The game calls of spec section 7 through app.request(): POST /api/plays and
 * POST /api/payments with every rule of spec section 5 and its message, the read APIs
 * (influencers, competition, plays, games, winners, user plays) and the manual clock route.
 */

// ---------------------------------------------------------------- helpers

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2026, 10, 21, 18, 10);
const START = Date.UTC(2026, 10, 21, 19, 0);
const END = START + HOUR;

const PICK_FIVE = 'Please select exactly 5 influencers.';
const SIGN_IN = 'Please login or register to place a play.';

type Ctx = Awaited<ReturnType<typeof store>>;
interface Player {
  client: TestClient;
  id: number;
  username: string;
}

/** A seeded store at 18:10 on the manual clock; the test clock route is on. */
async function store(env: Record<string, string> = { CLOCK: 'manual' }) {
  const ctx = await testApp(env);
  ctx.clock.set(T0);
  seedIfEmpty(ctx.db, ctx.clock);
  return ctx;
}

function productBy(ctx: Ctx, brand: string, model?: string) {
  const row = ctx.db
    .select()
    .from(products)
    .where(model ? and(eq(products.brand, brand), eq(products.model, model)) : eq(products.brand, brand))
    .get();
  if (!row) throw new Error(`no seeded product ${brand} ${model ?? ''}`);
  return row;
}
/** $2, 6 in stock, playEnabled: 2 players. */
const book = (ctx: Ctx) => productBy(ctx, 'The Old Man and the Sea');
/** $8, playEnabled: 8 players. */
const giftBook = (ctx: Ctx) => productBy(ctx, 'Gift from the Sea');
/** $12 tee, playEnabled: 12 players. */
const vansTee = (ctx: Ctx) => productBy(ctx, 'Vans', 'VN000GGG-BLK');
/** $171 Aviator: not playEnabled. */
const aviator = (ctx: Ctx) => productBy(ctx, 'Ray-Ban', 'RB3025-L0205');

function influencerIds(ctx: Ctx): number[] {
  return ctx.db
    .select({ id: influencers.id })
    .from(influencers)
    .orderBy(asc(influencers.id))
    .all()
    .map((i) => i.id);
}
const picks = (ctx: Ctx, from: number) =>
  influencerIds(ctx)
    .slice(from, from + 5)
    .map(String);

/** A signed-in player made in the database; a card is saved through the API unless `card` is false. */
async function player(ctx: Ctx, username: string, card = true): Promise<Player> {
  const user = ctx.db.insert(users).values({ username, passwordHash: 'unused', createdAt: ctx.clock.now() }).returning().get();
  giveConsent(ctx, user.id);
  const token = generateSessionToken();
  createSession(ctx.db, ctx.clock, token, user.id);
  const client = ctx.client();
  client.cookies.set('csa_session', token);
  if (card) {
    const saved = await client.request('PATCH', '/api/user/profile', {
      json: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId: 'cnon:card-nonce-ok' } },
    });
    expect(saved.status).toBe(200);
  }
  return { client, id: user.id, username };
}

const postPlay = (p: Player | TestClient, json: unknown) => ('client' in p ? p.client : p).post('/api/plays', { json });
const postPayment = (p: Player | TestClient, json: unknown) => ('client' in p ? p.client : p).post('/api/payments', { json });
const payOne = (p: Player, productId: number) => postPayment(p, { productId, amount: 1, type: 'play' });

async function enter(p: Player, productId: number, influencerIds: string[]) {
  const made = await postPlay(p, { productId, influencerIds });
  expect(made.status).toBe(201);
  const play = (await made.json()) as { id: number; gameId: number };
  const paid = await payOne(p, productId);
  expect(paid.status).toBe(201);
  return play;
}

const clockRoute = (client: TestClient, json: unknown) => client.post('/api/test/clock', { json });
const competition = async (ctx: Ctx, productId: number) => {
  const response = await ctx.client().get(`/api/products/${productId}/competition`);
  expect(response.status).toBe(200);
  return response.json();
};
const playRows = (ctx: Ctx, userId: number) => ctx.db.select().from(plays).where(eq(plays.userId, userId)).orderBy(asc(plays.id)).all();

function expectedScore(ctx: Ctx, ids: string[], from: number, to: number, gameId?: number): number {
  return scoreUnderSeed(ctx.db, ids, from, to, gameId);
}

/** The $2 book's game filled at 18:10 by two players with different picks. */
async function filledBook(ctx: Ctx) {
  const alice = await player(ctx, 'alice');
  const bob = await player(ctx, 'bob');
  const productId = book(ctx).id;
  const a = await enter(alice, productId, picks(ctx, 0));
  ctx.clock.advance(1_000);
  const b = await enter(bob, productId, picks(ctx, 5));
  return { alice, bob, productId, gameId: a.gameId, alicePlay: a.id, bobPlay: b.id };
}

// ---------------------------------------------------------------- POST /api/plays

describe('POST /api/plays: the rules of spec section 5', () => {
  test('signed out: 401 "Please login or register to place a play." (plays and payments); nothing stored', async () => {
    const ctx = await store();
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
    const ctx = await store();
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
    const ctx = await store();
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
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const response = await postPlay(alice, { productId: book(ctx).id, influencerIds: picks(ctx, 0).map(Number) });
    expect(response.status).toBe(201);
    expect((await response.json()).influencerIds).toEqual(picks(ctx, 0));
  });

  test('an unknown influencer id: 400 with the unknown-id message', async () => {
    const ctx = await store();
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
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const ids = picks(ctx, 0);
    const response = await postPlay(alice, { productId: book(ctx).id, influencerIds: [ids[0], `0${ids[0]}`, ids[1], ids[2], ids[3]] });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(PICK_FIVE);
  });

  test('a product that is not playEnabled: 409', async () => {
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const response = await postPlay(alice, { productId: aviator(ctx).id, influencerIds: picks(ctx, 0) });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toBe('Games are not open for this product.');
    expect(ctx.db.select().from(games).all()).toHaveLength(0);
  });

  test('a playEnabled product that is out of stock: 409', async () => {
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    ctx.db
      .update(products)
      .set({ quantity: 0 })
      .where(eq(products.id, book(ctx).id))
      .run();
    const response = await postPlay(alice, { productId: book(ctx).id, influencerIds: picks(ctx, 0) });
    expect(response.status).toBe(409);
    expect((await response.json()).message).toContain('out of stock');
    expect(ctx.db.select().from(games).all()).toHaveLength(0);
  });

  test('an unknown product: 404 "Product not found"', async () => {
    const ctx = await store();
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
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const response = await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Choose a product by its id.', fields: { productId: 'Choose a product by its id.' } });
    expect(ctx.db.select().from(plays).all()).toHaveLength(0);
  });

  test('no card on file: 402 with code PAYMENT_METHOD_REQUIRED; no play stored', async () => {
    const ctx = await store();
    const nocard = await player(ctx, 'nocard', false);
    const response = await postPlay(nocard, { productId: book(ctx).id, influencerIds: picks(ctx, 0) });
    expect(response.status).toBe(402);
    const body = await response.json();
    expect(body.code).toBe('PAYMENT_METHOD_REQUIRED');
    expect(body.message).toBeTruthy();
    expect(playRows(ctx, nocard.id)).toHaveLength(0);
  });

  test('bodies that are not a JSON object: 400 or 415, never 500', async () => {
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    expect((await postPlay(alice, [1, 2, 3])).status).toBe(400);
    expect((await postPlay(alice, 'text')).status).toBe(400);
    expect((await alice.client.post('/api/plays', { body: '{not json', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await alice.client.post('/api/plays', { body: 'productId=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
  });

  test('one play per user per game: a second entry after paying is 409 "You have already joined this game."', async () => {
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    const first = await enter(alice, productId, picks(ctx, 0));
    const again = await postPlay(alice, { productId, influencerIds: picks(ctx, 5) });
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe('You have already joined this game.');
    expect(playRows(ctx, alice.id)).toEqual([expect.objectContaining({ id: first.id, status: 'entered', influencerIds: picks(ctx, 0) })]);
    // And no second payment: there is no pending play left.
    expect((await payOne(alice, productId)).status).toBe(404);
    expect(ctx.gateway.payments()).toHaveLength(1);
  });

  test('re-picking before paying replaces the picks (same play, one row) and restarts the 15 minutes', async () => {
    const ctx = await store();
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
    expect((await payOne(alice, productId)).status).toBe(201);
    expect(playRows(ctx, alice.id)[0]).toMatchObject({ status: 'entered', influencerIds: picks(ctx, 7) });
  });
});

// ---------------------------------------------------------------- POST /api/payments

describe('POST /api/payments: the $1 entry', () => {
  test.each([
    ['amount 2', { amount: 2, type: 'play' }],
    ['amount 0.5', { amount: 0.5, type: 'play' }],
    ['amount missing', { type: 'play' }],
    ['amount as text', { amount: 'one', type: 'play' }],
    ['type regular', { amount: 1, type: 'regular' }],
    ['type missing', { amount: 1 }],
  ])('%s: 400, nothing charged, the play stays pending', async (_label, body) => {
    const ctx = await store();
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
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    expect((await payOne(alice, productId)).status).toBe(404);
    // A play for another product does not count for this one.
    await postPlay(alice, { productId: giftBook(ctx).id, influencerIds: picks(ctx, 0) });
    const response = await payOne(alice, productId);
    expect(response.status).toBe(404);
    expect((await response.json()).message).toContain('Pick your 5 influencers first');
    expect(ctx.gateway.payments()).toHaveLength(0);
  });

  test('success: 201, $1 authorized (not captured), the entry counts, payment_success written', async () => {
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    const play = await (await postPlay(alice, { productId, influencerIds: picks(ctx, 0) })).json();
    expect((await competition(ctx, productId)).participants).toBe(0);
    const response = await payOne(alice, productId);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ id: play.id, status: 'entered', amount: 1 });
    expect(ctx.gateway.payments()).toEqual([expect.objectContaining({ status: 'APPROVED', amountCents: 100 })]);
    expect(ctx.db.select().from(payments).all()).toEqual([
      expect.objectContaining({ kind: 'play_authorization', status: 'authorized', amountCents: 100, playId: play.id }),
    ]);
    const view = await competition(ctx, productId);
    expect(view).toMatchObject({ participants: 1, plays: [expect.objectContaining({ id: play.id, userId: alice.id, influencerIds: picks(ctx, 0) })] });
    const bell = await (await alice.client.get('/api/notifications')).json();
    const success = bell.notifications.filter((n: { type: string }) => n.type === 'payment_success');
    expect(success).toHaveLength(1);
    expect(success[0].message).toBe('Your payment of $1 for The Old Man and the Sea game entry has been processed.');
    // One more is needed: game_ready 'Only needed 1 more player'.
    const ready = bell.notifications.filter((n: { type: string }) => n.type === 'game_ready');
    expect(ready).toHaveLength(1);
    expect(ready[0].message).toContain('Only needed 1 more player');
  });

  test('a play left unpaid for 15+ minutes cannot be paid (404) and is void after a tick', async () => {
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    const tick = await clockRoute(alice.client, { advanceMs: 15 * MINUTE + 1 });
    expect(tick.status).toBe(200);
    expect(playRows(ctx, alice.id)[0]!.status).toBe('void');
    expect((await payOne(alice, productId)).status).toBe(404);
    expect(ctx.gateway.payments()).toHaveLength(0);
    expect((await competition(ctx, productId)).participants).toBe(0);
  });

  test('unpaid for 15+ minutes without a tick: still 404 (the time alone decides)', async () => {
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    await postPlay(alice, { productId, influencerIds: picks(ctx, 0) });
    ctx.clock.advance(16 * MINUTE);
    expect((await payOne(alice, productId)).status).toBe(404);
    expect(playRows(ctx, alice.id)[0]!.status).toBe('pending');
    await clockRoute(alice.client, { advanceMs: 0 });
    expect(playRows(ctx, alice.id)[0]!.status).toBe('void');
    // Picking again gives a fresh 15 minutes.
    expect((await postPlay(alice, { productId, influencerIds: picks(ctx, 0) })).status).toBe(201);
    expect((await payOne(alice, productId)).status).toBe(201);
  });

  test('a game takes exactly its players: a pick into a full game opens the next one, and the started game keeps its players', async () => {
    const ctx = await store();
    const { productId, gameId } = await filledBook(ctx);
    const carol = await player(ctx, 'carol');
    ctx.clock.set(START - 3 * MINUTE);
    const next = await (await postPlay(carol, { productId, influencerIds: picks(ctx, 2) })).json();
    expect(next.gameId).not.toBe(gameId);
    await clockRoute(carol.client, { now: START });
    expect((await payOne(carol, productId)).status).toBe(201);
    const view = await competition(ctx, productId);
    expect(view).toMatchObject({ gameId, gameStatus: 'active', participants: 2, nextGame: { id: next.gameId, participants: 1, requiredParticipants: 2 } });
    expect(view.plays.map((p: { userId: number }) => p.userId)).not.toContain(carol.id);
  });
});

// ---------------------------------------------------------------- read APIs

describe('GET /api/influencers', () => {
  test('16 influencers; platforms as K/M/B text; metrics per platform; a numeric score', async () => {
    const ctx = await store();
    const response = await ctx.client().get('/api/influencers');
    expect(response.status).toBe(200);
    const list = await response.json();
    expect(list).toHaveLength(16);
    expect(list.map((i: { handle: string }) => i.handle)).toEqual(seedInfluencers.map((i) => i.handle));
    const suffixes = new Set<string>();
    for (const person of list) {
      expect({ ...person }).toMatchObject({ id: expect.any(Number), name: expect.any(String), handle: expect.any(String), avatar: expect.any(String) });
      const seeded = seedInfluencers.find((s) => s.handle === person.handle)!;
      expect(Object.keys(person.platforms).sort()).toEqual(Object.keys(seeded.platforms).sort());
      expect(Object.keys(person.metrics).sort()).toEqual(Object.keys(seeded.platforms).sort());
      for (const [platform, text] of Object.entries(person.platforms as Record<string, string>)) {
        expect(text).toMatch(/^\d+(\.\d)?[KMB]?$/);
        suffixes.add(text.slice(-1));
        const m = person.metrics[platform];
        expect(m).toEqual({ followers: expect.any(Number), engagement: expect.any(Number), growth: expect.any(Number), posts: expect.any(Number) });
        expect(m.followers).toBeGreaterThan(0);
      }
      expect(typeof person.score).toBe('number');
      expect(Number.isFinite(person.score)).toBe(true);
      expect(person.score).toBeGreaterThan(0);
    }
    expect(suffixes.has('M')).toBe(true);
    expect(suffixes.has('K')).toBe(true);
  });

  test('deterministic: the same minute gives the same list; another hour gives other scores', async () => {
    const ctx = await store();
    const first = await (await ctx.client().get('/api/influencers')).json();
    const second = await (await ctx.client().get('/api/influencers')).json();
    expect(second).toEqual(first);
    ctx.clock.advance(2 * HOUR);
    const later = await (await ctx.client().get('/api/influencers')).json();
    expect(later.map((i: { score: number }) => i.score)).not.toEqual(first.map((i: { score: number }) => i.score));
  });
});

describe('GET /api/products/{id}/competition and /plays', () => {
  test('no game yet: waiting, no plays, requiredParticipants 2 for the $2 book; 10 as fallback for a product without games', async () => {
    const ctx = await store();
    expect(await competition(ctx, book(ctx).id)).toMatchObject({ gameStatus: 'waiting', plays: [], metrics: [], requiredParticipants: 2, startTime: null });
    expect((await competition(ctx, giftBook(ctx).id)).requiredParticipants).toBe(8);
    expect((await competition(ctx, aviator(ctx).id)).requiredParticipants).toBe(10);
    expect((await ctx.client().get('/api/products/999999/competition')).status).toBe(404);
    expect((await ctx.client().get('/api/products/abc/competition')).status).toBe(404);
    expect((await ctx.client().get('/api/products/999999/plays')).status).toBe(404);
  });

  test('waiting → active with live scores that grow as the clock moves → completed with winnerPlayId', async () => {
    const ctx = await store();
    const alice = await player(ctx, 'alice');
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const a = await enter(alice, productId, picks(ctx, 0));

    const waiting = await competition(ctx, productId);
    expect(waiting).toMatchObject({ gameId: a.gameId, gameStatus: 'waiting', participants: 1, requiredParticipants: 2, startTime: null, endTime: null });
    expect(waiting.plays).toHaveLength(1);

    ctx.clock.advance(1_000);
    const b = await enter(bob, productId, picks(ctx, 5));
    expect((await competition(ctx, productId)).plays).toHaveLength(2);

    // The test clock route starts it at 19:00.
    await clockRoute(alice.client, { now: START + 10 * MINUTE });
    const early = await competition(ctx, productId);
    expect(early).toMatchObject({ gameStatus: 'active', startTime: START, endTime: END, participants: 2, requiredParticipants: 2 });
    const scoreAt = (view: { plays: { id: number; score: number }[] }, id: number) => view.plays.find((p) => p.id === id)!.score;
    expect(scoreAt(early, a.id)).toBeCloseTo(expectedScore(ctx, picks(ctx, 0), START, START + 10 * MINUTE), 3);
    expect(scoreAt(early, b.id)).toBeCloseTo(expectedScore(ctx, picks(ctx, 5), START, START + 10 * MINUTE), 3);
    expect(early.metrics).toHaveLength(10);

    await clockRoute(alice.client, { advanceMs: 30 * MINUTE });
    const later = await competition(ctx, productId);
    expect(later.gameStatus).toBe('active');
    expect(scoreAt(later, a.id)).toBeGreaterThan(scoreAt(early, a.id));
    expect(scoreAt(later, b.id)).toBeGreaterThan(scoreAt(early, b.id));
    expect(scoreAt(later, a.id)).toBeCloseTo(expectedScore(ctx, picks(ctx, 0), START, START + 40 * MINUTE), 3);
    // Ranked: the leader first.
    expect(later.plays[0].score).toBeGreaterThanOrEqual(later.plays[1].score);

    const plays = await (await ctx.client().get(`/api/products/${productId}/plays`)).json();
    expect(plays.map((p: { id: number }) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(plays.every((p: { score: number }) => typeof p.score === 'number')).toBe(true);

    await clockRoute(alice.client, { now: END });
    const done = await competition(ctx, productId);
    const finalA = expectedScore(ctx, picks(ctx, 0), START, END);
    const finalB = expectedScore(ctx, picks(ctx, 5), START, END);
    expect(done).toMatchObject({ gameStatus: 'completed', gameId: a.gameId, winnerPlayId: finalA > finalB ? a.id : b.id });
    expect(scoreAt(done, a.id)).toBeCloseTo(finalA, 3);
    expect(scoreAt(done, b.id)).toBeCloseTo(finalB, 3);
    // Settled scores no longer move.
    await clockRoute(alice.client, { advanceMs: 5 * HOUR });
    expect(await competition(ctx, productId)).toEqual(done);
  });
});

describe('GET /api/games/active and /api/games/winners', () => {
  test('active first, then fewest remaining slots; leaderUsername and highestScore for live games only', async () => {
    const ctx = await store();
    // Opened in this order so the sort cannot be by id: tee (needs 11), gift (needs 5), book (full → live).
    const tee = vansTee(ctx).id;
    const gift = giftBook(ctx).id;
    const players = await Promise.all(['p1', 'p2', 'p3', 'p4'].map((name) => player(ctx, name)));
    const teeGame = (await enter(players[0]!, tee, picks(ctx, 0))).gameId;
    let giftGame = 0;
    for (const [i, p] of players.slice(0, 3).entries()) giftGame = (await enter(p, gift, picks(ctx, i))).gameId;
    const { productId: bookId, gameId: bookGame, alice, bob } = await filledBook(ctx);

    const before = await (await ctx.client().get('/api/games/active')).json();
    // All waiting: fewest remaining first (book 0, gift 5, tee 11).
    expect(before.map((g: { id: number }) => g.id)).toEqual([bookGame, giftGame, teeGame]);
    expect(before.every((g: { leaderUsername: unknown; highestScore: unknown }) => g.leaderUsername === null && g.highestScore === null)).toBe(true);

    await clockRoute(alice.client, { now: START + 20 * MINUTE });
    const list = await (await ctx.client().get('/api/games/active')).json();
    expect(list.map((g: { id: number }) => g.id)).toEqual([bookGame, giftGame, teeGame]);
    expect(list[0]).toMatchObject({
      productId: bookId,
      status: 'active',
      startTime: START,
      endTime: END,
      participants: 2,
      requiredParticipants: 2,
      product: expect.objectContaining({ brand: 'The Old Man and the Sea', price: 2 }),
    });
    const aliceLive = expectedScore(ctx, picks(ctx, 0), START, START + 20 * MINUTE, bookGame);
    const bobLive = expectedScore(ctx, picks(ctx, 5), START, START + 20 * MINUTE, bookGame);
    expect(list[0].leaderUsername).toBe(aliceLive >= bobLive ? alice.username : bob.username);
    // The API rounds to 1 decimal: at most 0.05 away (toBeCloseTo's bound is strict, and a seed can land on .x5).
    expect(Math.abs(list[0].highestScore - Math.max(aliceLive, bobLive))).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(list[1]).toMatchObject({ status: 'waiting', participants: 3, requiredParticipants: 8, leaderUsername: null, highestScore: null });
    expect(list[2]).toMatchObject({ status: 'waiting', participants: 1, requiredParticipants: 12 });

    // After settlement the book game leaves the list and shows among the winners.
    await clockRoute(alice.client, { now: END });
    const after = await (await ctx.client().get('/api/games/active')).json();
    expect(after.map((g: { id: number }) => g.id)).toEqual([giftGame, teeGame]);
    const winners = await (await ctx.client().get('/api/games/winners')).json();
    expect(winners).toHaveLength(1);
    const finalA = expectedScore(ctx, picks(ctx, 0), START, END, bookGame);
    const finalB = expectedScore(ctx, picks(ctx, 5), START, END, bookGame);
    expect(winners[0]).toMatchObject({
      gameId: bookGame,
      productId: bookId,
      username: finalA > finalB ? alice.username : bob.username,
      productName: 'The Old Man and the Sea BK-OLDMAN-001',
      imageUrl: expect.any(String),
      date: END,
      donated: false,
    });
    expect(winners[0].score).toBeCloseTo(Math.round(Math.max(finalA, finalB) * 10) / 10, 5);
    expect(winners[0].playId).toBe(ctx.db.select().from(games).where(eq(games.id, bookGame)).get()!.winnerPlayId);
  });

  test('no games: both lists are empty', async () => {
    const ctx = await store();
    expect(await (await ctx.client().get('/api/games/active')).json()).toEqual([]);
    expect(await (await ctx.client().get('/api/games/winners')).json()).toEqual([]);
  });
});

describe('GET /api/user/plays', () => {
  test('401 signed out', async () => {
    const ctx = await store();
    expect((await ctx.client().get('/api/user/plays')).status).toBe(401);
  });

  test('pending and waiting entries have no rank; after settlement rank and won are set', async () => {
    const ctx = await store();
    const { alice, bob, productId, gameId, alicePlay, bobPlay } = await filledBook(ctx);
    const carol = await player(ctx, 'carol');
    await postPlay(carol, { productId, influencerIds: picks(ctx, 9) });

    const carols = await (await carol.client.get('/api/user/plays')).json();
    expect(carols).toEqual([expect.objectContaining({ productId, status: 'pending', rank: null, won: false })]);
    const waiting = await (await alice.client.get('/api/user/plays')).json();
    expect(waiting).toEqual([
      expect.objectContaining({
        id: alicePlay,
        gameId,
        status: 'entered',
        rank: null,
        won: false,
        game: expect.objectContaining({ status: 'waiting', participants: 2, requiredParticipants: 2 }),
      }),
    ]);
    expect(waiting[0].product).toMatchObject({ brand: 'The Old Man and the Sea' });

    await clockRoute(alice.client, { now: END });
    const finalA = expectedScore(ctx, picks(ctx, 0), START, END);
    const finalB = expectedScore(ctx, picks(ctx, 5), START, END);
    const aliceWon = finalA > finalB;
    const [mineA] = await (await alice.client.get('/api/user/plays')).json();
    const [mineB] = await (await bob.client.get('/api/user/plays')).json();
    expect(mineA).toMatchObject({
      id: alicePlay,
      rank: aliceWon ? 1 : 2,
      won: aliceWon,
      prizeOutcome: aliceWon ? 'cart' : null,
      game: expect.objectContaining({ status: 'completed', startTime: START, endTime: END }),
    });
    expect(mineB).toMatchObject({ id: bobPlay, rank: aliceWon ? 2 : 1, won: !aliceWon });
    expect(mineA.score).toBeCloseTo(Math.round(finalA * 10) / 10, 5);
    // Carol's pending play was voided at the start and is no longer listed.
    expect(await (await carol.client.get('/api/user/plays')).json()).toEqual([]);
  });
});

// ---------------------------------------------------------------- POST /api/test/clock

describe('POST /api/test/clock', () => {
  test('404 without CLOCK=manual; the clock does not move', async () => {
    const ctx = await store({});
    const before = ctx.clock.now();
    const response = await clockRoute(ctx.client(), { advanceMs: HOUR });
    expect(response.status).toBe(404);
    expect(ctx.clock.now()).toBe(before);
  });

  test('{ advanceMs } and { now } move the clock and answer the new time', async () => {
    const ctx = await store();
    const client = ctx.client();
    const advanced = await clockRoute(client, { advanceMs: 5 * MINUTE });
    expect(advanced.status).toBe(200);
    expect(await advanced.json()).toEqual({ now: T0 + 5 * MINUTE });
    expect(ctx.clock.now()).toBe(T0 + 5 * MINUTE);
    const set = await clockRoute(client, { now: START + 123 });
    expect(await set.json()).toEqual({ now: START + 123 });
    expect(ctx.clock.now()).toBe(START + 123);
    expect(await (await clockRoute(client, { advanceMs: 0 })).json()).toEqual({ now: START + 123 });
  });

  test('due jobs run before the answer: a filled game is active in the same request, and settled in a later one', async () => {
    const ctx = await store();
    const { alice, productId, gameId } = await filledBook(ctx);
    await clockRoute(alice.client, { now: START - 1 });
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()!.status).toBe('waiting');
    const response = await clockRoute(alice.client, { advanceMs: 1 });
    expect(response.status).toBe(200);
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()).toMatchObject({ status: 'active', startTime: START, endTime: END });
    expect(book(ctx).quantity).toBe(5);
    expect((await competition(ctx, productId)).gameStatus).toBe('active');
    await clockRoute(alice.client, { advanceMs: HOUR });
    expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()!.status).toBe('completed');
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
  });

  test.each([
    ['empty object', {}],
    ['negative advanceMs', { advanceMs: -1 }],
    ['advanceMs as text', { advanceMs: '60000' }],
    ['now as text', { now: '2026-11-21T19:00:00Z' }],
    ['now null', { now: null }],
    ['an array', [1000]],
    ['a number', 1000],
  ])('bad body (%s): 400, the clock does not move', async (_label, json) => {
    const ctx = await store();
    const response = await clockRoute(ctx.client(), json);
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBeTruthy();
    expect(ctx.clock.now()).toBe(T0);
  });

  test('invalid JSON: 400; not JSON at all: 415', async () => {
    const ctx = await store();
    expect((await ctx.client().post('/api/test/clock', { body: '{', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await ctx.client().post('/api/test/clock', { body: 'advanceMs=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(
      415,
    );
    expect(ctx.clock.now()).toBe(T0);
  });

  test('a cross-site POST is refused by the CSRF check', async () => {
    const ctx = await store();
    const response = await ctx.client().post('/api/test/clock', { json: { advanceMs: HOUR }, headers: { origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
    expect(ctx.clock.now()).toBe(T0);
  });
});
