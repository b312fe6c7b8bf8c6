import { asc, eq } from 'drizzle-orm';
import { join } from 'node:path';
import { openMigratedDatabase } from '../../src/db/client.ts';
import { influencers, products, users } from '../../src/db/schema.ts';
import { seedIfEmpty } from '../../src/db/seed.ts';
import { ManualClock } from '../../src/domain/clock.ts';
import { payForPlay } from '../../src/domain/games/entry-payment.ts';
import { createPlay, type GameDeps } from '../../src/domain/games/entry.ts';
import { runGameJobs } from '../../src/domain/games/lifecycle.ts';
import { simulatedMetrics } from '../../src/domain/games/simulation.ts';
import { createTestGateway } from '../../src/domain/payments/test-gateway.ts';
import { completeProfile, giveConsent } from './actors.ts';
import { expect } from 'bun:test';
import { games } from '../../src/db/schema.ts';
import { enter, player, type Store } from './admin-tools.ts';
import { fivePicks } from './games.ts';

const T0 = Date.UTC(2026, 10, 21, 18, 10);
const END = Date.UTC(2026, 10, 21, 20, 0);

/** A store in `dataDir` (store.db) holding one settled two-player game, for the `verify-game` command; its id. */
export async function storeWithSettledGame(dataDir: string): Promise<number> {
  const db = await openMigratedDatabase(join(dataDir, 'store.db'));
  const clock = new ManualClock(T0);
  seedIfEmpty(db, clock);
  const deps: GameDeps = { db, clock, gateway: createTestGateway(), metrics: simulatedMetrics };
  const product = db.select().from(products).where(eq(products.brand, 'The Old Man and the Sea')).get()!;
  const ids = db.select({ id: influencers.id }).from(influencers).orderBy(asc(influencers.id)).all();
  let gameId = 0;
  for (const [i, name] of ['reader_one', 'reader_two'].entries()) {
    const user = db.insert(users).values({ username: name, passwordHash: 'x', createdAt: clock.now() }).returning().get();
    completeProfile({ db, clock }, user.id);
    giveConsent({ db, clock }, user.id);
    gameId = createPlay(deps, user.id, { productId: product.id, influencerIds: ids.slice(i * 5, i * 5 + 5).map((row) => row.id) }).gameId;
    await payForPlay(deps, user.id, { productId: product.id, amount: 1, type: 'play' }, '192.0.2.1');
  }
  clock.set(END);
  await runGameJobs(deps);
  db.$client.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.$client.close();
  return gameId;
}

/** In a seededStore(): the book's game played by alice and bob (API, as the play page does) and settled; its id. */
export async function settledBookGame(ctx: Store): Promise<number> {
  const book = ctx.db.select().from(products).where(eq(products.model, 'BK-OLDMAN-001')).get()!;
  const alice = await player(ctx, 'alice');
  const bob = await player(ctx, 'bob');
  const { gameId } = await enter(alice, book.id, fivePicks(ctx.db, 0));
  await enter(bob, book.id, fivePicks(ctx.db, 5));
  ctx.clock.set(END);
  await runGameJobs({ db: ctx.db, clock: ctx.clock, gateway: ctx.gateway, metrics: simulatedMetrics });
  expect(ctx.db.select().from(games).where(eq(games.id, gameId)).get()!.status).toBe('completed');
  return gameId;
}
