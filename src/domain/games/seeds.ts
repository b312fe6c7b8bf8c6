import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.ts';
import { games } from '../../db/schema.ts';
import { openSeed, openSeedOrNull, sealSeed } from '../operations/sealed-seeds.ts';
import { drawSeed } from './simulation.ts';

/*
 * A game's seed as stored (DESIGN section 4, docs/fairness.md): sealed under SEED_KEY while the
 * game is waiting or live, written plain when it ends (settled or canceled) and is revealed.
 */

/** A new commitment for a game: the sealed seed to store and its public hash. */
export function newGameSeed(): { seed: string; seedHash: string } {
  const { seed, seedHash } = drawSeed();
  return { seed: sealSeed(seed), seedHash };
}

/** The seed the game's points come from (hex), whether still sealed or already revealed. */
export function gameSeed(game: { id: number; seed: string | null }): string {
  if (!game.seed) throw new Error(`Game ${game.id} has no seed.`);
  return openSeed(game.seed);
}

/**
 * The columns that reveal an ending game's seed, set in the same update that ends it. A seed
 * sealed under a key this store no longer has (a restore under a new key) stays sealed: the
 * game is being voided then, and nothing needs it.
 */
export function revealedSeedOf(game: { seed: string | null }): { seed?: string } {
  const plain = openSeedOrNull(game.seed);
  return plain ? { seed: plain } : {};
}

/** Waiting and live games whose seed is still stored plain (from before seeds were sealed): sealed now, nothing lost. */
export function sealOpenGameSeeds(tx: Queryable): number {
  const open = tx
    .select({ id: games.id, seed: games.seed })
    .from(games)
    .where(and(inArray(games.status, ['waiting', 'active']), isNotNull(games.seed), sql`${games.seed} not like 'sealed%'`))
    .all();
  for (const game of open)
    tx.update(games)
      .set({ seed: sealSeed(game.seed!) })
      .where(eq(games.id, game.id))
      .run();
  return open.length;
}

/**
 * After a restore: every game not yet started draws a new seed and publishes its new hash. The
 * backup's seed may have been played and revealed after the backup was taken.
 */
export function recommitWaitingGames(tx: Queryable): number[] {
  const waiting = tx.select({ id: games.id }).from(games).where(eq(games.status, 'waiting')).all();
  for (const game of waiting)
    tx.update(games)
      .set(newGameSeed())
      .where(and(eq(games.id, game.id), eq(games.status, 'waiting')))
      .run();
  return waiting.map((game) => game.id);
}

/** The games that were live when the backup was taken: a restore voids them. */
export function liveGameIds(tx: Queryable): number[] {
  return tx
    .select({ id: games.id })
    .from(games)
    .where(eq(games.status, 'active'))
    .all()
    .map((game) => game.id);
}

/** One sealed seed of an open game, to check at start-up that the key opens it. */
export function someSealedGameSeed(tx: Queryable): string | undefined {
  return (
    tx
      .select({ seed: games.seed })
      .from(games)
      .where(and(inArray(games.status, ['waiting', 'active']), sql`${games.seed} like 'sealed%'`))
      .limit(1)
      .get()?.seed ?? undefined
  );
}
