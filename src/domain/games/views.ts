import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { whyNoGameToJoin } from './openness.ts';
import { prizeStatusOf } from './prizes.ts';
import type { Db, Queryable } from '../../db/client.ts';
import { gameRecords, games, influencers, plays, products, users, type Game } from '../../db/schema.ts';
import { productLabel, resolveImageUrl } from '../catalog/catalog.ts';
import { centsToDollars } from '../../shared/money.ts';
import { formatFollowers, parseFollowers } from '../../shared/format.ts';
import type { InfluencerView } from '../../shared/views/games.ts';
import type { MetricsSource } from './metrics.ts';
import { requiredParticipantsFor, type GameDeps } from './entry.ts';
import { usernamesOf } from '../accounts/accounts.ts';
import { currentGame, DEFAULT_REQUIRED_PARTICIPANTS, firstWaitingWithRoom } from './queries.ts';
import type { GameRecord } from './record.ts';
import { gamePoints, playScore, rank } from './scoring.ts';
import { isStarted } from './schedule.ts';
import { gameSizes } from './game-rows.ts';
import { revealedSeed } from '../operations/sealed-seeds.ts';

/*
 * What the game pages and the read APIs of spec section 7 show: influencers with their metrics,
 * a product's competition, the games list, the winners and a user's plays.
 */

/** GET /api/influencers: the pickable influencers, with platforms (followers text), this minute's metrics and the last hour's points. */
export function influencerList(db: Db, source: MetricsSource, now: number): InfluencerView[] {
  const people = db.select().from(influencers).where(isNull(influencers.retiredAt)).orderBy(influencers.id).all();
  const recent = source.recent(db, people, now);
  return people.map((person) => {
    const { minute, lastHour } = recent.get(person.id) ?? { minute: [], lastHour: 0 };
    const latest = new Map(minute.map((m) => [m.platform, m]));
    return {
      id: person.id,
      name: person.name,
      handle: person.handle,
      avatar: person.avatar,
      category: person.category,
      engagementRate: person.engagementRate,
      platforms: Object.fromEntries(
        Object.entries(person.platforms).map(([platform, text]) => [platform, latest.has(platform) ? formatFollowers(latest.get(platform)!.followers) : text]),
      ),
      metrics: Object.fromEntries(minute.map((m) => [m.platform, { followers: m.followers, engagement: m.engagement, growth: m.growth, posts: m.posts }])),
      totalFollowers: Object.values(person.platforms).reduce((sum, text) => sum + parseFollowers(text), 0),
      score: Math.round(lastHour * 10) / 10,
    };
  });
}

export type { InfluencerView };

/** Scores of a game's entries: from the frozen record once settled, live from its source while active. */
function scoredEntries(deps: GameDeps, game: Game) {
  return scoredEntriesOf(deps, [game]).get(game.id)!;
}

/** scoredEntries of several games in three statements (their entries, their records), not three a game. */
function scoredEntriesOf(deps: GameDeps, list: Game[]) {
  const { db, clock } = deps;
  const ids = [...new Set(list.map((g) => g.id))];
  const entries = ids.length
    ? db
        .select()
        .from(plays)
        .where(and(inArray(plays.gameId, ids), eq(plays.status, 'entered')))
        .all()
    : [];
  const completed = list.filter((g) => g.status === 'completed').map((g) => g.id);
  const records = new Map(
    completed.length
      ? db
          .select({ gameId: gameRecords.gameId, record: gameRecords.record })
          .from(gameRecords)
          .where(inArray(gameRecords.gameId, completed))
          .all()
          .map((row) => [row.gameId, row.record as unknown as GameRecord])
      : [],
  );
  const result = new Map<number, { ranked: ReturnType<typeof rank<(typeof entries)[number] & { score: number }>>; points: Map<number, number> }>();
  for (const game of list) {
    if (result.has(game.id)) continue;
    const record = game.status === 'completed' ? (records.get(game.id) ?? null) : null;
    let points = new Map<number, number>();
    if (record) points = new Map(record.influencers.map((i) => [i.id, i.points]));
    else if ((game.status === 'active' || game.status === 'completed') && isStarted(game))
      points = gamePoints(db, game, game.status === 'active' ? clock.now() : game.endTime).points;
    const recorded = new Map(record?.plays.map((p) => [p.playId, p.score]) ?? []);
    const scored = entries
      .filter((play) => play.gameId === game.id)
      .map((play) => ({
        ...play,
        score: recorded.get(play.id) ?? (game.status === 'completed' && play.score !== null ? play.score : playScore(play.influencerIds, points)),
      }));
    result.set(game.id, { ranked: rank(scored), points });
  }
  return result;
}

