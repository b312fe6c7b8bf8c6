/**
 * Can the public code predict a game? (issue 10). An attacker who has read every line of the
 * store but not the game's secret seed computes the coming hour under a seed of their own and
 * picks the five best; we compare their picks, under the real seed, with a pick from public
 * information only (the five with the best average hour) and with random picks. Before commit
 * and reveal the attacker's five were the actual best five every time.
 * Usage: bun bench/predict.ts [games]
 */
import { randomBytes } from 'node:crypto';
import { seedInfluencers } from '../src/db/seed-influencers.ts';
import { drawSeed, simulatedPoints } from '../src/domain/games/simulation.ts';

const GAMES = Number(process.argv[2] ?? 300);
const HOUR = 3_600_000;
const people = seedInfluencers.map((p, i) => ({ id: i + 1, platforms: p.platforms as Record<string, string>, engagementRate: p.engagementRate }));
const ids = people.map((p) => p.id);

function combinations(size: number, from: number[]): number[][] {
  if (size === 0) return [[]];
  return from.flatMap((first, i) => combinations(size - 1, from.slice(i + 1)).map((rest) => [first, ...rest]));
}
const allPicks = combinations(5, ids);

function hour(seed: string, start: number): Map<number, number> {
  return new Map(people.map((p) => [p.id, simulatedPoints(seed, p.id, p, start, start + HOUR)]));
}
const top5 = (points: Map<number, number>) =>
  [...points]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 5)
    .map(([id]) => id);
const score = (pick: number[], points: Map<number, number>) => pick.reduce((sum, id) => sum + points.get(id)!, 0);

// Public information only: each influencer's average hour over many seeds.
const average = new Map<number, number>(ids.map((id) => [id, 0]));
for (let i = 0; i < 40; i++) for (const [id, pts] of hour(drawSeed().seed, Date.UTC(2026, 0, 1) + i * HOUR)) average.set(id, average.get(id)! + pts / 40);
const publicPick = top5(average);

const results = { attacker: { best: 0, percentile: 0, beatsPublic: 0 }, public: { best: 0, percentile: 0 }, random: { percentile: 0 } };
for (let g = 0; g < GAMES; g++) {
  const start = Date.UTC(2026, 10, 21, 19) + g * HOUR;
  const actual = hour(drawSeed().seed, start);
  const guessed = top5(hour(randomBytes(32).toString('hex'), start));
  const scores = allPicks.map((pick) => score(pick, actual)).sort((a, b) => a - b);
  const percentile = (value: number) => scores.filter((s) => s < value).length / scores.length;
  const best = scores.at(-1)!;
  const attacker = score(guessed, actual);
  const fromPublic = score(publicPick, actual);
  const random = score([...ids].sort(() => Math.random() - 0.5).slice(0, 5), actual);
  results.attacker.best += attacker === best ? 1 : 0;
  results.attacker.percentile += percentile(attacker) / GAMES;
  results.attacker.beatsPublic += attacker > fromPublic ? 1 : 0;
  results.public.best += fromPublic === best ? 1 : 0;
  results.public.percentile += percentile(fromPublic) / GAMES;
  results.random.percentile += percentile(random) / GAMES;
}
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
console.log(`${GAMES} games, ${allPicks.length} possible picks each`);
console.log(
  `attacker (the code, a seed of their own): the actual best five in ${results.attacker.best} of ${GAMES} games; average percentile ${pct(results.attacker.percentile)}; beat the public pick in ${pct(results.attacker.beatsPublic / GAMES)} of games`,
);
console.log(
  `public pick (best average hour):          the actual best five in ${results.public.best} of ${GAMES} games; average percentile ${pct(results.public.percentile)}`,
);
console.log(`random pick:                              average percentile ${pct(results.random.percentile)}`);
