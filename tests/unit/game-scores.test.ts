import { describe, expect, test } from 'bun:test';
import { influencerMetrics, influencers } from '../../src/db/schema.ts';
import { finalScores, runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { isStarted } from '../../src/domain/games/schedule.ts';
import { simulatedPoints } from '../../src/domain/games/simulation.ts';
import { findRecord } from '../../src/domain/games/record.ts';
import {
  book,
  END,
  endedBookGame,
  expectedScore,
  gameRow,
  gameStore,
  HOUR,
  MINUTE,
  notesOf,
  pay,
  pick,
  picks,
  player,
  playRow,
  prizeLines,
  seedOf,
  START,
} from '../helpers/games.ts';

/*
 * A game's scores (DESIGN section 4): the sum of five influencers' simulated points over
 * [startTime, endTime), the same in the jobs, the API and the frozen record; ties go to the
 * earlier entry.
 */

describe('the simulated metrics', () => {
  test('the simulated metrics are deterministic under one seed: the same window gives the same points', async () => {
    const ctx = await gameStore();
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

describe('scores: the sum of five influencers over [startTime, endTime)', () => {
  test('settled scores equal the independently computed sums; finalScores, the competition API and the snapshots agree', async () => {
    const ctx = await gameStore();
    const { gameId, productId, alicePlay, bobPlay, alice, bob } = await endedBookGame(ctx);
    const expectedAlice = expectedScore(ctx.db, picks(ctx, 0), START, END);
    const expectedBob = expectedScore(ctx.db, picks(ctx, 5), START, END);
    expect(expectedAlice).toBeGreaterThan(0);
    expect(expectedAlice).not.toBe(expectedBob);
    // [start, end): the minute at endTime does not count, the one at startTime does.
    expect(expectedScore(ctx.db, picks(ctx, 0), START, END + MINUTE)).toBeGreaterThan(expectedAlice);
    expect(expectedScore(ctx.db, picks(ctx, 0), START + MINUTE, END)).toBeLessThan(expectedAlice);

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
    const ctx = await gameStore();
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
    const ctx = await gameStore();
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