/** GET /api/products/{id}/competition (spec section 7). */
export function competitionView(deps: GameDeps, productId: number) {
  const { db } = deps;
  const product = db.select().from(products).where(eq(products.id, productId)).get();
  if (!product) return null;
  const summary = currentGame(db, productId);
  // The panel offers Play Now only when a play would find a game (issue 27).
  const canJoin = whyNoGameToJoin(db, product) === null;
  if (!summary) {
    return {
      canJoin,
      gameId: null,
      metricsSource: deps.metrics.name,
      seedHash: null,
      seed: null,
      nextGame: null,
      gameStatus: 'waiting' as const,
      startTime: null,
      endTime: null,
      requiredParticipants: product.playEnabled ? requiredParticipantsFor(product.priceCents) : DEFAULT_REQUIRED_PARTICIPANTS,
      participants: 0,
      plays: [],
      metrics: [],
    };
  }
  // The game's row and its size come with currentGame's read, not in statements of their own (the live stream sends this view on every change).
  const { row: game, size } = summary;
  const { ranked, points } = scoredEntries(deps, game);
  // Players by their username everywhere (the scoreboard, winners, the game record, e-mails); the viewer's own line says 'You'.
  const names = usernamesOf(
    db,
    ranked.map((play) => play.userId),
  );
  return {
    canJoin,
    gameId: game.id,
    // The size this game is for (issue 38), for a product sold in several.
    ...(size ? { size } : {}),
    ...fairness(game),
    nextGame: game.status === 'waiting' && ranked.length < game.requiredParticipants ? null : nextGameOf(db, game),
    gameStatus: game.status === 'canceled' ? ('waiting' as const) : game.status,
    startTime: game.startTime,
    endTime: game.endTime,
    requiredParticipants: game.requiredParticipants || DEFAULT_REQUIRED_PARTICIPANTS,
    participants: ranked.length,
    winnerPlayId: game.winnerPlayId,
    plays: ranked.map((play) => ({
      id: play.id,
      userId: play.userId,
      username: names.get(play.userId) ?? 'A player',
      influencerIds: shownPicks(game, play.influencerIds),
      score: play.score,
      createdAt: play.enteredAt ?? play.createdAt,
    })),
    metrics: [...points].map(([influencerId, totalScore]) => ({ influencerId: String(influencerId), totalScore })),
  };
}

/**
 * Whose picks anyone may read, the game record's rule for every view: nobody's until the game
 * has started (a later entrant could copy or counter the leaders' picks), everyone's after.
 * The player's own picks are in their own views (My Games, the data download), never here:
 * these views are shared by every visitor, the live stream and the page cache.
 */
export function picksArePublic(game: Pick<Game, 'startTime'>): boolean {
  return game.startTime !== null;
}

/** A play's picks as a shared view shows them: null until the game has started (picksArePublic). */
export function shownPicks(game: Pick<Game, 'startTime'>, influencerIds: string[]): string[] | null {
  return picksArePublic(game) ? influencerIds : null;
}

/** Commit and reveal: the hash from the start, the seed only once the game is over. */
export function fairness(game: Pick<Game, 'status' | 'seed' | 'seedHash' | 'metricsSource'>) {
  const over = game.status === 'completed' || game.status === 'canceled';
  return { metricsSource: game.metricsSource, seedHash: game.seedHash, seed: over ? revealedSeed(game.seed) : null };
}

