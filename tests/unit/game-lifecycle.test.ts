import { describe, expect, test } from 'bun:test';
import { asc, eq } from 'drizzle-orm';
import { cartItems, games, influencerMetrics, influencers, notifications, orderItems, orders, payments, plays, products, users } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { payForPlay } from '../../src/domain/games/entry-payment.ts';
import { requiredParticipantsFor, type GameDeps } from '../../src/domain/games/entry.ts';
import { donatePrize, expireStaleGames, finalScores, runGameJobs, settleDueGames, settleGame, startDueGames } from '../../src/domain/games/lifecycle.ts';
import { isStarted, topOfHourAtOrAfter } from '../../src/domain/games/schedule.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { expectedScore as scoreUnderSeed, seedOf } from '../helpers/games.ts';
import { giveConsent } from '../helpers/actors.ts';
import { simulatedPoints } from '../../src/domain/games/simulation.ts';
import { findRecord } from '../../src/domain/games/record.ts';
import { PaymentFailure, type PaymentGateway } from '../../src/domain/payments/gateway.ts';
import { testTokenForCard } from '../../src/shared/test-cards.ts';
import { COMPLETE_PROFILE } from '../helpers/actors.ts';
import { holdsToMove, moveHolds } from '../../src/domain/games/holds.ts';
import { reconcilePayments } from '../../src/domain/payments/reconcile.ts';
import { createTestGateway } from '../../src/domain/payments/test-gateway.ts';
import { createSession, generateSessionToken } from '../../src/domain/sessions.ts';
import { testApp, type TestClient } from '../helpers/app.ts';

/*
 * The hourly game of DESIGN section 4, driven on the manual clock: start at the top of the
 * hour after filling, one unit of stock per started game, scoring over [startTime, endTime),
 * settlement that captures every hold once, the prize as a $1 `play` cart item, expiry after
 * 6 days, and jobs that are safe to run twice, at once, or after a restart.
 */

// ---------------------------------------------------------------- helpers

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Ten past an hour: a game that fills now starts at 19:00 and ends at 20:00 (UTC). */
const T0 = Date.UTC(2026, 10, 21, 18, 10);
const START = Date.UTC(2026, 10, 21, 19, 0);
const END = START + HOUR;

type Ctx = Awaited<ReturnType<typeof world>>;
interface Player {
  client: TestClient;
  id: number;
  username: string;
}

/** A seeded store on the manual clock at 18:10, with the game deps the jobs take. */
async function world(env: Record<string, string> = {}) {
  const ctx = await testApp(env);
  ctx.clock.set(T0);
  seedIfEmpty(ctx.db, ctx.clock);
  const deps: GameDeps = { db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics: simulatedMetrics };
  return { ...ctx, deps };
}

function productByBrand(ctx: Ctx, brand: string) {
  const row = ctx.db.select().from(products).where(eq(products.brand, brand)).get();
  if (!row) throw new Error(`no seeded product ${brand}`);
  return row;
}
/** $2, 6 in stock, playEnabled: two players fill its game. */
const book = (ctx: Ctx) => productByBrand(ctx, 'The Old Man and the Sea');
/** $8, 9 in stock, playEnabled: eight players fill its game. */
const giftBook = (ctx: Ctx) => productByBrand(ctx, 'Gift from the Sea');

const stockOf = (ctx: Ctx, productId: number) => ctx.db.select().from(products).where(eq(products.id, productId)).get()!.quantity;
const gameRow = (ctx: Ctx, id: number) => ctx.db.select().from(games).where(eq(games.id, id)).get()!;
const gamesOf = (ctx: Ctx, productId: number) => ctx.db.select().from(games).where(eq(games.productId, productId)).orderBy(asc(games.id)).all();
const playRow = (ctx: Ctx, id: number) => ctx.db.select().from(plays).where(eq(plays.id, id)).get()!;
const playsOfGame = (ctx: Ctx, gameId: number) => ctx.db.select().from(plays).where(eq(plays.gameId, gameId)).orderBy(asc(plays.id)).all();
const enteredOf = (ctx: Ctx, gameId: number) => playsOfGame(ctx, gameId).filter((p) => p.status === 'entered');
const holdsOf = (ctx: Ctx) => ctx.db.select().from(payments).where(eq(payments.kind, 'play_authorization')).orderBy(asc(payments.id)).all();
const notesOf = (ctx: Ctx, userId: number, type?: string) =>
  ctx.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.id))
    .all()
    .filter((n) => type === undefined || n.type === type);
const prizeLines = (ctx: Ctx) => ctx.db.select().from(cartItems).where(eq(cartItems.type, 'play')).all();

