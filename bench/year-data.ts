/**
 * A synthetic year of a store, written straight into its database (the benches' shared
 * builder): settled games with their frozen records, plays, payments and feed snapshots, and,
 * when asked, a busy afternoon of open games on many products (half live, half filling).
 */
import type { Db } from '../src/db/client.ts';
import { calibrationOf } from '../src/domain/games/scoring.ts';
import { drawSeed } from '../src/domain/games/simulation.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export interface YearOptions {
  games?: number;
  playersPerGame?: number;
  users?: number;
  snapshotRows?: number;
  /** Open games (half live, half waiting for players), each on a product of its own. */
  openGames?: number;
}

export function buildYear(db: Db, now: number, options: YearOptions = {}): void {
  const GAMES = options.games ?? 18_000;
  const PLAYERS_PER_GAME = options.playersPerGame ?? 10;
  const USERS = options.users ?? 2_000;
  const SNAPSHOT_ROWS = options.snapshotRows ?? 2_000_000;
  const sqlite = db.$client;
  const productIds = sqlite
    .query<{ id: number }, []>('select id from products where play_enabled = 1')
    .all()
    .map((p) => p.id);
  const influencerIds = sqlite
    .query<{ id: number }, []>('select id from influencers')
    .all()
    .map((i) => i.id);
  sqlite.transaction(() => {
    const user = sqlite.prepare("insert into users (username, password_hash, created_at) values (?, 'x', ?)");
    for (let u = 1; u <= USERS; u++) user.run(`year${u}`, now - 400 * DAY);
    const userBase = (sqlite.query('select min(id) as id from users where username like ?').get('year%') as { id: number }).id - 1;
    const game = sqlite.prepare(
      `insert into games (product_id, status, required_participants, start_time, end_time, winner_play_id, prize_outcome, created_at, settled_at, metrics_source, seed, seed_hash)
       values (?, 'completed', ?, ?, ?, null, 'bought', ?, ?, ?, ?, ?)`,
    );
    const play = sqlite.prepare(
      `insert into plays (product_id, game_id, user_id, influencer_ids, status, score, entered_at, created_at) values (?, ?, ?, ?, 'entered', ?, ?, ?)`,
    );
    const payment = sqlite.prepare(
      `insert into payments (user_id, kind, status, amount_cents, play_id, gateway, idempotency_key, gateway_payment_id, attempts, created_at, updated_at) values (?, ?, 'captured', 100, ?, 'test', ?, 'gw-' || ?4, 1, ?, ?)`,
    );
    const record = sqlite.prepare('insert into game_records (game_id, product_id, record, created_at) values (?, ?, ?, ?)');
    const winner = sqlite.prepare('update games set winner_play_id = ? where id = ?');
    let payments = 0;
    for (let g = 0; g < GAMES; g++) {
      const start = Math.floor((now - 365 * DAY + (g / GAMES) * 365 * DAY) / HOUR) * HOUR;
      const productId = productIds[g % productIds.length]!;
      const source = g % 10 === 0 ? 'feed' : 'simulated';
      const { seed, seedHash } = drawSeed();
      const gameId = Number(game.run(productId, PLAYERS_PER_GAME, start, start + HOUR, start - HOUR, start + HOUR, source, seed, seedHash).lastInsertRowid);
      const entries = [];
      for (let p = 0; p < PLAYERS_PER_GAME; p++) {
        const userId = userBase + 1 + ((g * PLAYERS_PER_GAME + p) % USERS);
        const picks = influencerIds.slice(p % 11, (p % 11) + 5).map(String);
        const score = 4000 + ((g * 7 + p * 13) % 1000);
        const playId = Number(play.run(productId, gameId, userId, JSON.stringify(picks), score, start - HOUR + p, start - HOUR).lastInsertRowid);
        payment.run(userId, 'play_authorization', playId, `year-p${playId}`, start - HOUR, start + HOUR);
        payments++;
        entries.push({ playId, userId, username: `year${userId - userBase}`, influencerIds: picks, enteredAt: start - HOUR + p, score, rank: 0 });
      }
      for (const [i, e] of entries.sort((a, b) => b.score - a.score).entries()) e.rank = i + 1;
      winner.run(entries[0]!.playId, gameId);
      record.run(
        gameId,
        productId,
        JSON.stringify({
          version: 1,
          gameId,
          product: { id: productId, brand: 'Bench', model: 'YEAR', productType: 'book' },
          metricsSource: source,
          seed,
          seedHash,
          startTime: start,
          endTime: start + HOUR,
          settledAt: start + HOUR,
          requiredParticipants: PLAYERS_PER_GAME,
          influencers: influencerIds.map((id) => ({
            id,
            name: `I${id}`,
            handle: `@i${id}`,
            platforms: { instagram: '1M' },
            engagementRate: 3,
            points: 900 + id,
          })),
          plays: entries,
          winnerPlayId: entries[0]!.playId,
          winnerUsername: entries[0]!.username,
        }),
        start + HOUR,
      );
    }
    // Orders' charges make up the rest of a year's payments.
    for (let i = payments; i < GAMES * 20; i++) payment.run(userBase + 1 + (i % USERS), 'order_charge', null, `year-o${i}`, now - DAY, now - DAY);
    // The feed's raw snapshots: the last ~60 days of 16 influencers on two platforms.
    const snapshot = sqlite.prepare(
      `insert into influencer_metrics (influencer_id, platform, minute_at, followers, engagement, growth, posts, points, source, taken_at) values (?, ?, ?, 1000000, 3, 0.1, 0, 3.5, 'feed', ?)`,
    );
    const perMinute = influencerIds.length * 2;
    const lastMinute = Math.floor(now / MINUTE) * MINUTE - MINUTE;
    for (let m = 0; m < SNAPSHOT_ROWS / perMinute; m++) {
      const minute = lastMinute - m * MINUTE;
      for (const id of influencerIds) {
        snapshot.run(id, 'instagram', minute, minute);
        snapshot.run(id, 'tiktok', minute, minute);
      }
    }
    if (options.openGames) openGames(db, now, options.openGames, userBase, USERS, influencerIds);
  })();
}

