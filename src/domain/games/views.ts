import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { games, influencers, plays, products, users } from '../../db/schema.ts';
import { resolveImageUrl } from '../catalog.ts';
import { centsToDollars } from '../money.ts';
import { formatFollowers, minuteOf, parseFollowers, pointsBetween, type MetricsSource } from '../metrics.ts';
import { requiredParticipantsFor, type GameDeps } from './entry.ts';
import { HOUR_MS } from './lifecycle.ts';
import { currentGame, DEFAULT_REQUIRED_PARTICIPANTS } from './queries.ts';
import { influencersById, livePoints, playScore, rank, storedPoints } from './scoring.ts';

/*
 * What the game pages and the read APIs of spec section 7 show: influencers with their metrics,
 * a product's competition, the games list, the winners and a user's plays.
 */

/** GET /api/influencers: platforms (followers text), this minute's metrics, and the last hour's score. */
export function influencerList(db: Db, source: MetricsSource, now: number) {
  return db
    .select()
    .from(influencers)
    .orderBy(influencers.id)
    .all()
    .map((person) => {
      const minute = source.minute(person, minuteOf(now));
      return {
        id: person.id,
        name: person.name,
        handle: person.handle,
        avatar: person.avatar,
        category: person.category,
        engagementRate: person.engagementRate,
        platforms: Object.fromEntries(minute.map((m) => [m.platform, formatFollowers(m.followers)])),
        metrics: Object.fromEntries(
          minute.map((m) => [m.platform, { followers: m.followers, engagement: m.engagement, growth: m.growth, posts: m.posts }]),
        ),
        totalFollowers: Object.values(person.platforms).reduce((sum, text) => sum + parseFollowers(text), 0),
        score: Math.round(pointsBetween(source, person, now - HOUR_MS, now) * 10) / 10,
      };
    });
}

export type InfluencerView = ReturnType<typeof influencerList>[number];

/** Scores of a game's entries: final from snapshots once settled, live from the source while active. */
function scoredEntries(deps: GameDeps, game: typeof games.$inferSelect) {
  const { db, metrics, clock } = deps;
  const entries = db.select().from(plays).where(and(eq(plays.gameId, game.id), eq(plays.status, 'entered'))).all();
  const ids = [...new Set(entries.flatMap((p) => p.influencerIds.map(Number)))];
  let points = new Map<number, number>();
  if (game.status === 'completed') points = storedPoints(db, ids, game.startTime!, game.endTime!);
  else if (game.status === 'active') points = livePoints(metrics, influencersById(db, ids), game.startTime!, game.endTime!, clock.now());
  const scored = entries.map((play) => ({ ...play, score: game.status === 'completed' && play.score !== null ? play.score : playScore(play.influencerIds, points) }));
  return { ranked: rank(scored), points };
}

/** GET /api/products/{id}/competition (spec section 7). */
export function competitionView(deps: GameDeps, productId: number) {
  const { db } = deps;
  const product = db.select().from(products).where(eq(products.id, productId)).get();
  if (!product) return null;
  const summary = currentGame(db, productId);
  const game = summary ? db.select().from(games).where(eq(games.id, summary.id)).get()! : null;
  if (!game) {
    return {
      gameId: null,
      gameStatus: 'waiting' as const,
      startTime: null,
      endTime: null,
      requiredParticipants: product.playEnabled ? requiredParticipantsFor(product.priceCents) : DEFAULT_REQUIRED_PARTICIPANTS,
      participants: 0,
      plays: [],
      metrics: [],
    };
  }
  const { ranked, points } = scoredEntries(deps, game);
  return {
    gameId: game.id,
    gameStatus: game.status === 'canceled' ? ('waiting' as const) : game.status,
    startTime: game.startTime,
    endTime: game.endTime,
    requiredParticipants: game.requiredParticipants || DEFAULT_REQUIRED_PARTICIPANTS,
    participants: ranked.length,
    winnerPlayId: game.winnerPlayId,
    plays: ranked.map((play) => ({ id: play.id, userId: play.userId, influencerIds: play.influencerIds, score: play.score, createdAt: play.enteredAt ?? play.createdAt })),
    metrics: [...points].map(([influencerId, totalScore]) => ({ influencerId: String(influencerId), totalScore })),
  };
}