/** All 16 seeded influencer ids, in order. */
function influencerIds(ctx: Ctx): number[] {
  return ctx.db
    .select({ id: influencers.id })
    .from(influencers)
    .orderBy(asc(influencers.id))
    .all()
    .map((i) => i.id);
}
function picks(ctx: Ctx, from: number): string[] {
  return influencerIds(ctx)
    .slice(from, from + 5)
    .map(String);
}

/** A signed-in player made straight in the database, with a card saved through the API. */
async function player(ctx: Ctx, username: string, sourceId = 'cnon:card-nonce-ok'): Promise<Player> {
  const user = ctx.db.insert(users).values({ username, passwordHash: 'unused', createdAt: ctx.clock.now() }).returning().get();
  giveConsent(ctx, user.id);
  const token = generateSessionToken();
  createSession(ctx.db, ctx.clock, token, user.id);
  const client = ctx.client();
  client.cookies.set('csa_session', token);
  const saved = await client.request('PATCH', '/api/user/profile', { json: { ...COMPLETE_PROFILE, paymentMethod: { type: 'card', sourceId } } });
  expect(saved.status).toBe(200);
  return { client, id: user.id, username };
}

function decliningCardToken(): string {
  const made = testTokenForCard('4000000000000002', 12, 2030, '123');
  if ('error' in made) throw new Error(made.error);
  return made.token;
}

async function pick(p: Player, productId: number, influencerIds: string[]) {
  const response = await p.client.post('/api/plays', { json: { productId, influencerIds } });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; gameId: number; status: string };
}

async function pay(p: Player, productId: number) {
  return p.client.post('/api/payments', { json: { productId, amount: 1, type: 'play' } });
}

/** Picks five influencers and pays the $1: a counted entry. */
async function enter(p: Player, productId: number, influencerIds: string[]) {
  const play = await pick(p, productId, influencerIds);
  const paid = await pay(p, productId);
  expect(paid.status).toBe(201);
  expect(await paid.json()).toMatchObject({ status: 'entered', gameId: play.gameId, amount: 1 });
  return play;
}

/**
 * Two players enter the $2 book's game at 18:10 (filled), with different picks. Returns the
 * game id and both plays.
 */
async function filledBookGame(ctx: Ctx) {
  const alice = await player(ctx, 'alice');
  const bob = await player(ctx, 'bob');
  const productId = book(ctx).id;
  const a = await enter(alice, productId, picks(ctx, 0));
  ctx.clock.advance(1_000);
  const b = await enter(bob, productId, picks(ctx, 5));
  expect(b.gameId).toBe(a.gameId);
  return { alice, bob, productId, gameId: a.gameId, alicePlay: a.id, bobPlay: b.id };
}

/** The filled book game, started at 19:00 and ended at 20:00 (not yet settled). */
async function endedBookGame(ctx: Ctx) {
  const game = await filledBookGame(ctx);
  ctx.clock.set(START);
  expect((await runGameJobs(ctx.deps)).started).toEqual([game.gameId]);
  ctx.clock.set(END);
  return game;
}

/** Score of five influencers over [from, to), computed on its own from the metrics source. */
function expectedScore(ctx: Ctx, ids: string[], from: number, to: number): number {
  return scoreUnderSeed(ctx.db, ids, from, to);
}

/** A gateway that fails the first `failures` captures, then behaves. */
function flakyCaptures(inner: PaymentGateway, failures: number): PaymentGateway & { captureCalls: number } {
  let left = failures;
  const wrapped = {
    name: inner.name,
    captureCalls: 0,
    saveCard: (input: Parameters<PaymentGateway['saveCard']>[0]) => inner.saveCard(input),
    authorize: (input: Parameters<PaymentGateway['authorize']>[0]) => inner.authorize(input),
    charge: (input: Parameters<PaymentGateway['charge']>[0]) => inner.charge(input),
    void: (id: string) => inner.void(id),
    refund: (input: Parameters<PaymentGateway['refund']>[0]) => inner.refund(input),
    getPayment: (id: string) => inner.getPayment(id),
    findPayments: (ids: string[], since: number) => inner.findPayments(ids, since),
    async capture(id: string) {
      wrapped.captureCalls++;
      if (left > 0) {
        left--;
        throw new PaymentFailure('SERVICE_UNAVAILABLE', 'Try again later.', false);
      }
      return inner.capture(id);
    },
  };
  return wrapped;
}

// ---------------------------------------------------------------- small rules