/** The game the next entrant joins when the shown one is full or live: the waiting game with room of the same size. */
function nextGameOf(db: Db, shown: Game): { id: number; participants: number; requiredParticipants: number } | null {
  const next = firstWaitingWithRoom(db, shown.productId, shown.id, shown.variantId);
  return next ? { id: next.id, participants: next.entries, requiredParticipants: next.requiredParticipants } : null;
}

/** Games a page of the Active Games tab shows. */
export const ACTIVE_PAGE_SIZE = 24;

const OPEN_GAMES = `select g.id, g.status, g.required_participants as required,
  (select count(*) from plays p where p.game_id = g.id and p.status = 'entered') as entries
  from games g where g.status in ('waiting', 'active')`;

export type ActiveGameView = ReturnType<typeof openGameViews>[number];

/**
 * The open games in the scoreboard's order (live first, then those needing the fewest players),
 * one page of them, and the games that need just 1 more player (spec section 2). A fixed number
 * of statements whatever the number of games: the order from one small query, the page's games
 * and products in one, their entries in one; a live game's points come from the running sums of
 * scoring.ts, one new minute a minute.
 */
export function activeGamesPage(deps: GameDeps, page = 1, size = ACTIVE_PAGE_SIZE) {
  const open = deps.db.$client.query<{ id: number; status: string; required: number; entries: number }, []>(OPEN_GAMES).all();
  const remaining = (g: { required: number; entries: number }) => Math.max(0, g.required - g.entries);
  open.sort((a, b) => Number(b.status === 'active') - Number(a.status === 'active') || remaining(a) - remaining(b) || a.id - b.id);
  const almost = open.filter((g) => g.status === 'waiting' && remaining(g) === 1);
  const pages = Math.max(1, Math.ceil(open.length / size));
  const shown = open.slice((page - 1) * size, page * size);
  const ids = [...new Set([...shown.map((g) => g.id), ...(almost[0] ? [almost[0].id] : [])])];
  const views = new Map(openGameViews(deps, ids).map((view) => [view.id, view]));
  return {
    games: shown.map((g) => views.get(g.id)!),
    nextGame: almost[0] ? views.get(almost[0].id)! : null,
    almostFull: almost.length,
    total: open.length,
    page,
    pages,
  };
}

/** GET /api/games/active: waiting and live games, live first, then those needing the fewest players. */
export function activeGames(deps: GameDeps) {
  return activeGamesPage(deps, 1, Number.MAX_SAFE_INTEGER).games;
}

/** The scoreboard's view of these open games (any order), with each live game's leader. */
function openGameViews(deps: GameDeps, ids: number[]) {
  const { db, clock } = deps;
  if (ids.length === 0) return [];
  const rows = db
    .select({ game: games, product: products })
    .from(games)
    .innerJoin(products, eq(games.productId, products.id))
    .where(inArray(games.id, ids))
    .all();
  const entered = db
    .select()
    .from(plays)
    .where(and(inArray(plays.gameId, ids), eq(plays.status, 'entered')))
    .all();
  const byGame = new Map<number, (typeof entered)[number][]>();
  for (const play of entered) byGame.set(play.gameId, [...(byGame.get(play.gameId) ?? []), play]);
  const leaders = new Map<number, { score: number; userId: number }>();
  for (const { game } of rows) {
    if (game.status !== 'active') continue;
    const points = isStarted(game) ? gamePoints(db, game, clock.now()).points : new Map<number, number>();
    const leader = rank((byGame.get(game.id) ?? []).map((play) => ({ ...play, score: playScore(play.influencerIds, points) })))[0];
    if (leader) leaders.set(game.id, { score: leader.score, userId: leader.userId });
  }
  const names = usernamesOf(
    db,
    [...leaders.values()].map((l) => l.userId),
  );
  const sizes = gameSizes(
    db,
    rows.map((row) => row.game),
  );
  return rows.map(({ game, product }) => {
    const leader = leaders.get(game.id);
    const size = sizes.get(game.id);
    return {
      id: game.id,
      productId: product.id,
      /** The size the game is for, for a product sold in several (issue 38). */
      ...(size ? { size } : {}),
      product: {
        id: product.id,
        name: product.name,
        brand: product.brand,
        model: product.model,
        productType: product.productType,
        imageUrl: resolveImageUrl(product.imageUrl, product.productType),
        price: centsToDollars(product.priceCents),
      },
      status: game.status as 'waiting' | 'active',
      startTime: game.startTime,
      endTime: game.endTime,
      participants: byGame.get(game.id)?.length ?? 0,
      requiredParticipants: game.requiredParticipants,
      highestScore: leader ? Math.round(leader.score * 10) / 10 : null,
      leaderUsername: leader ? (names.get(leader.userId) ?? null) : null,
    };
  });
}

