import { describe, expect, test } from 'bun:test';
import { formOf, simulatedMinute, simulatedPoints } from '../../src/domain/games/simulation.ts';
import { minutePoints } from '../../src/domain/games/metrics.ts';

/*
 * Known answers for the scoring formula and the seeded simulation (the rules page and
 * docs/fairness.md write them out): a change to a weight, a rounding or the random
 * stream changes every past game's recomputation, so it must change these figures on purpose.
 */
describe('scoring, known answers', () => {
  test('minute points: followers gained / 100 + engagement + growth x 5 + posts x 20, to three decimals', () => {
    // 1,000,000 x 0.1% / 1440 = 0.694 gained: 0.00694 + 3.5 + 0.5 + 20.
    expect(minutePoints({ followers: 1_000_000, engagement: 3.5, growth: 0.1, posts: 1 })).toBe(24.007);
    expect(minutePoints({ followers: 250_000, engagement: 1.25, growth: 0.02, posts: 0 })).toBe(1.35);
    expect(minutePoints({ followers: 0, engagement: 0, growth: 0, posts: 0 })).toBe(0);
  });

  const seed = 'ab'.repeat(32);
  const calibration = { platforms: { Instagram: '12.5M', TikTok: '800K' }, engagementRate: 3.2 };
  const start = Date.UTC(2026, 10, 21, 19, 0, 0);

  test('one simulated minute under a known seed', () => {
    expect(formOf(Buffer.from(seed, 'hex'), 7)).toBeCloseTo(1.3011485675815493, 12);
    expect(simulatedMinute(seed, 7, calibration, start)).toEqual([
      { platform: 'Instagram', followers: 13660245, engagement: 3.52, growth: 0.213, posts: 0, points: 4.787 },
      { platform: 'TikTok', followers: 874256, engagement: 3.56, growth: 0.119, posts: 0, points: 4.162 },
    ]);
  });

  test("an influencer's hour under a known seed, and under another seed or for another influencer", () => {
    expect(simulatedPoints(seed, 7, calibration, start, start + 3_600_000)).toBe(634.024);
    expect(simulatedPoints(seed, 8, calibration, start, start + 3_600_000)).toBe(294.353);
    expect(simulatedPoints('cd'.repeat(32), 7, calibration, start, start + 3_600_000)).toBe(315.368);
  });
});
