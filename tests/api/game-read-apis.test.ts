import { describe, expect, test } from 'bun:test';
import { eq } from 'drizzle-orm';
import { games } from '../../src/db/schema.ts';
import { seedInfluencers } from '../../src/db/seed-influencers.ts';
import {
  aviator,
  book,
  clockRoute,
  competition,
  END,
  enter,
  expectedScore,
  filledBookGame,
  gameStore,
  giftBook,
  HOUR,
  MINUTE,
  picks,
  player,
  postPlay,
  START,
  vansTee,
} from '../helpers/games.ts';

/*
 * The game read APIs of spec section 7: influencers, a product's competition and plays, the
 * active games and winners, and a user's own plays, as a game waits, runs and settles.
 */

describe('GET /api/influencers', () => {
  test('16 influencers; platforms as K/M/B text; metrics per platform; a numeric score', async () => {
    const ctx = await gameStore();
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
    const ctx = await gameStore();
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
    const ctx = await gameStore();
    expect(await competition(ctx, book(ctx).id)).toMatchObject({ gameStatus: 'waiting', plays: [], metrics: [], requiredParticipants: 2, startTime: null });
    expect((await competition(ctx, giftBook(ctx).id)).requiredParticipants).toBe(8);
    expect((await competition(ctx, aviator(ctx).id)).requiredParticipants).toBe(10);
    expect((await ctx.client().get('/api/products/999999/competition')).status).toBe(404);
    expect((await ctx.client().get('/api/products/abc/competition')).status).toBe(404);
    expect((await ctx.client().get('/api/products/999999/plays')).status).toBe(404);
  });

  test('waiting → active with live scores that grow as the clock moves → completed with winnerPlayId', async () => {
    const ctx = await gameStore();
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
    expect(scoreAt(early, a.id)).toBeCloseTo(expectedScore(ctx.db, picks(ctx, 0), START, START + 10 * MINUTE), 3);
    expect(scoreAt(early, b.id)).toBeCloseTo(expectedScore(ctx.db, picks(ctx, 5), START, START + 10 * MINUTE), 3);
    expect(early.metrics).toHaveLength(10);

    await clockRoute(alice.client, { advanceMs: 30 * MINUTE });
    const later = await competition(ctx, productId);
    expect(later.gameStatus).toBe('active');
    expect(scoreAt(later, a.id)).toBeGreaterThan(scoreAt(early, a.id));
    expect(scoreAt(later, b.id)).toBeGreaterThan(scoreAt(early, b.id));
    expect(scoreAt(later, a.id)).toBeCloseTo(expectedScore(ctx.db, picks(ctx, 0), START, START + 40 * MINUTE), 3);
    // Ranked: the leader first.
    expect(later.plays[0].score).toBeGreaterThanOrEqual(later.plays[1].score);

    const plays = await (await ctx.client().get(`/api/products/${productId}/plays`)).json();
    expect(plays.map((p: { id: number }) => p.id).sort()).toEqual([a.id, b.id].sort());
    expect(plays.every((p: { score: number }) => typeof p.score === 'number')).toBe(true);

    await clockRoute(alice.client, { now: END });
    const done = await competition(ctx, productId);
    const finalA = expectedScore(ctx.db, picks(ctx, 0), START, END);
    const finalB = expectedScore(ctx.db, picks(ctx, 5), START, END);
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
    const ctx = await gameStore();
    // Opened in this order so the sort cannot be by id: tee (needs 11), gift (needs 5), book (full → live).
    const tee = vansTee(ctx).id;
    const gift = giftBook(ctx).id;
    const players = await Promise.all(['p1', 'p2', 'p3', 'p4'].map((name) => player(ctx, name)));
    const teeGame = (await enter(players[0]!, tee, picks(ctx, 0))).gameId;
    let giftGame = 0;
    for (const [i, p] of players.slice(0, 3).entries()) giftGame = (await enter(p, gift, picks(ctx, i))).gameId;
    const { productId: bookId, gameId: bookGame, alice, bob } = await filledBookGame(ctx);

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
    const aliceLive = expectedScore(ctx.db, picks(ctx, 0), START, START + 20 * MINUTE, bookGame);
    const bobLive = expectedScore(ctx.db, picks(ctx, 5), START, START + 20 * MINUTE, bookGame);
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
    const finalA = expectedScore(ctx.db, picks(ctx, 0), START, END, bookGame);
    const finalB = expectedScore(ctx.db, picks(ctx, 5), START, END, bookGame);
    expect(winners[0]).toMatchObject({
      gameId: bookGame,
      productId: bookId,
      username: finalA > finalB ? alice.username : bob.username,
      productName: 'The Old Man and the Sea',
      imageUrl: expect.any(String),
      date: END,
      donated: false,
    });
    expect(winners[0].score).toBeCloseTo(Math.round(Math.max(finalA, finalB) * 10) / 10, 5);
    expect(winners[0].playId).toBe(ctx.db.select().from(games).where(eq(games.id, bookGame)).get()!.winnerPlayId);
  });

  test('no games: both lists are empty', async () => {
    const ctx = await gameStore();
    expect(await (await ctx.client().get('/api/games/active')).json()).toEqual([]);
    expect(await (await ctx.client().get('/api/games/winners')).json()).toEqual([]);
  });
});

describe('GET /api/user/plays', () => {
  test('401 signed out', async () => {
    const ctx = await gameStore();
    expect((await ctx.client().get('/api/user/plays')).status).toBe(401);
  });

  test('pending and waiting entries have no rank; after settlement rank and won are set', async () => {
    const ctx = await gameStore();
    const { alice, bob, productId, gameId, alicePlay, bobPlay } = await filledBookGame(ctx);
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
    const finalA = expectedScore(ctx.db, picks(ctx, 0), START, END);
    const finalB = expectedScore(ctx.db, picks(ctx, 5), START, END);
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