/** `count` open games on products of their own: even ones live since the top of the hour with 10 players, odd ones filling. */
function openGames(db: Db, now: number, count: number, userBase: number, users: number, influencerIds: number[]): void {
  const sqlite = db.$client;
  const calibration = JSON.stringify(calibrationOf(db, influencerIds));
  const product = sqlite.prepare(
    `insert into products (product_type, brand, model, quantity, price_cents, play_enabled, created_at) values ('book', ?, ?, 5, 2500, 1, ?)`,
  );
  const game = sqlite.prepare(
    `insert into games (product_id, status, required_participants, start_time, end_time, created_at, metrics_source, seed, seed_hash, calibration)
     values (?, ?, 10, ?, ?, ?, 'simulated', ?, ?, ?)`,
  );
  const play = sqlite.prepare(
    `insert into plays (product_id, game_id, user_id, influencer_ids, status, entered_at, created_at) values (?, ?, ?, ?, 'entered', ?, ?)`,
  );
  const hour = Math.floor(now / HOUR) * HOUR;
  for (let g = 0; g < count; g++) {
    const productId = Number(product.run(`Open Book ${g}`, `OPEN-${g}`, now - 30 * DAY).lastInsertRowid);
    const live = g % 2 === 0;
    const { seed, seedHash } = drawSeed();
    const gameId = Number(
      game.run(productId, live ? 'active' : 'waiting', live ? hour : null, live ? hour + HOUR : null, hour - HOUR, seed, seedHash, live ? calibration : null)
        .lastInsertRowid,
    );
    const players = live ? 10 : g % 10;
    for (let p = 0; p < players; p++) {
      const userId = userBase + 1 + ((g * 10 + p) % users);
      const picks = influencerIds.slice((g + p) % 11, ((g + p) % 11) + 5).map(String);
      play.run(productId, gameId, userId, JSON.stringify(picks), hour - HOUR + p, hour - HOUR + p);
    }
  }
}
