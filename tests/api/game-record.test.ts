import { describe, expect, test } from 'bun:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { verifyGameCommand } from '../../src/cli/verify-game.ts';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { influencers, products, users } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { payForPlay } from '../../src/domain/games/entry-payment.ts';
import { createPlay, type GameDeps } from '../../src/domain/games/entry.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { createTestGateway } from '../../src/domain/payments/test-gateway.ts';
import { completeProfile } from '../helpers/actors.ts';
import { testApp } from '../helpers/app.ts';
import { giveConsent } from '../helpers/actors.ts';

/*
 * A game's public record: GET /api/games/{id} and the /games/{id} page show entries (picks once
 * the game has started), live or final scores, the winner, the seed hash, and the seed once the
 * game is over; a settled game outlives its product; `verify-game` checks it from the database.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2026, 10, 21, 18, 10);
const START = Date.UTC(2026, 10, 21, 19, 0);
const END = START + HOUR;

async function twoPlayerGame(db: GameDeps['db'], clock: ManualClock, deps: GameDeps) {
  const product = db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
  const ids = db
    .select({ id: influencers.id })
    .from(influencers)
    .orderBy(asc(influencers.id))
    .all()
    .map((i) => String(i.id));
  let gameId = 0;
  for (const [i, name] of ['reader_one', 'reader_two'].entries()) {
    const user = db.insert(users).values({ username: name, passwordHash: 'x', createdAt: clock.now() }).returning().get();
    completeProfile({ db, clock }, user.id);
    giveConsent({ db, clock }, user.id);
    gameId = createPlay(deps, user.id, { productId: product.id, influencerIds: ids.slice(i * 5, i * 5 + 5).map(Number) }).gameId;
    await payForPlay(deps, user.id, { productId: product.id, amount: 1, type: 'play' }, '192.0.2.1');
  }
  return { gameId, productId: product.id };
}

describe('GET /api/games/{id} and /games/{id}', () => {
  test('waiting: entries without picks; live: picks and live scores; over: final scores, winner and seed', async () => {
    const ctx = await testApp({}, { seededAt: T0 });
    const deps: GameDeps = { db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics: simulatedMetrics };
    const { gameId, productId } = await twoPlayerGame(ctx.db, ctx.clock, deps);
    const client = ctx.client();

    const waiting = await (await client.get(`/api/games/${gameId}`)).json();
    expect(waiting).toMatchObject({ id: gameId, status: 'waiting', participants: 2, requiredParticipants: 2, seed: null, winner: null, influencers: [] });
    expect(waiting.seedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(waiting.entries.map((e: { username: string; influencerIds: unknown; score: unknown }) => [e.username, e.influencerIds, e.score])).toEqual([
      ['reader_one', null, null],
      ['reader_two', null, null],
    ]);
    const waitingPage = await (await client.get(`/games/${gameId}`)).text();
    expect(waitingPage).toContain('Waiting for players');
    expect(waitingPage).toContain('Picks are shown when the game starts');

    ctx.clock.set(START + 10 * MINUTE);
    await runGameJobs(deps);
    const live = await (await client.get(`/api/games/${gameId}`)).json();
    expect(live.status).toBe('active');
    expect(live.entries.every((e: { influencerIds: string[]; score: number; rank: number }) => e.influencerIds.length === 5 && e.score > 0 && e.rank > 0)).toBe(
      true,
    );
    expect(live.influencers).toHaveLength(10);
    expect(live.seed).toBeNull();

    ctx.clock.set(END);
    await runGameJobs(deps);
    const over = await (await client.get(`/api/games/${gameId}`)).json();
    // A copy: Bun's toMatchObject writes its asymmetric matchers into the object it checks.
    expect({ ...over }).toMatchObject({ status: 'completed', settledAt: END, seed: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(over.winner.playId).toBe(over.entries[0].playId);
    expect(over.createdAt).toBeNumber();
    expect(over.createdAt).toBe(waiting.createdAt);
    const page = await (await client.get(`/games/${gameId}`)).text();
    expect(page).toContain(`Winner: ${over.winner.username}`);
    expect(page).toContain(over.seed);

    // The product goes; its game's record stays.
    ctx.db.delete(products).where(eq(products.id, productId)).run();
    const afterDelete = await (await client.get(`/api/games/${gameId}`)).json();
    // The prize's state and the opening time lived on the game row, which went with the product.
    expect({ ...afterDelete, product: undefined, prize: undefined, createdAt: undefined }).toEqual({
      ...over,
      product: undefined,
      prize: undefined,
      createdAt: undefined,
    });
    expect(afterDelete.createdAt).toBeNull();
    expect(afterDelete.product).toMatchObject({ id: productId, exists: false });
    expect((await client.get(`/games/${gameId}`)).status).toBe(200);
  });

  test('unknown and malformed ids: 404, never 500', async () => {
    const ctx = await testApp();
    for (const id of ['999', '0', 'abc', '1e3', '-1', '99999999999999999999']) {
      expect((await ctx.client().get(`/api/games/${id}`)).status).toBe(404);
      expect((await ctx.client().get(`/games/${id}`)).status).toBe(404);
    }
  });
});

describe('verify-game ID', () => {
  test('reads DATA_DIR, prints MATCH and exits 0 for a settled game; 1 for an unknown game; 2 for bad usage', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'csa-verify-'));
    const db = await openMigratedDatabase(join(dataDir, 'store.db'));
    const clock = new ManualClock(T0);
    seedIfEmpty(db, clock);
    const deps: GameDeps = { db, clock, gateway: createTestGateway(), metrics: simulatedMetrics };
    const { gameId } = await twoPlayerGame(db, clock, deps);
    clock.set(END);
    await runGameJobs(deps);
    db.$client.close();
    const lines: string[] = [];
    const log = console.log;
    const error = console.error;
    console.log = (line: string) => lines.push(line);
    console.error = (line: string) => lines.push(line);
    try {
      expect(verifyGameCommand([String(gameId)], { DATA_DIR: dataDir })).toBe(0);
      expect(lines.at(-1)).toBe('MATCH: every score and the winner match');
      expect(verifyGameCommand(['4242'], { DATA_DIR: dataDir })).toBe(1);
      expect(verifyGameCommand(['x'], { DATA_DIR: dataDir })).toBe(2);
      expect(verifyGameCommand(['1'], { DATA_DIR: join(dataDir, 'nowhere') })).toBe(2);
    } finally {
      console.log = log;
      console.error = error;
    }
  });
});
