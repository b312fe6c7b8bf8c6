import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { gameRecords, type Game, type InfluencerCalibration, type MetricsSourceName, type Product } from '../../db/schema.ts';
import type { Started } from './schedule.ts';

/*
 * The frozen scoring record of a settled game: everything needed to check the result later,
 * written in the settlement's transaction and never changed or pruned. It outlives the
 * product, the influencers' later edits and the raw snapshots of the feed.
 */

export interface RecordedInfluencer extends InfluencerCalibration {
  id: number;
  /** Points earned in [startTime, endTime). */
  points: number;
}

export interface RecordedPlay {
  playId: number;
  userId: number;
  username: string;
  influencerIds: string[];
  enteredAt: number | null;
  score: number;
  rank: number;
}

export interface GameRecord {
  version: 1;
  gameId: number;
  /** `size`: the size the game was for, for a product sold in several (issue 38; absent before). */
  product: { id: number; brand: string; model: string; productType: string; size?: string };
  metricsSource: MetricsSourceName;
  seedHash: string | null;
  seed: string | null;
  startTime: number;
  endTime: number;
  settledAt: number;
  requiredParticipants: number;
  influencers: RecordedInfluencer[];
  plays: RecordedPlay[];
  winnerPlayId: number | null;
  winnerUsername: string | null;
}

export function buildRecord(
  game: Started<Game>,
  product: Pick<Product, 'id' | 'brand' | 'model' | 'productType'> & { size?: string },
  calibration: Record<string, InfluencerCalibration>,
  points: Map<number, number>,
  ranked: { id: number; userId: number; username: string; influencerIds: string[]; enteredAt: number | null; score: number }[],
  settledAt: number,
): GameRecord {
  const winner = ranked[0];
  return {
    version: 1,
    gameId: game.id,
    product: {
      id: product.id,
      brand: product.brand,
      model: product.model,
      productType: product.productType,
      ...(product.size ? { size: product.size } : {}),
    },
    metricsSource: game.metricsSource,
    seedHash: game.seedHash,
    seed: game.seed,
    startTime: game.startTime,
    endTime: game.endTime,
    settledAt,
    requiredParticipants: game.requiredParticipants,
    influencers: Object.entries(calibration)
      .map(([id, cal]) => ({ id: Number(id), ...cal, points: points.get(Number(id)) ?? 0 }))
      .sort((a, b) => a.id - b.id),
    plays: ranked.map((p, index) => ({
      playId: p.id,
      userId: p.userId,
      username: p.username,
      influencerIds: p.influencerIds,
      enteredAt: p.enteredAt,
      score: p.score,
      rank: index + 1,
    })),
    winnerPlayId: winner?.id ?? null,
    winnerUsername: winner?.username ?? null,
  };
}

/** Stores the record in the caller's (settlement) transaction; a second settlement cannot overwrite it. */
export function saveRecord(tx: Queryable, record: GameRecord): void {
  tx.insert(gameRecords)
    .values({ gameId: record.gameId, productId: record.product.id, record: record as unknown as Record<string, unknown>, createdAt: record.settledAt })
    .onConflictDoNothing()
    .run();
}

export function findRecord(db: Queryable, gameId: number): GameRecord | null {
  const row = db.select({ record: gameRecords.record }).from(gameRecords).where(eq(gameRecords.gameId, gameId)).get();
  return row ? (row.record as unknown as GameRecord) : null;
}