describe('rules as functions', () => {
  test('requiredParticipantsFor: max(2, ceil(price))', () => {
    expect(requiredParticipantsFor(50)).toBe(2);
    expect(requiredParticipantsFor(100)).toBe(2);
    expect(requiredParticipantsFor(200)).toBe(2);
    expect(requiredParticipantsFor(201)).toBe(3);
    expect(requiredParticipantsFor(800)).toBe(8);
    expect(requiredParticipantsFor(17100)).toBe(171);
  });

  test('topOfHourAtOrAfter: the next minute 0 second 0, or the time itself when it is one', () => {
    expect(topOfHourAtOrAfter(T0)).toBe(START);
    expect(topOfHourAtOrAfter(START - 1)).toBe(START);
    expect(topOfHourAtOrAfter(START)).toBe(START);
    expect(topOfHourAtOrAfter(START + 1)).toBe(START + HOUR);
  });

  test('the simulated metrics are deterministic under one seed: the same window gives the same points', async () => {
    const ctx = await world();
    const person = ctx.db.select().from(influencers).get()!;
    const seed = 'ab'.repeat(32);
    const once = simulatedPoints(seed, person.id, person, START, END);
    expect(once).toBeGreaterThan(0);
    expect(simulatedPoints(seed, person.id, { ...person }, START, END)).toBe(once);
    // Two halves add up to the whole (to the rounding of each).
    const halves = simulatedPoints(seed, person.id, person, START, START + 30 * MINUTE) + simulatedPoints(seed, person.id, person, START + 30 * MINUTE, END);
    expect(halves).toBeCloseTo(once, 2);
  });
});

// ---------------------------------------------------------------- start

describe('a game starts at the top of the hour after it filled', () => {
  test('not enough players: still waiting hours and days later; no stock taken, nobody told it started', async () => {
    const ctx = await world();
    const alice = await player(ctx, 'alice');
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    for (const at of [START, START + 3 * HOUR, T0 + 2 * DAY, T0 + 5 * DAY]) {
      ctx.clock.set(at);
      expect((await runGameJobs(ctx.deps)).started).toEqual([]);
      expect(gameRow(ctx, gameId)).toMatchObject({ status: 'waiting', startTime: null, endTime: null });
    }
    expect(stockOf(ctx, productId)).toBe(6);
    expect(notesOf(ctx, alice.id, 'game_started')).toHaveLength(0);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['APPROVED']);
  });

  test('filled at 18:10: waiting at 18:59:59.999, active 19:00 to 20:00 after the 19:00 tick; one unit of stock reserved', async () => {
    const ctx = await world();
    const { alice, bob, productId, gameId } = await filledBookGame(ctx);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'waiting', requiredParticipants: 2 });
    expect(stockOf(ctx, productId)).toBe(6);

    ctx.clock.set(START - 1);
    expect(await runGameJobs(ctx.deps)).toEqual({ started: [], settled: [], canceled: [] });
    expect(gameRow(ctx, gameId).status).toBe('waiting');

    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'active', startTime: START, endTime: END });
    expect(stockOf(ctx, productId)).toBe(5);

    // More ticks during the hour change nothing and take no more stock.
    for (const at of [START, START + 10 * MINUTE, END - 1]) {
      ctx.clock.set(at);
      expect(await runGameJobs(ctx.deps)).toEqual({ started: [], settled: [], canceled: [] });
    }
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'active', startTime: START, endTime: END });
    expect(stockOf(ctx, productId)).toBe(5);
    for (const p of [alice, bob]) {
      const started = notesOf(ctx, p.id, 'game_started');
      expect(started).toHaveLength(1);
      expect(started[0]).toMatchObject({ gameId, productId, title: 'Game started' });
    }
    // Holds are only authorized while the game runs; nothing is charged yet.
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['APPROVED', 'APPROVED']);
  });

  test('the server was down at 19:00: a tick at 19:30 still starts it with startTime 19:00', async () => {
    const ctx = await world();
    const { gameId, productId } = await filledBookGame(ctx);
    ctx.clock.set(START + 30 * MINUTE);
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'active', startTime: START, endTime: END });
    expect(stockOf(ctx, productId)).toBe(5);
  });

  test('startDueGames on its own honours the `now` it is given', async () => {
    const ctx = await world();
    const { gameId } = await filledBookGame(ctx);
    expect(await startDueGames(ctx.deps, START - 1)).toEqual([]);
    expect(await startDueGames(ctx.deps, START)).toEqual([gameId]);
    expect(await startDueGames(ctx.deps, START)).toEqual([]);
  });

  test('filled exactly on the hour: it starts at that very hour', async () => {
    const ctx = await world();
    const alice = await player(ctx, 'alice');
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    ctx.clock.set(START);
    await enter(bob, productId, picks(ctx, 5));
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
    expect(gameRow(ctx, gameId)).toMatchObject({ startTime: START, endTime: END });
  });

  test('late entry after the start: POST /api/plays opens a NEW waiting game; the started game takes no entry', async () => {
    const ctx = await world();
    const { gameId, productId, alice } = await filledBookGame(ctx);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    const carol = await player(ctx, 'carol');

    ctx.clock.set(START + 5 * MINUTE);
    const late = await enter(carol, productId, picks(ctx, 3));
    expect(late.gameId).not.toBe(gameId);
    expect(gameRow(ctx, late.gameId)).toMatchObject({ status: 'waiting', productId, requiredParticipants: 2 });
    expect(enteredOf(ctx, gameId)).toHaveLength(2);
    expect(enteredOf(ctx, gameId).map((p) => p.userId)).not.toContain(carol.id);

    // A player of the running game may also queue for the next one.
    const again = await enter(alice, productId, picks(ctx, 8));
    expect(again.gameId).toBe(late.gameId);
    expect(gamesOf(ctx, productId).map((g) => g.status)).toEqual(['active', 'waiting']);

    // The new game fills at 19:05, so it starts at 20:00 as the first one settles.
    ctx.clock.set(END);
    const run = await runGameJobs(ctx.deps);
    expect(run.settled).toEqual([gameId]);
    expect(run.started).toEqual([late.gameId]);
    expect(gameRow(ctx, late.gameId)).toMatchObject({ status: 'active', startTime: END, endTime: END + HOUR });
    // One unit per started game: 6 - 1 - 1.
    expect(stockOf(ctx, productId)).toBe(4);
  });

  test('a play picked before the start but paid after it never joins the started game', async () => {
    const ctx = await world();
    const { gameId, productId, carol, pending } = await filledWithCarolPending(ctx);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    expect(playRow(ctx, pending.id).status).toBe('void');

    ctx.clock.set(START + MINUTE);
    const paid = await pay(carol, productId);
    expect(paid.status).toBe(404);
    expect(enteredOf(ctx, gameId)).toHaveLength(2);
    expect(holdsOf(ctx).filter((h) => h.userId === carol.id)).toHaveLength(0);
  });

  test('payForPlay on a game that is no longer waiting: 409, the play is void and nobody is charged', async () => {
    const ctx = await world();
    const { gameId, productId, carol, pending } = await filledWithCarolPending(ctx);
    // Carol picked a minute before the start; the game moved on without the tick that voids
    // pending plays (another process claimed it).
    ctx.db
      .update(plays)
      .set({ createdAt: START - MINUTE })
      .where(eq(plays.id, pending.id))
      .run();
    ctx.db.update(games).set({ status: 'active', startTime: START, endTime: END }).where(eq(games.id, gameId)).run();
    ctx.clock.set(START + MINUTE);
    const error = await payForPlay(ctx.deps, carol.id, { productId, amount: 1, type: 'play' }).catch((e) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ status: 409 });
    expect(playRow(ctx, pending.id).status).toBe('void');
    expect(ctx.gateway.payments()).toHaveLength(2);
  });

  // A full game takes no more entries: a player who comes at 19:10 after downtime, before the
  // tick, joins the next game, never the one whose scoring began at 19:00.
  test('an entry made after the top of the hour, before the tick, goes to the next game', async () => {
    const ctx = await world();
    const { gameId, productId } = await filledBookGame(ctx);
    const carol = await player(ctx, 'carol');
    ctx.clock.set(START + 10 * MINUTE); // no tick has run since 19:00
    const next = await pick(carol, productId, picks(ctx, 4));
    expect(next.gameId).not.toBe(gameId);
    expect((await pay(carol, productId)).status).toBe(201);
    await runGameJobs(ctx.deps);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'active', startTime: START });
    expect(enteredOf(ctx, gameId).map((p) => p.userId)).not.toContain(carol.id);
    expect(enteredOf(ctx, next.gameId).map((p) => p.userId)).toEqual([carol.id]);
  });
});

