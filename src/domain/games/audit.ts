import { and, eq, inArray } from 'drizzle-orm';
import { prizeStatusOf } from './prizes.ts';
import type { Queryable } from '../../db/client.ts';
import { games, plays, products, users } from '../../db/schema.ts';
import { resolveImageUrl } from '../catalog/catalog.ts';
import type { Clock } from '../clock.ts';
import { findRecord, type GameRecord } from './record.ts';
import { calibrationOf, gamePoints, playScore, rank } from './scoring.ts';
import { seedHashOf, simulatedPoints } from './simulation.ts';
import { fairness, picksArePublic, shownPicks } from './views.ts';
import { timesOf } from './schedule.ts';
import { gameSizeOf } from './game-rows.ts';

/*
 * A game's public record (GET /api/games/{id}, the /games/{id} page) and its verification
 * (`bun run verify-game ID`). Picks are public once the game has started; the seed once it is
 * over. A settled game is read from its frozen record, which outlives the product.
 */

export interface PublicGame {
  id: number;
  /** `exists`: still in the shop, so the record may link to it (an archived product is not). */
  product: { id: number; name: string | null; productType: string; brand: string; model: string; imageUrl: string | null; exists: boolean; size?: string };
  status: 'waiting' | 'active' | 'completed' | 'canceled';
  createdAt: number | null;
  startTime: number | null;
  endTime: number | null;
  settledAt: number | null;
  canceledAt: number | null;
  cancelReason: string | null;
  requiredParticipants: number;
  participants: number;
  metricsSource: string;
  seedHash: string | null;
  seed: string | null;
  entries: {
    playId: number;
    userId: number;
    username: string;
    enteredAt: number | null;
    influencerIds: string[] | null;
    score: number | null;
    rank: number | null;
  }[];
  influencers: { id: number; name: string; handle: string; points: number }[];
  winner: { playId: number; username: string; score: number } | null;
  /** What became of the prize: to claim, in cart, bought, delivered, donated, returned to stock. */
  prize?: { state: string; label: string } | null;
}

function fromRecord(record: GameRecord, product: typeof products.$inferSelect | undefined): PublicGame {
  const winner = record.plays.find((p) => p.playId === record.winnerPlayId);
  return {
    id: record.gameId,
    product: {
      id: record.product.id,
      name: product?.name ?? null,
      productType: product?.productType ?? record.product.productType ?? 'sunglasses',
      brand: record.product.brand,
      model: record.product.model,
      imageUrl: product ? resolveImageUrl(product.imageUrl, product.productType) : null,
      exists: !!product && product.archivedAt === null,
      ...(record.product.size ? { size: record.product.size } : {}),
    },
    status: 'completed',
    createdAt: null,
    startTime: record.startTime,
    endTime: record.endTime,
    settledAt: record.settledAt,
    canceledAt: null,
    cancelReason: null,
    requiredParticipants: record.requiredParticipants,
    participants: record.plays.length,
    metricsSource: record.metricsSource,
    seedHash: record.seedHash,
    seed: record.seed,
    entries: record.plays.map((p) => ({
      playId: p.playId,
      userId: p.userId,
      username: p.username,
      enteredAt: p.enteredAt,
      influencerIds: p.influencerIds,
      score: p.score,
      rank: p.rank,
    })),
    influencers: record.influencers.map((i) => ({ id: i.id, name: i.name, handle: i.handle, points: i.points })),
    winner: winner ? { playId: winner.playId, username: winner.username, score: winner.score } : null,
  };
}

/** GET /api/games/{id}: null when no such game was ever recorded. */
export function publicGame(db: Queryable, clock: Clock, gameId: number): PublicGame | null {
  const game = db.select().from(games).where(eq(games.id, gameId)).get();
  const record = findRecord(db, gameId);
  const product = db
    .select()
    .from(products)
    .where(eq(products.id, game?.productId ?? record?.product.id ?? -1))
    .get();
  if (record) {
    const prize = game ? prizeStatusOf(db, game) : null;
    // The record outlives its game row; while the row is there, it still knows when the game opened.
    return { ...fromRecord(record, product), createdAt: game?.createdAt ?? null, prize: prize ? { state: prize.state, label: prize.label } : null };
  }
  if (!game || !product) return null;
  const started = picksArePublic(game);
  // A canceled game's entries were voided with it; a live or waiting game shows its entered plays.
  const statuses = game.status === 'canceled' ? (['entered', 'void'] as const) : (['entered'] as const);
  const rows = db
    .select({ play: plays, username: users.username })
    .from(plays)
    .innerJoin(users, eq(plays.userId, users.id))
    .where(and(eq(plays.gameId, gameId), inArray(plays.status, [...statuses])))
    .all()
    .filter(({ play }) => play.enteredAt !== null);
  const calibration = game.calibration ?? (started ? calibrationOf(db, [...new Set(rows.flatMap((r) => r.play.influencerIds.map(Number)))]) : {});
  const points = game.status === 'active' ? gamePoints(db, game, clock.now(), calibration).points : new Map<number, number>();
  const scored = rank(rows.map(({ play, username }) => ({ ...play, username, score: playScore(play.influencerIds, points) })));
  const live = game.status === 'active';
  const size = gameSizeOf(db, game);
  return {
    id: game.id,
    product: {
      id: product.id,
      name: product.name,
      productType: product.productType,
      brand: product.brand,
      model: product.model,
      imageUrl: resolveImageUrl(product.imageUrl, product.productType),
      exists: product.archivedAt === null,
      ...(size ? { size } : {}),
    },
    status: game.status,
    ...timesOf(game),
    requiredParticipants: game.requiredParticipants,
    participants: scored.length,
    ...fairness(game),
    entries: scored.map((p, index) => ({
      playId: p.id,
      userId: p.userId,
      username: p.username,
      enteredAt: p.enteredAt,
      influencerIds: shownPicks(game, p.influencerIds),
      score: live ? p.score : null,
      rank: live ? index + 1 : null,
    })),
    influencers: started
      ? Object.entries(calibration).map(([id, c]) => ({ id: Number(id), name: c.name, handle: c.handle, points: points.get(Number(id)) ?? 0 }))
      : [],
    winner: null,
  };
}

