import { expect, test } from 'bun:test';
import { gamePoints } from '../../src/domain/games/scoring.ts';
import { drawSeed, simulatedPoints } from '../../src/domain/games/simulation.ts';
import type { Db } from '../../src/db/client.ts';

/*
 * A live game's points are running sums (scoring.ts): each minute adds one minute, so a page or a
 * tick pays for one minute, not the whole game so far. The figures must be those of a full run
 * to the last bit, whatever order the minutes are asked in.
 */

const MINUTE = 60_000;
const START = Date.UTC(2026, 10, 21, 19, 0);
const calibration = {
  '1': { name: 'A', handle: '@a', platforms: { instagram: '12.5M', tiktok: '3.1M' }, engagementRate: 3.2 },
  '2': { name: 'B', handle: '@b', platforms: { youtube: '800K' }, engagementRate: 5.1 },
  '3': { name: 'C', handle: '@c', platforms: { instagram: '45M' }, engagementRate: 1.4 },
};
// The simulation reads nothing from the database.
const db = null as unknown as Db;

function fullRun(seed: string, until: number): Map<number, number> {
  return new Map(Object.entries(calibration).map(([id, c]) => [Number(id), simulatedPoints(seed, Number(id), c, START, until)]));
}

test('minute by minute, the running sums equal a full run of the game so far', () => {
  const { seed } = drawSeed();
  const game = { id: 9_001, metricsSource: 'simulated' as const, seed, startTime: START, endTime: START + 60 * MINUTE, calibration };
  for (let minute = 1; minute <= 61; minute++) {
    const until = START + minute * MINUTE - 17_000;
    expect(gamePoints(db, game, until).points).toEqual(fullRun(seed, Math.min(until, game.endTime)));
  }
});

test('an earlier moment asked after a later one is computed afresh, not from the later sums', () => {
  const { seed } = drawSeed();
  const game = { id: 9_002, metricsSource: 'simulated' as const, seed, startTime: START, endTime: START + 60 * MINUTE, calibration };
  expect(gamePoints(db, game, START + 40 * MINUTE).points).toEqual(fullRun(seed, START + 40 * MINUTE));
  expect(gamePoints(db, game, START + 12 * MINUTE + 5).points).toEqual(fullRun(seed, START + 12 * MINUTE + 5));
  expect(gamePoints(db, game, START + 41 * MINUTE).points).toEqual(fullRun(seed, START + 41 * MINUTE));
});

test('another calibration than the game frozen one is never taken from the running sums', () => {
  const { seed } = drawSeed();
  const game = { id: 9_003, metricsSource: 'simulated' as const, seed, startTime: START, endTime: START + 60 * MINUTE, calibration };
  gamePoints(db, game, START + 30 * MINUTE);
  const other = { ...calibration, '1': { ...calibration['1'], engagementRate: 9.9 } };
  const expected = new Map(Object.entries(other).map(([id, c]) => [Number(id), simulatedPoints(seed, Number(id), c, START, START + 30 * MINUTE)]));
  expect(gamePoints(db, game, START + 30 * MINUTE, other).points).toEqual(expected);
});
