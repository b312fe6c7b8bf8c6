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