/** GET /api/games/active: waiting and live games, live first, then those needing the fewest players. */
export function activeGames(deps: GameDeps) {
  const { db } = deps;
  const rows = db
    .select({ game: games, product: products })
    .from(games)
    .innerJoin(products, eq(games.productId, products.id))
    .where(inArray(games.status, ['waiting', 'active']))
    .all();
  const leaders = new Map<number, { score: number; userId: number }>();
  const list = rows.map(({ game, product }) => {
    const { ranked } = scoredEntries(deps, game);
    const leader = game.status === 'active' ? ranked[0] : undefined;
    if (leader) leaders.set(game.id, { score: leader.score, userId: leader.userId });
    return {
      id: game.id,
      productId: product.id,
      product: { id: product.id, brand: product.brand, model: product.model, imageUrl: resolveImageUrl(product.imageUrl, product.productType), price: centsToDollars(product.priceCents) },
      status: game.status as 'waiting' | 'active',
      startTime: game.startTime,
      endTime: game.endTime,
      participants: ranked.length,
      requiredParticipants: game.requiredParticipants,
      highestScore: leader ? Math.round(leader.score * 10) / 10 : null,
      leaderUsername: null as string | null,
    };
  });
  const names = usernames(db, [...leaders.values()].map((l) => l.userId));
  for (const game of list) {
    const leader = leaders.get(game.id);
    if (leader) game.leaderUsername = names.get(leader.userId) ?? null;
  }
  const remaining = (g: (typeof list)[number]) => Math.max(0, g.requiredParticipants - g.participants);
  return list.sort((a, b) => Number(b.status === 'active') - Number(a.status === 'active') || remaining(a) - remaining(b) || a.id - b.id);
}

function usernames(db: Db, ids: number[]): Map<number, string> {
  if (ids.length === 0) return new Map();
  return new Map(db.select({ id: users.id, username: users.username }).from(users).where(inArray(users.id, ids)).all().map((u) => [u.id, u.username]));
}

/** GET /api/games/winners: the latest settled games and who won them. */
export function winners(db: Db, limit = 30) {
  return db
    .select({ game: games, product: products, play: plays, username: users.username })
    .from(games)
    .innerJoin(products, eq(games.productId, products.id))
    .innerJoin(plays, eq(games.winnerPlayId, plays.id))
    .innerJoin(users, eq(plays.userId, users.id))
    .where(eq(games.status, 'completed'))
    .orderBy(desc(games.settledAt))
    .limit(limit)
    .all()
    .map(({ game, product, play, username }) => ({
      gameId: game.id,
      playId: play.id,
      productId: product.id,
      username,
      productName: `${product.brand} ${product.model}`,
      imageUrl: resolveImageUrl(product.imageUrl, product.productType),
      score: Math.round((play.score ?? 0) * 10) / 10,
      date: game.settledAt ?? game.endTime,
      donated: game.prizeOutcome === 'donated',
    }));
}

/** GET /api/user/plays: the user's entries, newest first, with the game's state and their place. */
export function userPlays(deps: GameDeps, userId: number) {
  const { db } = deps;
  const rows = db
    .select({ play: plays, game: games, product: products })
    .from(plays)
    .innerJoin(games, eq(plays.gameId, games.id))
    .innerJoin(products, eq(plays.productId, products.id))
    .where(and(eq(plays.userId, userId), inArray(plays.status, ['entered', 'pending'])))
    .orderBy(desc(plays.createdAt))
    .limit(100)
    .all();
  return rows.map(({ play, game, product }) => {
    const { ranked } = scoredEntries(deps, game);
    const place = game.status === 'waiting' ? -1 : ranked.findIndex((p) => p.id === play.id);
    const mine = ranked[place];
    return {
      id: play.id,
      productId: product.id,
      gameId: game.id,
      influencerIds: play.influencerIds,
      status: play.status,
      score: mine ? Math.round(mine.score * 10) / 10 : play.score,
      createdAt: play.createdAt,
      rank: place >= 0 ? place + 1 : null,
      won: game.status === 'completed' && game.winnerPlayId === play.id,
      prizeOutcome: game.winnerPlayId === play.id ? game.prizeOutcome : null,
      game: { status: game.status, startTime: game.startTime, endTime: game.endTime, participants: ranked.length, requiredParticipants: game.requiredParticipants },
      product: { brand: product.brand, model: product.model, imageUrl: resolveImageUrl(product.imageUrl, product.productType) },
    };
  });
}