export interface Verification {
  ok: boolean;
  lines: string[];
}

/**
 * Recomputes a settled game from the database: the seed against its hash, every influencer's
 * points from the seed (or from the feed's snapshots while they are kept), every score, the
 * ranking and the winner, against the frozen record and the plays and games tables.
 */
export function verifyGame(db: Queryable, gameId: number): Verification {
  const lines: string[] = [];
  let ok = true;
  const check = (passed: boolean, text: string) => {
    lines.push(`${passed ? 'ok  ' : 'FAIL'} ${text}`);
    if (!passed) ok = false;
  };
  const record = findRecord(db, gameId);
  if (!record) return { ok: false, lines: [`FAIL game ${gameId} has no settled record (it is not over, was canceled, or does not exist)`] };
  lines.push(
    `game ${gameId}: ${record.product.brand} ${record.product.model}, ${new Date(record.startTime).toISOString()} to ${new Date(record.endTime).toISOString()}, ${record.plays.length} entries, source ${record.metricsSource}`,
  );
  if (record.metricsSource === 'simulated' && !record.seedHash) {
    lines.push('note this game was settled before commit and reveal: it has no seed; its recorded scores are checked against each other');
  } else if (record.metricsSource === 'simulated') {
    check(!!record.seed && !!record.seedHash && seedHashOf(record.seed) === record.seedHash, `sha256(seed) == seedHash (${record.seedHash})`);
    for (const person of record.influencers) {
      const again = record.seed ? simulatedPoints(record.seed, person.id, person, record.startTime, record.endTime) : NaN;
      check(again === person.points, `influencer ${person.id} ${person.handle}: ${again} points recomputed, ${person.points} recorded`);
    }
  } else {
    const stored = gamePoints(
      db,
      { id: -gameId, metricsSource: 'feed', seed: null, startTime: record.startTime, endTime: record.endTime, calibration: null },
      record.endTime,
      Object.fromEntries(record.influencers.map((i) => [String(i.id), i])),
    );
    if (stored.missing > 0) lines.push(`note the feed's raw snapshots of this hour are no longer kept; the recorded per-influencer points are used`);
    else
      for (const person of record.influencers)
        check(
          stored.points.get(person.id) === person.points,
          `influencer ${person.id} ${person.handle}: ${stored.points.get(person.id)} points in the stored feed, ${person.points} recorded`,
        );
  }
  const points = new Map(record.influencers.map((i) => [i.id, i.points]));
  const legacy = record.metricsSource === 'simulated' && !record.seedHash;
  const ranked = rank(
    record.plays.map((p) => ({
      id: p.playId,
      enteredAt: p.enteredAt,
      score: legacy ? p.score : playScore(p.influencerIds, points),
      recorded: p.score,
      rank: p.rank,
      username: p.username,
    })),
  );
  for (const [index, p] of ranked.entries()) {
    check(
      p.score === p.recorded && p.rank === index + 1,
      `play ${p.id} (${p.username}): score ${p.score}, rank ${index + 1}; recorded ${p.recorded}, rank ${p.rank}`,
    );
  }
  const stored = new Map(
    db
      .select({ id: plays.id, score: plays.score })
      .from(plays)
      .where(eq(plays.gameId, gameId))
      .all()
      .map((p) => [p.id, p.score]),
  );
  if (stored.size) for (const p of ranked) check(stored.get(p.id) === p.score, `play ${p.id}: plays table score ${stored.get(p.id)}`);
  check(
    (ranked[0]?.id ?? null) === record.winnerPlayId,
    `winner: play ${ranked[0]?.id ?? 'none'} (${ranked[0]?.username ?? '-'}); recorded play ${record.winnerPlayId ?? 'none'}`,
  );
  const game = db.select({ winner: games.winnerPlayId }).from(games).where(eq(games.id, gameId)).get();
  if (game) check(game.winner === record.winnerPlayId, `games table winner: play ${game.winner ?? 'none'}`);
  lines.push(ok ? 'MATCH: every score and the winner match' : 'MISMATCH: see the FAIL lines above');
  return { ok, lines };
}