/** Alice enters, Carol picks without paying, Bob enters and fills the book's game at 18:10. */
async function filledWithCarolPending(ctx: Ctx) {
  const alice = await player(ctx, 'alice');
  const bob = await player(ctx, 'bob');
  const carol = await player(ctx, 'carol');
  const productId = book(ctx).id;
  const a = await enter(alice, productId, picks(ctx, 0));
  const pending = await pick(carol, productId, picks(ctx, 11));
  expect(pending.gameId).toBe(a.gameId);
  ctx.clock.advance(1_000);
  const b = await enter(bob, productId, picks(ctx, 5));
  expect(b.gameId).toBe(a.gameId);
  return { gameId: a.gameId, productId, carol, pending };
}

// ---------------------------------------------------------------- pending plays

describe('pending plays (never paid) do not count', () => {
  test('a picked but unpaid play does not fill the game; after 15 minutes it is void and cannot be paid', async () => {
    const ctx = await world();
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
    const ctx = await world();
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

// ---------------------------------------------------------------- scores

describe('scores: the sum of five influencers over [startTime, endTime)', () => {
  test('settled scores equal the independently computed sums; finalScores, the competition API and the snapshots agree', async () => {
    const ctx = await world();
    const { gameId, productId, alicePlay, bobPlay, alice, bob } = await endedBookGame(ctx);
    const expectedAlice = expectedScore(ctx, picks(ctx, 0), START, END);
    const expectedBob = expectedScore(ctx, picks(ctx, 5), START, END);
    expect(expectedAlice).toBeGreaterThan(0);
    expect(expectedAlice).not.toBe(expectedBob);
    // [start, end): the minute at endTime does not count, the one at startTime does.
    expect(expectedScore(ctx, picks(ctx, 0), START, END + MINUTE)).toBeGreaterThan(expectedAlice);
    expect(expectedScore(ctx, picks(ctx, 0), START + MINUTE, END)).toBeLessThan(expectedAlice);

    expect((await runGameJobs(ctx.deps)).settled).toEqual([gameId]);
    expect(playRow(ctx, alicePlay).score).toBeCloseTo(expectedAlice, 3);
    expect(playRow(ctx, bobPlay).score).toBeCloseTo(expectedBob, 3);

    const winnerPlayId = expectedAlice > expectedBob ? alicePlay : bobPlay;
    const winner = expectedAlice > expectedBob ? alice : bob;
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'completed', winnerPlayId, prizeOutcome: 'cart', settledAt: END });
    expect(prizeLines(ctx).map((l) => l.userId)).toEqual([winner.id]);

    // Recomputing later (the clock has moved on) gives the same numbers.
    ctx.clock.set(END + 3 * HOUR);
    const settled = gameRow(ctx, gameId);
    if (!isStarted(settled)) throw new Error('a settled game has its hour');
    const again = finalScores(ctx.db, settled).ranked;
    expect(again.map((p) => p.id)).toEqual([winnerPlayId, winnerPlayId === alicePlay ? bobPlay : alicePlay]);
    expect(Object.fromEntries(again.map((p) => [p.id, p.score]))).toEqual({
      [alicePlay]: playRow(ctx, alicePlay).score!,
      [bobPlay]: playRow(ctx, bobPlay).score!,
    });

    const competition = await (await alice.client.get(`/api/products/${productId}/competition`)).json();
    expect(competition).toMatchObject({ gameId, gameStatus: 'completed', startTime: START, endTime: END, winnerPlayId });
    const scores = Object.fromEntries(competition.plays.map((p: { id: number; score: number }) => [p.id, p.score]));
    expect(scores[alicePlay]).toBeCloseTo(expectedAlice, 3);
    expect(scores[bobPlay]).toBeCloseTo(expectedBob, 3);
    // Metrics per influencer: each equals the seeded simulation over the hour.
    const people = ctx.db.select().from(influencers).all();
    const seed = seedOf(ctx.db, gameId);
    expect(competition.metrics).toHaveLength(10);
    for (const m of competition.metrics as { influencerId: string; totalScore: number }[]) {
      const person = people.find((p) => p.id === Number(m.influencerId))!;
      expect(m.totalScore).toBe(simulatedPoints(seed, person.id, person, START, END));
    }
    // The frozen record holds the same figures, and the simulation stores no snapshots.
    const record = findRecord(ctx.db, gameId)!;
    expect(record).toMatchObject({ gameId, seed, winnerPlayId, startTime: START, endTime: END });
    expect(record.plays.map((p) => [p.playId, p.score, p.rank])).toEqual(again.map((p, i) => [p.id, p.score, i + 1]));
    expect(ctx.db.select().from(influencerMetrics).all()).toHaveLength(0);
  });

  test('a settled game is read from its frozen record, even after its influencers change', async () => {
    const ctx = await world();
    const { alicePlay } = await endedBookGame(ctx);
    await runGameJobs(ctx.deps);
    const settled = playRow(ctx, alicePlay).score;
    ctx.db
      .update(influencers)
      .set({ engagementRate: 19, platforms: { tiktok: '900M' } })
      .run();
    const competition = await (await ctx.client().get(`/api/products/${book(ctx).id}/competition`)).json();
    expect(competition.plays.find((p: { id: number }) => p.id === alicePlay).score).toBe(settled);
  });

  test('a tie goes to the earlier entry (not the earlier pick or lower play id)', async () => {
    const ctx = await world();
    const alice = await player(ctx, 'alice');
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const same = picks(ctx, 2);
    // Bob picks first (lower play id), Alice pays first (earlier entry).
    const bobs = await pick(bob, productId, same);
    ctx.clock.advance(1_000);
    const alices = await pick(alice, productId, [...same].reverse());
    ctx.clock.advance(1_000);
    expect((await pay(alice, productId)).status).toBe(201);
    ctx.clock.advance(1_000);
    expect((await pay(bob, productId)).status).toBe(201);
    expect(bobs.id).toBeLessThan(alices.id);

    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    ctx.clock.set(END);
    await runGameJobs(ctx.deps);
    expect(playRow(ctx, alices.id).score).toBe(playRow(ctx, bobs.id).score!);
    expect(gameRow(ctx, alices.gameId).winnerPlayId).toBe(alices.id);
    expect(notesOf(ctx, alice.id, 'game_won')).toHaveLength(1);
    expect(notesOf(ctx, bob.id, 'game_lost')).toHaveLength(1);
  });
});

// ---------------------------------------------------------------- settlement, once

/** After settlement: every hold captured exactly once, one prize, each notification once. */
function expectSettledOnce(ctx: Ctx, game: { gameId: number; alice: Player; bob: Player }) {
  expect(gameRow(ctx, game.gameId).status).toBe('completed');
  const gatewayPayments = ctx.gateway.payments();
  expect(gatewayPayments).toHaveLength(2);
  expect(gatewayPayments.every((p) => p.status === 'COMPLETED' && p.amountCents === 100)).toBe(true);
  const holds = holdsOf(ctx);
  expect(holds.map((h) => h.status)).toEqual(['captured', 'captured']);
  expect(holds.map((h) => h.gatewayPaymentId).sort()).toEqual(gatewayPayments.map((p) => p.id).sort());
  expect(prizeLines(ctx)).toHaveLength(1);
  expect(prizeLines(ctx)[0]).toMatchObject({ priceCents: 100, quantity: 1, type: 'play', gameId: game.gameId });
  for (const p of [game.alice, game.bob]) {
    expect(notesOf(ctx, p.id, 'game_ended')).toHaveLength(1);
    expect(notesOf(ctx, p.id, 'game_won').length + notesOf(ctx, p.id, 'game_lost').length).toBe(1);
  }
}

describe('settlement captures each hold exactly once', () => {
  test('runGameJobs twice in a row', async () => {
    const ctx = await world();
    const game = await endedBookGame(ctx);
    expect((await runGameJobs(ctx.deps)).settled).toEqual([game.gameId]);
    expect((await runGameJobs(ctx.deps)).settled).toEqual([]);
    ctx.clock.advance(HOUR);
    expect((await runGameJobs(ctx.deps)).settled).toEqual([]);
    expect(await settleGame(ctx.deps, game.gameId)).toBe(false);
    // Asking again to move the game's holds moves nothing: they are all captured.
    await moveHolds(ctx.deps, holdsToMove(ctx.db, game.gameId));
    await reconcilePayments(ctx.deps);
    expectSettledOnce(ctx, game);
  });

  test('two runGameJobs at once (Promise.all)', async () => {
    const ctx = await world();
    const game = await endedBookGame(ctx);
    const [one, two] = await Promise.all([runGameJobs(ctx.deps), runGameJobs(ctx.deps)]);
    expect([...one.settled, ...two.settled]).toEqual([game.gameId]);
    expectSettledOnce(ctx, game);
  });

  test('two settleGame calls at once (Promise.all), and settleDueGames with them', async () => {
    const ctx = await world();
    const game = await endedBookGame(ctx);
    const results = await Promise.all([settleGame(ctx.deps, game.gameId), settleGame(ctx.deps, game.gameId), settleDueGames(ctx.deps, END)]);
    expect(results.slice(0, 2).filter(Boolean)).toHaveLength(1);
    expect(results[2]).toEqual([]);
    expectSettledOnce(ctx, game);
  });

  test('settleGame before endTime does nothing', async () => {
    const ctx = await world();
    const game = await endedBookGame(ctx);
    ctx.clock.set(END - 1);
    expect(await settleGame(ctx.deps, game.gameId)).toBe(false);
    expect(await settleDueGames(ctx.deps, END - 1)).toEqual([]);
    expect(gameRow(ctx, game.gameId).status).toBe('active');
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['APPROVED', 'APPROVED']);
  });

  test('restart after the end: fresh deps (new gateway, new clock) settle the game and capture the holds', async () => {
    const ctx = await world();
    const game = await filledBookGame(ctx);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    // The process dies during the game and comes back at 20:30 with nothing in memory.
    const gateway = createTestGateway();
    const fresh: GameDeps = { db: ctx.db, clock: new ManualClock(END + 30 * MINUTE), gateway, metrics: simulatedMetrics };
    expect(await runGameJobs(fresh)).toEqual({ started: [], settled: [game.gameId], canceled: [] });
    expect(gameRow(ctx, game.gameId)).toMatchObject({ status: 'completed', settledAt: END + 30 * MINUTE });
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['captured', 'captured']);
    expect(gateway.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(
      gateway
        .payments()
        .map((p) => p.id)
        .sort(),
    ).toEqual(
      holdsOf(ctx)
        .map((h) => h.gatewayPaymentId!)
        .sort(),
    );
    expect(prizeLines(ctx)).toHaveLength(1);
    // The old gateway never captured anything.
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['APPROVED', 'APPROVED']);
    // Scores are the same as a live process would have computed.
    expect(playRow(ctx, game.alicePlay).score).toBeCloseTo(expectedScore(ctx, picks(ctx, 0), START, END), 3);
    expect(await runGameJobs(fresh)).toEqual({ started: [], settled: [], canceled: [] });
  });

  test('down through the whole hour: one catch-up tick starts (startTime 19:00) and settles', async () => {
    const ctx = await world();
    const game = await filledBookGame(ctx);
    const fresh: GameDeps = { db: ctx.db, clock: new ManualClock(END + 2 * HOUR), gateway: createTestGateway(), metrics: simulatedMetrics };
    expect(await runGameJobs(fresh)).toEqual({ started: [game.gameId], settled: [game.gameId], canceled: [] });
    expect(gameRow(ctx, game.gameId)).toMatchObject({ status: 'completed', startTime: START, endTime: END });
    expect(stockOf(ctx, game.productId)).toBe(5);
    expect(playRow(ctx, game.bobPlay).score).toBeCloseTo(expectedScore(ctx, picks(ctx, 5), START, END), 3);
  });

  test('a capture that fails is put back and done on a later tick, once', async () => {
    const ctx = await world();
    const game = await endedBookGame(ctx);
    const flaky = flakyCaptures(ctx.gateway, 1);
    const deps = { ...ctx.deps, gateway: flaky };
    await runGameJobs(deps);
    expect(gameRow(ctx, game.gameId).status).toBe('completed');
    // One hold failed and stays 'capturing' until its backoff (a minute) has passed; then the reconciler finishes it.
    expect(
      holdsOf(ctx)
        .map((h) => h.status)
        .sort(),
    ).toEqual(['captured', 'capturing']);
    await reconcilePayments(deps);
    expect(flaky.captureCalls).toBe(2);
    ctx.clock.advance(2 * MINUTE);
    await runGameJobs(deps);
    await reconcilePayments(deps);
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['captured', 'captured']);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['COMPLETED', 'COMPLETED']);
    expect(flaky.captureCalls).toBe(3);
    expect(prizeLines(ctx)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------- outcome

describe('winner, losers, prize and stock', () => {
  test('winner: game_won → /cart "Claim Prize"; loser: game_lost "Play Again"; both game_ended', async () => {
    const ctx = await world();
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
    const ctx = await world();
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
    const ctx = await world();
    const game = await endedBookGame(ctx);
    await runGameJobs(ctx.deps);
    ctx.db.update(products).set({ quantity: 0 }).where(eq(products.id, game.productId)).run();
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
    const ctx = await world();
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
    const ctx = await world();
    const game = await filledBookGame(ctx);
    expect(() => donatePrize(ctx.deps, game.alice.id, game.gameId)).toThrow(DomainError);
    ctx.clock.set(START);
    await runGameJobs(ctx.deps);
    expect(() => donatePrize(ctx.deps, game.alice.id, game.gameId)).toThrow('No prize of yours was found for this game.');
  });

  test('sold out before the start: the game is canceled, every hold voided, nobody charged', async () => {
    const ctx = await world();
    const game = await filledBookGame(ctx);
    ctx.db.update(products).set({ quantity: 0 }).where(eq(products.id, game.productId)).run();
    ctx.clock.set(START);
    expect((await runGameJobs(ctx.deps)).started).toEqual([]);
    expect(gameRow(ctx, game.gameId).status).toBe('canceled');
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['voided', 'voided']);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['CANCELED', 'CANCELED']);
    expect(stockOf(ctx, game.productId)).toBe(0);
    for (const p of [game.alice, game.bob]) expect(notesOf(ctx, p.id, 'game_ended').map((n) => n.title)).toEqual(['Game canceled']);
  });
});

// ---------------------------------------------------------------- expiry

describe('a waiting game that has not filled after 6 days is canceled', () => {
  async function staleGame(ctx: Ctx) {
    // Gift from the Sea ($8) needs 8 players; three enter and one only picks.
    const productId = giftBook(ctx).id;
    const entrants = [await player(ctx, 'ann'), await player(ctx, 'ben'), await player(ctx, 'cat')];
    let gameId = 0;
    for (const [i, p] of entrants.entries()) {
      gameId = (await enter(p, productId, picks(ctx, i))).gameId;
      ctx.clock.advance(HOUR);
    }
    const picker = await player(ctx, 'dan');
    await pick(picker, productId, picks(ctx, 9));
    expect(gameRow(ctx, gameId)).toMatchObject({ requiredParticipants: 8, createdAt: T0 });
    return { productId, entrants, picker, gameId };
  }

  test('not canceled at 5 days 23 hours; canceled at 6 days: holds voided, nobody charged, players told "Game canceled"', async () => {
    const ctx = await world();
    const { productId, entrants, picker, gameId } = await staleGame(ctx);

    ctx.clock.set(T0 + 6 * DAY - HOUR);
    expect((await runGameJobs(ctx.deps)).canceled).toEqual([]);
    ctx.clock.set(T0 + 6 * DAY - 1);
    expect((await runGameJobs(ctx.deps)).canceled).toEqual([]);
    expect(gameRow(ctx, gameId).status).toBe('waiting');
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['authorized', 'authorized', 'authorized']);

    ctx.clock.set(T0 + 6 * DAY);
    expect((await runGameJobs(ctx.deps)).canceled).toEqual([gameId]);
    expect(gameRow(ctx, gameId)).toMatchObject({ status: 'canceled', canceledAt: T0 + 6 * DAY, winnerPlayId: null });
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['voided', 'voided', 'voided']);
    const atGateway = ctx.gateway.payments();
    expect(atGateway).toHaveLength(3);
    expect(atGateway.every((p) => p.status === 'CANCELED')).toBe(true);
    expect(atGateway.some((p) => p.status === 'COMPLETED')).toBe(false);
    expect(playsOfGame(ctx, gameId).every((p) => p.status === 'void')).toBe(true);
    for (const p of entrants) {
      const ended = notesOf(ctx, p.id, 'game_ended');
      expect(ended).toHaveLength(1);
      expect(ended[0]).toMatchObject({ title: 'Game canceled', gameId, productId });
      expect(ended[0]!.message).toContain('Gift from the Sea');
    }
    expect(notesOf(ctx, picker.id, 'game_ended')).toHaveLength(0);
    expect(stockOf(ctx, productId)).toBe(9);
    expect(prizeLines(ctx)).toHaveLength(0);

    // Idempotent: nothing more happens later.
    ctx.clock.advance(DAY);
    expect(await runGameJobs(ctx.deps)).toEqual({ started: [], settled: [], canceled: [] });
    expect(await expireStaleGames(ctx.deps, ctx.clock.now())).toEqual([]);
    for (const p of entrants) expect(notesOf(ctx, p.id, 'game_ended')).toHaveLength(1);
    expect(ctx.gateway.payments().every((p) => p.status === 'CANCELED')).toBe(true);

    // A new play opens a new waiting game for the product.
    const again = await pick(entrants[0]!, productId, picks(ctx, 0));
    expect(again.gameId).not.toBe(gameId);
    expect(gameRow(ctx, again.gameId).status).toBe('waiting');
  });

  test('two expiries at once void each hold once', async () => {
    const ctx = await world();
    const { gameId } = await staleGame(ctx);
    ctx.clock.set(T0 + 6 * DAY);
    const [a, b] = await Promise.all([runGameJobs(ctx.deps), expireStaleGames(ctx.deps, ctx.clock.now())]);
    expect([...a.canceled, ...b]).toEqual([gameId]);
    expect(holdsOf(ctx).map((h) => h.status)).toEqual(['voided', 'voided', 'voided']);
    expect(ctx.gateway.payments().map((p) => p.status)).toEqual(['CANCELED', 'CANCELED', 'CANCELED']);
  });

  // BUG (src/domain/games/lifecycle.ts expireStaleGames): it cancels every game still 'waiting'
  // 6 days after it opened, including one that has filled and is only waiting for the top of
  // the hour. DESIGN section 4 cancels games that have "not filled"; such a game would start
  // within the hour and settle inside the card network's 7-day window.
  test('a game that filled just before 6 days is started at the top of the hour, not canceled', async () => {
    const ctx = await world();
    const alice = await player(ctx, 'alice');
    const bob = await player(ctx, 'bob');
    const productId = book(ctx).id;
    const { gameId } = await enter(alice, productId, picks(ctx, 0));
    ctx.clock.set(T0 + 6 * DAY - 5 * MINUTE); // 18:05 on day 6: full, due to start at 19:00
    await enter(bob, productId, picks(ctx, 5));
    ctx.clock.set(T0 + 6 * DAY); // 18:10 on day 6: a routine tick
    await runGameJobs(ctx.deps);
    expect(gameRow(ctx, gameId).status).toBe('waiting');
    ctx.clock.set(START + 6 * DAY);
    expect((await runGameJobs(ctx.deps)).started).toEqual([gameId]);
  });
});

// ---------------------------------------------------------------- declined hold

describe('a hold that declines', () => {
  test('a saved card that declines: 402, no entry, a payment_failed notification; the game does not fill', async () => {
    const ctx = await world();
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
    const ctx = await world();
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
    expect(notesOf(ctx, dora.id, 'payment_success')[0]!.message).toBe('Your payment of $1 for The Old Man and the Sea game entry has been processed.');
  });
});