/** GET /api/games/winners: the latest settled games and who won them. */
export function winners(db: Queryable, limit = 30) {
  const rows = db
    .select({ game: games, product: products, play: plays, username: users.username })
    .from(games)
    .innerJoin(products, eq(games.productId, products.id))
    .innerJoin(plays, eq(games.winnerPlayId, plays.id))
    .innerJoin(users, eq(plays.userId, users.id))
    // '+' keeps SQLite off the status index: the settled index read backwards finds the latest at once (a year holds thousands).
    .where(sql`+${games.status} = 'completed'`)
    .orderBy(desc(games.settledAt))
    .limit(limit)
    .all();
  const sizes = gameSizes(
    db,
    rows.map((row) => row.game),
  );
  return rows.map(({ game, product, play, username }) => ({
    gameId: game.id,
    playId: play.id,
    productId: product.id,
    username,
    productName: productLabel(product),
    ...(sizes.has(game.id) ? { size: sizes.get(game.id)! } : {}),
    productType: product.productType,
    imageUrl: resolveImageUrl(product.imageUrl, product.productType),
    score: Math.round((play.score ?? 0) * 10) / 10,
    date: game.settledAt ?? game.endTime,
    donated: game.prizeOutcome === 'donated',
  }));
}

/** GET /api/user/plays (the latest 100) and My Games (`limit` from `offset`): the user's entries, newest first, with the game's state and their place. */
export function userPlays(deps: GameDeps, userId: number, { offset = 0, limit = 100 }: { offset?: number; limit?: number } = {}) {
  const { db } = deps;
  const rows = db
    .select({ play: plays, game: games, product: products })
    .from(plays)
    .innerJoin(games, eq(plays.gameId, games.id))
    .innerJoin(products, eq(plays.productId, products.id))
    .where(and(eq(plays.userId, userId), inArray(plays.status, ['entered', 'pending'])))
    .orderBy(desc(plays.createdAt), desc(plays.id))
    .limit(limit)
    .offset(offset)
    .all();
  const scores = scoredEntriesOf(
    deps,
    rows.map((row) => row.game),
  );
  const sizes = gameSizes(
    db,
    rows.map((row) => row.game),
  );
  return rows.map(({ play, game, product }) => {
    const { ranked } = scores.get(game.id)!;
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
      prize: game.winnerPlayId === play.id && game.status === 'completed' ? prizeStatusOf(db, game) : null,
      game: {
        status: game.status,
        startTime: game.startTime,
        endTime: game.endTime,
        participants: ranked.length,
        requiredParticipants: game.requiredParticipants,
      },
      product: {
        name: product.name,
        brand: product.brand,
        model: product.model,
        productType: product.productType,
        imageUrl: resolveImageUrl(product.imageUrl, product.productType),
        ...(sizes.has(game.id) ? { size: sizes.get(game.id)! } : {}),
      },
    };
  });
}
