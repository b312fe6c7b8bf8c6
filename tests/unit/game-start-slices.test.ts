import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Db, openDatabase, openMigratedDatabase } from '../../src/db/client.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { createTestGateway } from '../../src/domain/payments/test-gateway.ts';
import { drawSeed, simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { GAMES_PER_SLICE, runGameJobs, startDueGames } from '../../src/domain/games/lifecycle.ts';
import { sliceCounter } from '../../src/domain/operations/slices.ts';
import { book, END, fivePicks, gameStore, HOUR, picks, START, stockOf, T0, type GameStore } from '../helpers/games.ts';

/*
 * issue 26 row 5: hundreds of games filling in the same hour start at its top. The tick starts
 * them one transaction each and gives the requests a turn every GAMES_PER_SLICE games, so the
 * store is never frozen for the whole batch; the claims still start every game exactly once.
 */

const GAMES = 45;

/** GAMES filled games of the $2 book (two players each), waiting for 19:00; written straight into the database. */
function filledGames(ctx: GameStore): { productId: number; gameIds: number[] } {
  return fillGames(ctx.db, book(ctx).id, picks(ctx, 0));
}

function fillGames(db: Db, productId: number, five: string[]): { productId: number; gameIds: number[] } {
  const sqlite = db.$client;
  sqlite.query('update products set quantity = ? where id = ?').run(GAMES + 5, productId);
  sqlite.query('update product_variants set quantity = ?, stocked = ? where product_id = ?').run(GAMES + 5, GAMES + 5, productId);
  const gameIds: number[] = [];
  sqlite.transaction(() => {
    const user = sqlite.prepare("insert into users (username, password_hash, created_at) values (?, 'x', ?)");
    const game = sqlite.prepare(
      "insert into games (product_id, status, required_participants, created_at, metrics_source, seed, seed_hash) values (?, 'waiting', 2, ?, 'simulated', ?, ?)",
    );
    const play = sqlite.prepare(
      "insert into plays (product_id, game_id, user_id, influencer_ids, status, entered_at, created_at) values (?, ?, ?, ?, 'entered', ?, ?)",
    );
    for (let g = 0; g < GAMES; g++) {
      const { seed, seedHash } = drawSeed();
      const gameId = Number(game.run(productId, T0, seed, seedHash).lastInsertRowid);
      gameIds.push(gameId);
      for (let p = 0; p < 2; p++) {
        const userId = Number(user.run(`slice${g}x${p}`, T0).lastInsertRowid);
        play.run(productId, gameId, userId, JSON.stringify(five), T0 + p, T0 + p);
      }
    }
  })();
  return { productId, gameIds };
}

function statusCounts(ctx: GameStore): Record<string, number> {
  const rows = ctx.db.$client.query('select status, count(*) as n from games group by status').all() as { status: string; n: number }[];
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

describe('many games at the top of the hour', () => {
  test('they start in slices that give the requests a turn, each exactly once', async () => {
    const ctx = await gameStore();
    const { productId, gameIds } = filledGames(ctx);
    ctx.clock.set(START);
    // A request arriving while the tick runs is answered before the tick has started every game.
    let startedWhenAnswered = -1;
    setImmediate(() => {
      startedWhenAnswered = statusCounts(ctx).active ?? 0;
    });
    const yieldsBefore = sliceCounter.yields;
    const { started } = await runGameJobs(ctx.deps);
    expect(started.sort((a, b) => a - b)).toEqual(gameIds);
    expect(sliceCounter.yields - yieldsBefore).toBeGreaterThanOrEqual(Math.floor(GAMES / GAMES_PER_SLICE));
    expect(startedWhenAnswered).toBeGreaterThanOrEqual(0);
    expect(startedWhenAnswered).toBeLessThan(GAMES);
    // Each game reserved its one unit, and told each of its players once.
    expect(stockOf(ctx, productId)).toBe(5);
    const told = ctx.db.$client
      .query("select count(*) as n, count(distinct event_key || ':' || user_id) as distinctNotes from notifications where type = 'game_started'")
      .get();
    expect(told).toEqual({ n: GAMES * 2, distinctNotes: GAMES * 2 });
    expect(await startDueGames(ctx.deps, START + HOUR)).toEqual([]);
  });

  test('two ticks at once in one process (the manual clock route and the scheduler) interleave and start each game once', async () => {
    const ctx = await gameStore();
    const { productId, gameIds } = filledGames(ctx);
    const [a, b] = await Promise.all([startDueGames(ctx.deps, START), startDueGames(ctx.deps, START)]);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(gameIds);
    // The slices let both runs take turns: the second started some of them too.
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(stockOf(ctx, productId)).toBe(5);
    expect(statusCounts(ctx)).toEqual({ active: GAMES });
    ctx.clock.set(END);
    expect((await runGameJobs(ctx.deps)).settled).toHaveLength(GAMES);
  });

  test('two processes on one file (two connections, each its own ticks) start each game once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'csa-two-starters-'));
    const first = await openMigratedDatabase(join(dir, 'store.db'));
    const clock = new ManualClock(T0);
    seedIfEmpty(first, clock);
    const productId = first.$client.query<{ id: number }, []>("select id from products where brand = 'The Old Man and the Sea'").get()!.id;
    const { gameIds } = fillGames(first, productId, fivePicks(first, 0));
    const second = openDatabase(join(dir, 'store.db'));
    clock.set(START);
    const gateway = createTestGateway();
    const [a, b] = await Promise.all([
      startDueGames({ db: first, clock, gateway, metrics: simulatedMetrics }, START),
      startDueGames({ db: second, clock, gateway, metrics: simulatedMetrics }, START),
    ]);
    expect([...a, ...b].sort((x, y) => x - y)).toEqual(gameIds);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(second.$client.query('select quantity from products where id = ?').get(productId)).toEqual({ quantity: 5 });
    expect(second.$client.query("select count(*) as n from notifications where type = 'game_started'").get()).toEqual({ n: GAMES * 2 });
    first.$client.close();
    second.$client.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
