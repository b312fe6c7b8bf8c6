import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appSettings } from '../db/schema.ts';
import { cancelGameIn, voidGameHolds } from '../domain/games/cancel.ts';
import type { GameDeps } from '../domain/games/entry.ts';
import { liveGameIds, recommitWaitingGames, sealOpenGameSeeds, someSealedGameSeed } from '../domain/games/seeds.ts';
import { openSeedOrNull } from '../domain/operations/sealed-seeds.ts';
import { recommitBoxes, sealCurrentBoxSeeds, someSealedBoxSeed } from '../domain/promotions/mystery-boxes.ts';
import { RECOMMIT_SETTING } from './restore-store.ts';

/*
 * What start-up does to the store's secret seeds (docs/fairness.md, "Secret seeds, backups and restores"):
 * seeds still stored plain are sealed under SEED_KEY, and a store that `restore` put in place
 * re-commits before it serves anything or runs a job, so no draw repeats an input a customer
 * may have seen after the backup was taken.
 */

export const VOIDED_BY_RESTORE = 'The store was restored from a backup taken while this game was being played.';

export const SEED_KEY_MISMATCH =
  'SEED_KEY does not open the seeds this store sealed: start it with the key it ran with before (SEED_KEY, or DATA_DIR/seed.key in development). Nothing was changed.';

/**
 * Refuses a start whose key does not open the store's sealed seeds (a mistyped or swapped
 * SEED_KEY), before a live game's points or a box draw need one. A restored store is exempt:
 * its first start replaces every sealed seed anyway.
 */
export function checkSeedKey(db: Db): void {
  if (db.select().from(appSettings).where(eq(appSettings.key, RECOMMIT_SETTING)).get()) return;
  for (const sealed of [someSealedGameSeed(db), someSealedBoxSeed(db)]) {
    if (sealed !== undefined && openSeedOrNull(sealed) === null) throw new Error(SEED_KEY_MISMATCH);
  }
}

/** Plain seeds of open games and boxes (a store from before they were sealed) are sealed in place. */
export function sealPlainSeeds(db: Db): { games: number; boxes: number } {
  return db.transaction((tx) => ({ games: sealOpenGameSeeds(tx), boxes: sealCurrentBoxSeeds(tx) }));
}

export interface Recommitted {
  boxes: string[];
  /** Waiting games with a new seed and hash. */
  reseeded: number[];
  /** Games live at the backup's time, voided: holds voided, free entries given back, players told. */
  voided: number[];
}

/**
 * After a restore, once: every box and every waiting game commits a new seed, and every game that
 * was live at the backup's time is voided through the game's own cancel path (its holds marked
 * 'voiding' in the same transaction, then voided at the gateway; an unknown answer is the
 * reconciler's, as for any void). Several processes may start on the restored file: the one that
 * deletes the marker does it all, in one transaction.
 */
export async function recommitAfterRestore(deps: GameDeps): Promise<Recommitted | null> {
  const { db, clock } = deps;
  const done = db.transaction((tx) => {
    const marker = tx.delete(appSettings).where(eq(appSettings.key, RECOMMIT_SETTING)).returning().get();
    if (!marker) return null;
    const now = clock.now();
    const boxes = recommitBoxes(tx, now);
    const reseeded = recommitWaitingGames(tx);
    const voided = liveGameIds(tx).filter((gameId) =>
      cancelGameIn(tx, clock, gameId, {
        reason: VOIDED_BY_RESTORE,
        message: (brand, sized) =>
          `The game for ${brand}${sized} was voided: the store was restored from a backup taken while it was being played, so it will not be played again. Your $1 hold was released; nothing was charged.`,
        only: 'active',
      }),
    );
    return { boxes, reseeded, voided };
  });
  for (const gameId of done?.voided ?? []) {
    try {
      await voidGameHolds(deps, gameId);
    } catch (error) {
      // The holds stay 'voiding': the reconciler asks the gateway again; the store still starts.
      console.warn(`restore: voiding the holds of game ${gameId} is left to the reconciler: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return done;
}
