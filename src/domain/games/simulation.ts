import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { InfluencerCalibration } from '../../db/schema.ts';
import { parseFollowers } from '../../shared/format.ts';
import { MINUTE_MS, minuteOf, minutePoints, roundPoints, type MetricsSource, type MinuteMetrics } from './metrics.ts';

/*
 * The simulated metrics source, commit and reveal (DESIGN section 4, docs/fairness.md). Each
 * game draws 32 secret random bytes when it opens and publishes their SHA-256 at once. Every
 * minute's numbers come from HMAC-SHA256 keyed with those bytes, so without the seed nobody can
 * compute a game's points in advance; once the game is over the seed is published and anyone
 * can check the hash and recompute every score with the steps below. Changing a step changes
 * past results: the known-answer tests in tests/unit/fairness.test.ts pin them.
 */

export const SEED_BYTES = 32;
const YEAR_MINUTES = 525_600;

/** A fresh secret seed (hex) and its public commitment. */
export function drawSeed(): { seed: string; seedHash: string } {
  const seed = randomBytes(SEED_BYTES).toString('hex');
  return { seed, seedHash: seedHashOf(seed) };
}

/** Hex SHA-256 of the seed's raw bytes (not of its hex text). */
export function seedHashOf(seed: string): string {
  return createHash('sha256').update(Buffer.from(seed, 'hex')).digest('hex');
}

export function isSeed(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

/** Three uniform numbers in [0, 1) for one influencer, platform and minute of one game. */
function uniforms(key: Buffer, influencerId: number, platform: string, minuteIndex: number): [number, number, number] {
  const digest = createHmac('sha256', key).update(`${influencerId}:${platform}:${minuteIndex}`).digest();
  return [digest.readUInt32BE(0) / 2 ** 32, digest.readUInt32BE(4) / 2 ** 32, digest.readUInt32BE(8) / 2 ** 32];
}

/**
 * The influencer's form for the whole game, from 0.5 to 1.5: some hours go viral, some fall flat.
 * Without it the per-minute noise averages out over an hour and the five biggest influencers
 * would win nearly every game (bench/predict.ts).
 */
export function formOf(key: Buffer, influencerId: number): number {
  return 0.5 + createHmac('sha256', key).update(`${influencerId}:form`).digest().readUInt32BE(0) / 2 ** 32;
}

/** One minute of one influencer in one game: its metrics and points on every platform. */
export function simulatedMinute(
  seed: string,
  influencerId: number,
  calibration: Pick<InfluencerCalibration, 'platforms' | 'engagementRate'>,
  minuteStart: number,
  key = Buffer.from(seed, 'hex'),
  form = formOf(key, influencerId),
): MinuteMetrics[] {
  const minuteIndex = Math.floor(minuteStart / MINUTE_MS);
  const rate = calibration.engagementRate * form;
  return Object.entries(calibration.platforms).map(([platform, followersText]) => {
    const [u1, u2, u3] = uniforms(key, influencerId, platform, minuteIndex);
    // Audiences drift up by about 10% over a year.
    const followers = Math.round(parseFollowers(followersText) * (1 + ((minuteIndex % YEAR_MINUTES) / YEAR_MINUTES) * 0.1));
    const engagement = Math.round(rate * (0.7 + 0.6 * u1) * 100) / 100;
    const growth = Math.round((0.02 + 0.2 * u2) * (rate / 3) * 1000) / 1000;
    const posts = u3 < form / 90 ? 1 : 0;
    const metrics = { platform, followers, engagement, growth, posts };
    return { ...metrics, points: minutePoints(metrics) };
  });
}

/** An influencer's points over [from, to) of a game, minute by minute (a started minute counts whole). */
export function simulatedPoints(
  seed: string,
  influencerId: number,
  calibration: Pick<InfluencerCalibration, 'platforms' | 'engagementRate'>,
  from: number,
  to: number,
): number {
  const key = Buffer.from(seed, 'hex');
  const form = formOf(key, influencerId);
  let total = 0;
  for (let minute = minuteOf(from); minute < to; minute += MINUTE_MS) {
    for (const m of simulatedMinute(seed, influencerId, calibration, minute, key, form)) total += m.points;
  }
  return roundPoints(total);
}

/*
 * The influencer list shows a sample of the simulation under a public seed. It says nothing about
 * any game's hour (each game has its own secret seed); it only shows each influencer's usual size.
 */
const LISTING_SEED = createHash('sha256').update('CSA influencer list').digest('hex');
const listingCache = new Map<string, { minute: MinuteMetrics[]; lastHour: number }>();

export const simulatedMetrics: MetricsSource = {
  name: 'simulated',
  recent(_db, people, now) {
    const minute = minuteOf(now);
    const result = new Map<number, { minute: MinuteMetrics[]; lastHour: number }>();
    for (const person of people) {
      const cacheKey = `${person.id}:${minute}:${person.engagementRate}:${JSON.stringify(person.platforms)}`;
      let entry = listingCache.get(cacheKey);
      if (!entry) {
        entry = {
          minute: simulatedMinute(LISTING_SEED, person.id, person, minute),
          lastHour: simulatedPoints(LISTING_SEED, person.id, person, minute - 60 * MINUTE_MS, minute),
        };
        if (listingCache.size > 5_000) listingCache.clear();
        listingCache.set(cacheKey, entry);
      }
      result.set(person.id, entry);
    }
    return result;
  },
  async collect() {},
};
